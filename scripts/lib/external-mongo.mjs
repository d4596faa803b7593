// `npm test` against a MongoDB of your own instead of the embedded FerretDB (docs/operations.md, "Testing against a
// MongoDB of your own"): TEST_EXTERNAL_MONGO_URL=mongodb://host:27017/?replicaSet=rs0 npm test
// The run checks the server answers, notes the databases already there, gives the e2e stack database names of this run
// only (the service suites already name theirs at random and drop them), and at the end drops every test database the
// run created (test_*, e2e_*) and nothing else.
import { randomBytes } from 'node:crypto';
import { StepError } from './util.mjs';

/** The MongoDB `npm test` was pointed at, or '' for the embedded FerretDB. */
export const EXTERNAL_MONGO_URL = process.env.TEST_EXTERNAL_MONGO_URL || '';

/** The names the test suites give their databases: the only ones a run drops. */
const TEST_DATABASE = /^(test_|e2e_)/;

/** The URL with its password hidden, for the terminal. */
export function redact(url) {
  return url.replace(/^(mongodb(?:\+srv)?:\/\/[^:/@]+):[^@/]*@/, '$1:***@');
}

async function mongodb() {
  return import('mongodb');
}

/**
 * Connects to the external server and describes it in one note (version, replica set or standalone, FerretDB when it
 * says so). Resolves to { url, runId, e2ePrefix, before, client } — `before`: the databases already there.
 */
export async function openExternalMongo(url, note) {
  if (!/^mongodb(\+srv)?:\/\//.test(url))
    throw new StepError(`TEST_EXTERNAL_MONGO_URL must be a mongodb:// or mongodb+srv:// URL, not "${redact(url)}"`);
  const { MongoClient } = await mongodb();
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 10_000 });
  try {
    await client.connect();
    const admin = client.db('admin');
    const hello = await admin.command({ hello: 1 });
    const build = await admin.command({ buildInfo: 1 });
    const { databases } = await admin.command({ listDatabases: 1, nameOnly: true });
    const runId = randomBytes(3).toString('hex');
    const ferret = build.ferretdbVersion ?? build.ferretdb?.version;
    const kind =
      ferret === undefined
        ? `MongoDB ${build.version}`
        : `FerretDB${ferret && ferret !== 'unknown' ? ` ${ferret}` : ''} (answering as MongoDB ${build.version})`;
    const topology = hello.setName ? `replica set ${hello.setName}` : 'standalone (no replica set)';
    const stale = databases.filter((d) => TEST_DATABASE.test(d.name)).length;
    note(`${kind}, ${topology}, ${databases.length} databases there; this run's id ${runId}`);
    // an interrupted earlier run's: not this run's to drop (another run may be using them), but said
    if (stale) note(`${stale} test databases (test_*, e2e_*) left from earlier runs or in use by another`);
    return { url, runId, e2ePrefix: `e2e_${runId}_`, before: new Set(databases.map((d) => d.name)), client };
  } catch (err) {
    await client.close().catch(() => undefined);
    if (err instanceof StepError) throw err;
    throw new StepError(`the MongoDB at ${redact(url)} (TEST_EXTERNAL_MONGO_URL) did not answer: ${err.message}`);
  }
}

/** Drops the test databases (test_*, e2e_*) the run created, notes them, and closes the connection. */
export async function dropCreatedDatabases(external, note) {
  const { client, before } = external;
  try {
    const { databases } = await client.db('admin').command({ listDatabases: 1, nameOnly: true });
    const created = databases.map((d) => d.name).filter((name) => !before.has(name));
    const dropped = created.filter((name) => TEST_DATABASE.test(name));
    for (const name of dropped) await client.db(name).dropDatabase();
    const left = created.filter((name) => !TEST_DATABASE.test(name));
    note(
      `${dropped.length ? `dropped ${dropped.length} (${dropped.join(', ')})` : 'the suites had dropped theirs: none left'}` +
        (left.length ? `; new but not a test database's name, so left: ${left.join(', ')}` : ''),
    );
  } finally {
    await client.close().catch(() => undefined);
  }
}
