import { createHash } from 'node:crypto';

/** The Content-Type of every cart answer (Express's res.json()). */
export const CART_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * The ETag Express gives a JSON answer (its default `etag fn`, weak: the `etag` package on the UTF-8 bytes): W/"<byte
 * length in hex>-<SHA-1 in base64, first 27 characters>". cart-answer.spec.ts holds it against the `etag` package.
 */
export function weakEtagOf(json: string): string {
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes === 0) return 'W/"0-2jmj7l5rSw0yVb/vlWAYkK/YBwk"';
  const hash = createHash('sha1').update(json, 'utf8').digest('base64').substring(0, 27);
  return `W/"${bytes.toString(16)}-${hash}"`;
}
