/** Socket writes waiting for the end of this turn of the event loop. */
const pending: Array<() => void> = [];

function flush(): void {
  for (const write of pending.splice(0)) {
    try {
      write();
    } catch (err) {
      // Out of the request's own try/catch by now: one broken write must neither crash the gateway nor cost the
      // writes queued after it their answers.
      process.emitWarning(`a socket write failed: ${(err as Error)?.message ?? String(err)}`);
    }
  }
}

/**
 * Runs a socket write after the event loop has read every request that was waiting, back to back with the other
 * writes of this turn, rather than one by one between the parsing of the next requests. A write to a peer that is
 * waiting for it wakes that peer, and on a VM a wake-up is a costly exit; written back to back, the writes after
 * the first find it awake. Under the browse mix the gateway's socket writes were a third of its CPU profile;
 * batched, its CPU per request (the catalog's included) was 4–34 % lower in each of six paired runs
 * (docs/performance.md, "Browsing"). The cart lane's forwarded requests and small answers go the same way (its
 * CPU per add 101–111 µs against 124–130, docs/performance.md, "Performance: cart").
 */
export function writeTogether(write: () => void): void {
  if (pending.push(write) === 1) setImmediate(flush);
}
