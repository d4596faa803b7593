/**
 * A unique index refused the write: MongoDB's duplicate-key error 11000 (also inside bulk `writeErrors`).
 * FerretDB v1 reports a violation by an *update* not as 11000 but as a generic error naming the SQLite
 * constraint, so that form is recognised too. Neither gives `keyValue` reliably: callers know which
 * index a write can violate and say so themselves.
 */
export function isDuplicateKeyError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; message?: unknown; writeErrors?: Array<{ code?: unknown }> };
  if (e.code === 11000) return true;
  if (Array.isArray(e.writeErrors) && e.writeErrors.some((w) => w.code === 11000)) return true;
  return typeof e.message === 'string' && /E11000|UNIQUE constraint failed/.test(e.message);
}
