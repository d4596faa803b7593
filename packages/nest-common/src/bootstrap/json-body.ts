import { BadRequestException, UnsupportedMediaTypeException } from '@nestjs/common';
import { BROKEN_TEXT } from '@shop/contracts';
import type { FastifyInstance } from 'fastify';

/** Deepest JSON a request body may be: every body of the API is a few levels deep. */
export const MAX_JSON_DEPTH = 32;

export const JSON_BODY_MESSAGES = {
  tooDeep: 'Request body is nested too deeply',
  invalidText: 'Request body contains invalid text (a broken character or a NUL)',
} as const;

const MALFORMED_JSON = 'Malformed JSON in request body';

/**
 * Why a parsed JSON body is refused before any validation sees it, or undefined when it is fine: nested deeper
 * than `maxDepth` objects/arrays (refused here, 400, instead of overflowing the stack of whatever recursive code
 * — class-transformer, validation — would meet it next), or holding broken text in a key or a string value.
 * Walks without recursion.
 */
export function jsonBodyProblem(value: unknown, maxDepth = MAX_JSON_DEPTH): string | undefined {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (typeof node === 'string') {
      if (BROKEN_TEXT.test(node)) return JSON_BODY_MESSAGES.invalidText;
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    if (depth > maxDepth) return JSON_BODY_MESSAGES.tooDeep;
    if (Array.isArray(node)) {
      for (const child of node) stack.push([child, depth + 1]);
      continue;
    }
    for (const [key, child] of Object.entries(node)) {
      if (BROKEN_TEXT.test(key)) return JSON_BODY_MESSAGES.invalidText;
      stack.push([child, depth + 1]);
    }
  }
  return undefined;
}

const RAW_JSON = Symbol('rawJson');

/**
 * The JSON body's text exactly as it arrived (before parsing), kept on the request for a route that must check a
 * signature over the bytes the sender signed (PayPal's webhooks); undefined when the body was not JSON.
 */
export function rawJsonBody(req: unknown): string | undefined {
  const raw = (req as { [RAW_JSON]?: unknown } | undefined)?.[RAW_JSON];
  return typeof raw === 'string' ? raw : undefined;
}
/** Largest JSON body a service reads (the gateway enforces its own limit first). */
export const JSON_BODY_LIMIT = 1024 * 1024;

/**
 * The services' one body parser, on Fastify: `application/json` only (UTF-8), at most `limit` bytes (413), an object
 * or an array (400 otherwise, as are malformed JSON and a `__proto__` key), refused by {@link jsonBodyProblem} before
 * any validation sees it; an empty body is `{}`. Any other content type is left unread (`body` undefined) for the
 * route that wants it — an upload's multipart body is streamed by its own interceptor — or for validation to refuse.
 */
export function parseJsonBodies(app: FastifyInstance, limit = JSON_BODY_LIMIT): void {
  const parse = app.getDefaultJsonParser('error', 'ignore');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: limit }, (req, body, done) => {
    const text = body as string; // parseAs: 'string'
    (req as unknown as { [RAW_JSON]: string })[RAW_JSON] = text;
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers['content-type'] ?? '')?.[1];
    if (charset && !/^utf-?8$/i.test(charset))
      return done(new UnsupportedMediaTypeException('Unsupported request body encoding'), undefined);
    if (text === '') return done(null, {});
    const first = /\S/.exec(text)?.[0];
    if (first !== '{' && first !== '[') return done(new BadRequestException(MALFORMED_JSON), undefined);
    parse(req, text, (err, value) => {
      if (err) return done(new BadRequestException(MALFORMED_JSON), undefined);
      const problem = jsonBodyProblem(value);
      done(problem ? new BadRequestException(problem) : null, value);
    });
  });
  app.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
}
