import * as http from 'node:http';
import * as https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Request, RequestHandler, Response } from 'express';
import { CART_CONTENT_TYPE } from '@shop/cart-model';
import { REQUEST_ID_HEADER } from '@shop/contracts';
import type { GuestCartAnswer, GuestCartReads } from './cart-guest-reads';
import type { GatewayConfig } from './config';
import { MESSAGES, sendError, unavailableMessage } from './errors';
import type { Logger } from './logger';
import { assignRequestId, logWhenDone } from './request-id';
import { writeTogether } from './write-together';

/** The one path the lane forwards; every other spelling of it (case, trailing slash, /merge) takes the full path. */
const CART_PATH = '/api/cart';

export interface CartLaneOptions {
  /** The keep-alive pool to the cart service (the proxies' own, so both paths share its sockets). */
  agent: http.Agent;
  /** The security headers every response gets, computed once (security.ts staticSecurityHeaders). */
  securityHeaders: ReadonlyArray<readonly [string, string]>;
  /**
   * The gateway's response compression, as on the Express path (connect middleware: it needs only Node's API),
   * applied once the upstream answered, and only to an answer it could compress.
   */
  compress: RequestHandler;
  /** Plain guest cart reads answered here (cart-guest-reads.ts), when on: else every read is forwarded. */
  guestReads?: GuestCartReads;
}

/** Forwards a request if it is the lane's (true), or leaves it to Express (false). */
export type CartLane = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * The cart's hot path: GET and POST /api/cart — a shopper's cart reads and adds — forwarded to the cart service in
 * front of Express, whose router, helmet and http-proxy cost more per request than the cart service's own work
 * (measured: docs/performance.md "Performance: cart"). It does what that path does for these requests: the same
 * request id, access-log line and metrics (logWhenDone), the security headers helmet sets (precomputed), compression,
 * X-Forwarded-For/Port/Proto/Host as http-proxy's xfwd writes them, the upstream's status and headers (less
 * X-Powered-By), the proxy timeout, and a JSON 503 when cart cannot be reached. No rate limit applies to the cart.
 *
 * A request it cannot forward as simply goes to Express, which answers it as before: another method or spelling of
 * the path, HTTP/1.0, a chunked body (counted there as it streams) or a Content-Length over the body limit (413
 * there). With a Content-Length, Node's parser never passes on more than it declares, so no byte counting is needed.
 */
export function createCartLane(config: GatewayConfig, logger: Logger, options: CartLaneOptions): CartLane {
  const target = new URL(config.upstreams.cart);
  const { agent, securityHeaders, compress, guestReads } = options;
  const request = target.protocol === 'https:' ? https.request : http.request;

  const forward = (req: IncomingMessage, res: ServerResponse, requestId: string): void => {
    const upstream = request({
      protocol: target.protocol,
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: req.headers,
      agent,
    });
    // As http-proxy's proxyTimeout: give up on a silent upstream (then the 503 below).
    upstream.setTimeout(config.proxyTimeoutMs, () => upstream.destroy());
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      if (res.destroyed) return; // the client went away first: nobody to answer
      logger.warn({ requestId, upstream: 'cart', code: err.code, err: err.message }, 'upstream failed');
      void compress(req as Request, res as Response, () => {
        if (!sendError(res, 503, unavailableMessage('cart'))) res.destroy();
      });
    });
    upstream.on('response', (answer) => {
      res.statusCode = answer.statusCode ?? 502;
      if (answer.statusMessage) res.statusMessage = answer.statusMessage;
      for (const [name, value] of Object.entries(answer.headers))
        if (value !== undefined && name !== 'x-powered-by') res.setHeader(name, value);
      if (!answer.headers.connection) res.setHeader('connection', req.headers.connection || 'keep-alive');
      if (belowCompressionThreshold(answer.headers)) {
        // All the compression middleware would do to this answer (a Vary, as for every JSON answer); sent whole, back
        // to back with this turn's other writes.
        res.setHeader('vary', 'Accept-Encoding');
        readWhole(answer, (body) => writeTogether(() => res.end(body)));
      } else void compress(req as Request, res as Response, () => answer.pipe(res));
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    // The request goes out whole when small, back to back with this turn's other writes (write-together.ts).
    const length = Number(req.headers['content-length'] ?? 0);
    if (length === 0) writeTogether(() => upstream.end());
    else if (length <= WHOLE_BODY_BYTES) readWhole(req, (body) => writeTogether(() => upstream.end(body)));
    else req.pipe(upstream);
  };

  /**
   * A guest read answered here: the headers the cart service sends with it (its JSON's type, ETag and length), and
   * what the compression middleware makes of them, as for a forwarded answer (the security headers, request id and
   * access line are already on their way).
   */
  const answerHere = (req: IncomingMessage, res: ServerResponse, answer: GuestCartAnswer): void => {
    if (res.destroyed) return;
    // The access line: no upstream asked; answered from the gateway's memory (and one Redis read).
    (res as ServerResponse & { locals?: object }).locals = { upstream: null, cache: 'GATEWAY' };
    const length = Buffer.byteLength(answer.json);
    res.statusCode = 200;
    res.setHeader('content-type', CART_CONTENT_TYPE);
    res.setHeader('etag', answer.etag);
    res.setHeader('content-length', length);
    if (length < COMPRESSION_THRESHOLD) {
      res.setHeader('vary', 'Accept-Encoding');
      writeTogether(() => res.end(answer.json));
    } else void compress(req as Request, res as Response, () => res.end(answer.json));
  };

  return (req, res) => {
    if (!isForwardable(req, config.bodyLimitBytes)) return false;
    const started = process.hrtime.bigint();
    const requestId = assignRequestId(req);
    // What the access-log line reports as the upstream (the Express path keeps it in res.locals too).
    (res as ServerResponse & { locals?: object }).locals = { upstream: 'cart' };
    logWhenDone(req, res, logger, requestId, started);
    res.setHeader(REQUEST_ID_HEADER, requestId);
    for (const [name, value] of securityHeaders) res.setHeader(name, value);
    addForwardedHeaders(req);
    // As http-proxy's `timeout`: the client side may idle a little longer than the upstream, so the 503 wins.
    req.socket.setTimeout(config.proxyTimeoutMs + 5_000);
    const guestId = guestReads?.plainRead(req);
    if (guestId === undefined) forward(req, res, requestId);
    else
      guestReads!
        .answer(guestId)
        .then(
          (answer) => (answer ? answerHere(req, res, answer) : forward(req, res, requestId)),
          () => forward(req, res, requestId),
        )
        // Out of the request's own call by now: a fault here must end this request, not the gateway.
        .catch((err: unknown) => {
          logger.error({ requestId, err }, 'unhandled error');
          if (!sendError(res, 500, MESSAGES.internal)) res.destroy();
        });
    return true;
  };
}

/**
 * A body of a declared length up to this (an add's is ~150 bytes) is read whole and sent with its headers in one
 * write: piping it cost the stream plumbing of a body that arrives in one chunk anyway. Larger ones are piped.
 */
const WHOLE_BODY_BYTES = 16 * 1024;

/** A message's whole body, once it has all arrived (its length was checked to be small). */
function readWhole(message: IncomingMessage, done: (body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  message.on('data', (chunk: Buffer) => chunks.push(chunk));
  message.on('end', () => done(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
}

/** The compression middleware's default threshold: it leaves a smaller answer as it is. */
const COMPRESSION_THRESHOLD = 1024;

/**
 * A cart answer the compression middleware would only add `Vary: Accept-Encoding` to: JSON (compressible) of a
 * declared length under its threshold, with no Cache-Control (no-transform) or Vary of its own to weigh. Most cart
 * answers (a 3-line cart is ~760 bytes): for them the lane skips the middleware, whose per-response wrapping was a
 * measurable part of the lane's CPU; everything else goes through it.
 */
function belowCompressionThreshold(headers: http.IncomingHttpHeaders): boolean {
  const length = headers['content-length'];
  return (
    length !== undefined &&
    Number(length) < COMPRESSION_THRESHOLD &&
    /^application\/json\s*(;|$)/i.test(headers['content-type'] ?? '') &&
    headers['cache-control'] === undefined &&
    headers.vary === undefined
  );
}

function isForwardable(req: IncomingMessage, bodyLimit: number): boolean {
  if (req.method !== 'GET' && req.method !== 'POST') return false;
  const url = req.url ?? '';
  if (!url.startsWith(CART_PATH) || (url.length > CART_PATH.length && url[CART_PATH.length] !== '?')) return false;
  if (req.httpVersion !== '1.1' || req.headers['transfer-encoding'] !== undefined) return false;
  return Number(req.headers['content-length'] ?? 0) <= bodyLimit;
}

/** X-Forwarded-For, -Port and -Proto appended to, and X-Forwarded-Host kept or set, as http-proxy's xfwd does. */
function addForwardedHeaders(req: IncomingMessage): void {
  const socket = req.socket as Socket & { encrypted?: boolean };
  const encrypted = Boolean(socket.encrypted);
  const values = {
    for: socket.remoteAddress ?? '',
    port: /:(\d+)/.exec(req.headers.host ?? '')?.[1] ?? (encrypted ? '443' : '80'),
    proto: encrypted ? 'https' : 'http',
  };
  for (const [name, value] of Object.entries(values)) {
    const header = `x-forwarded-${name}`;
    const before = req.headers[header];
    req.headers[header] = before ? `${String(before)},${value}` : value;
  }
  req.headers['x-forwarded-host'] = req.headers['x-forwarded-host'] || req.headers.host || '';
}
