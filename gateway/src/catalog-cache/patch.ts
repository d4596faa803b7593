import { createHash } from 'node:crypto';
import type { Entry, ListParts } from './entry';

/** The cache key of a product's own page: its entry holds the product's current bytes. */
export function productPageKey(id: string): string {
  return `/api/products/${id}`;
}

/**
 * The list with its stale products' bytes replaced by `current` ones (their pages, as cached since the change),
 * and no gzip variant yet. Its ETag is the hash of its new bytes: the catalog hashes the same bytes otherwise
 * (from its products' ETags), so a client may revalidate once in vain, never against stale bytes.
 */
export function patched(entry: Entry, current: ReadonlyMap<string, Buffer>): Entry {
  const { ids, starts, ends } = entry.parts as ListParts;
  const pieces = ids.map((id, i) => current.get(id) ?? entry.raw.subarray(starts[i], ends[i]));
  const raw = Buffer.allocUnsafe(pieces.reduce((sum, piece) => sum + piece.length + 1, 1));
  const parts: { ids: readonly string[]; starts: number[]; ends: number[] } = { ids, starts: [], ends: [] };
  let at = 0;
  raw[at++] = 0x5b; // [
  pieces.forEach((piece, i) => {
    if (i) raw[at++] = 0x2c; // ,
    parts.starts.push(at);
    at += piece.copy(raw, at);
    parts.ends.push(at);
  });
  raw[at] = 0x5d; // ]
  const etag = `"${createHash('sha1').update(raw).digest('base64url')}"`;
  return {
    ...entry,
    raw,
    etag,
    weakEtag: `W/${etag}`,
    parts,
    stale: undefined,
    gzip: undefined,
    zipping: undefined,
    bytes: raw.length,
  };
}
