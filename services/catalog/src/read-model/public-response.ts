import {
  PUBLIC_CACHE_CONTROL,
  PUBLIC_CONTENT_TYPE,
  PUBLIC_SURROGATE_CONTROL,
  SURROGATE_KEY_HEADER,
  type PublicResponse,
} from '@shop/catalog-read-model';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** How public reads are assembled: the read model's. */
export {
  listResponse,
  productBytesOf,
  productResponse,
  suggestResponse,
  type ProductBytes,
  type PublicResponse,
} from '@shop/catalog-read-model';

/** Whether `If-None-Match` names this ETag (`*`, or one of its tags, weak or strong: a GET compares weakly). */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/**
 * Sends a public read's bytes as they are (no serialization) with its ETag, or 304 when the client already has
 * them. Clients must revalidate every time (`no-cache`): an admin edit shows on the very next request. The headers
 * go through the reply, so the request id and the access line's status are the ones every other answer has.
 */
export function sendPublic(req: FastifyRequest, reply: FastifyReply, response: PublicResponse): void {
  void reply.header('ETag', response.etag).header('Cache-Control', PUBLIC_CACHE_CONTROL);
  if (etagMatches(req.headers['if-none-match'], response.etag)) {
    void reply.status(304).send();
    return;
  }
  void reply.header('Surrogate-Control', response.surrogateControl ?? PUBLIC_SURROGATE_CONTROL);
  if (response.surrogateKeys !== undefined) void reply.header(SURROGATE_KEY_HEADER, response.surrogateKeys);
  void reply.status(200).type(PUBLIC_CONTENT_TYPE).send(response.body);
}
