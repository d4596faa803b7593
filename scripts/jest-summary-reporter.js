// Prints the one closing line CI reads: "N passed, N failed" (plus skipped when any).
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const skipped = results.numPendingTests + results.numTodoTests;
    let line = `${results.numPassedTests} passed, ${failed} failed`;
    if (skipped) line += `, ${skipped} skipped`;
    process.stdout.write(`\n${line}\n`);
  }
}
module.exports = SummaryReporter;
