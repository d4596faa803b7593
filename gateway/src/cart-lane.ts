import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import type { Request, RequestHandler, Response } from 'express';
import { Pool } from 'undici';
import { CART_CONTENT_TYPE } from '@shop/cart-model';
import { REQUEST_ID_HEADER } from '@shop/contracts';
import { AddOutcomeUnknown, type GuestAddAnswer, type GuestCartAdds } from './cart-guest-adds';
import type { GuestCartAnswer, GuestCartReads } from './cart-guest-reads';
import type { GatewayConfig } from './config';
import { MESSAGES, sendError, unavailableMessage } from './errors';
import type { Logger } from './logger';
import { UPSTREAM_IDLE_MS, UPSTREAM_MAX_SOCKETS } from './proxy';
import { assignRequestId, logWhenDone } from './request-id';
import { writeTogether } from './write-together';

/** The one path the lane forwards; every other spelling of it (case, trailing slash, /merge) takes the full path. */
const CART_PATH = '/api/cart';

export interface CartLaneOptions {
  /** The security headers every response gets, computed once (security.ts staticSecurityHeaders). */
  securityHeaders: ReadonlyArray<readonly [string, string]>;
  /**
   * The gateway's response compression, as on the Express path (connect middleware: it needs only Node's API),
   * applied once the upstream answered, and only to an answer it could compress.
   */
  compress: RequestHandler;
  /** Plain guest cart reads answered here (cart-guest-reads.ts), when on: else every read is forwarded. */
  guestReads?: GuestCartReads;
  /** Plain guest adds carried out here (cart-guest-adds.ts), when on: else every add is forwarded. */
  guestAdds?: GuestCartAdds;
}

export interface CartLane {
  /** Forwards a request if it is the lane's (true), or leaves it to Express (false). */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** Closes the lane's connections to the cart service once their requests are answered. */
  close(): Promise<void>;
}

/**
 * The cart's hot path: GET and POST /api/cart — a shopper's cart reads and adds — forwarded to the cart service in
 * front of Express, whose router, helmet and http-proxy cost more per request than the cart service's own work
 * (measured: docs/performance.md "Performance: cart"). It does what that path does for these requests: the same
 * request id, access-log line and metrics (logWhenDone), the security headers helmet sets (precomputed), compression,
 * X-Forwarded-For/Port/Proto/Host as http-proxy's xfwd writes them, the upstream's status and headers (less
 * X-Powered-By), the proxy timeout, and a JSON 503 when cart cannot be reached. No rate limit applies to the cart.
 * Where it differs, on purpose: the hop-by-hop headers (Connection, Keep-Alive, Transfer-Encoding) stay on their own
 * hop — a client's `Connection: close` does not close a pooled connection to the cart, and the client is told about
 * its own connection by the gateway, not about the gateway's by the cart.
 *
 * A request it cannot forward as simply goes to Express, which answers it as before: another method or spelling of
 * the path, HTTP/1.0, a chunked body (counted there as it streams), Expect or Upgrade, or a Content-Length over the
 * body limit (413 there). With a Content-Length, Node's parser never passes on more than it declares, so no byte
 * counting is needed.
 */
export function createCartLane(config: GatewayConfig, logger: Logger, options: CartLaneOptions): CartLane {
  const { securityHeaders, compress, guestReads, guestAdds } = options;
  // undici's pool rather than Node's http.request and Agent: it cost the gateway a fifth less CPU per add alone, a
  // tenth in the whole stack (docs/performance.md "Performance: cart"). Its timeouts play http-proxy's proxyTimeout (then the 503 below).
  const pool = new Pool(new URL(config.upstreams.cart).origin, {
    connections: UPSTREAM_MAX_SOCKETS,
    // Idle sockets go before the cart drops them (undici also takes the cart's own Keep-Alive hint, less a second).
    keepAliveTimeout: UPSTREAM_IDLE_MS,
    keepAliveMaxTimeout: UPSTREAM_IDLE_MS,
    headersTimeout: config.proxyTimeoutMs,
    bodyTimeout: config.proxyTimeoutMs,
  });

  /** Forwards the request to the cart service; `body`: its body, when it was read already. */
  const forward = (req: IncomingMessage, res: ServerResponse, requestId: string, body?: Buffer): void => {
    addForwardedHeaders(req); // for the cart only: an answer made here needs none
    const failed = (err: Error & { code?: string }): void => {
      if (res.destroyed) return; // the client went away first: nobody to answer
      logger.warn({ requestId, upstream: 'cart', code: err.code, err: err.message }, 'upstream failed');
      if (res.headersSent) return void res.destroy(); // cut off mid-answer: the client must not take it as whole
      // An answer cut off before anything was sent: none of its headers go with the 503, which goes through the
      // compression middleware once, as every answer does.
      const compressing = answer.discard();
      const reply = (): void => {
        if (!sendError(res, 503, unavailableMessage('cart'))) res.destroy();
      };
      if (compressing) reply();
      else void compress(req as Request, res as Response, reply);
    };
    const answer = new UpstreamAnswer(req, res, compress);
    let abort: ((err?: Error) => void) | undefined;
    res.on('close', () => {
      if (!res.writableFinished) abort?.();
    });
    const send = (body: Buffer | IncomingMessage | null): void => {
      if (res.destroyed) return;
      pool.dispatch(
        { method: req.method as 'GET' | 'POST', path: req.url!, headers: forwardedHeaders(req), body },
        {
          onConnect: (abortRequest) => {
            abort = abortRequest;
            if (res.destroyed) abortRequest(); // the client went away while the request waited for a socket
          },
          onHeaders: (status, rawHeaders, resume, statusText) => answer.head(status, statusText, rawHeaders, resume),
          onData: (chunk) => answer.data(chunk),
          onComplete: () => answer.end(),
          onError: failed,
        },
      );
    };
    // The request goes out whole when small, back to back with this turn's other writes (write-together.ts).
    const length = Number(req.headers['content-length'] ?? 0);
    if (body) writeTogether(() => send(body));
    else if (length === 0) writeTogether(() => send(null));
    else if (length <= WHOLE_BODY_BYTES) readWhole(req, (body) => writeTogether(() => send(body)));
    else send(req);
  };

  /**
   * A guest read or add answered here: the headers the cart service sends with it (its JSON's type, ETag and length),
   * and what the compression middleware makes of them, as for a forwarded answer (the security headers, request id
   * and access line are already on their way).
   */
  const answerHere = (
    req: IncomingMessage,
    res: ServerResponse,
    answer: GuestCartAnswer & Partial<GuestAddAnswer>,
  ): void => {
    if (res.destroyed) return;
    // The access line: no upstream asked; answered by the gateway (its catalogue copy and the cart's Redis).
    (res as ServerResponse & { locals?: object }).locals = { upstream: null, cache: 'GATEWAY' };
    const length = Buffer.byteLength(answer.json);
    res.statusCode = answer.status ?? 200;
    res.setHeader('content-type', CART_CONTENT_TYPE);
    res.setHeader('etag', answer.etag);
    res.setHeader('content-length', length);
    if (length < COMPRESSION_THRESHOLD) {
      res.setHeader('vary', 'Accept-Encoding');
      writeTogether(() => res.end(answer.json));
    } else void compress(req as Request, res as Response, () => res.end(answer.json));
  };

  const handle = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (!isForwardable(req, config.bodyLimitBytes)) return false;
    const started = process.hrtime.bigint();
    const requestId = assignRequestId(req);
    // What the access-log line reports as the upstream (the Express path keeps it in res.locals too).
    (res as ServerResponse & { locals?: object }).locals = { upstream: 'cart' };
    logWhenDone(req, res, logger, requestId, started);
    res.setHeader(REQUEST_ID_HEADER, requestId);
    for (const [name, value] of securityHeaders) res.setHeader(name, value);
    // As http-proxy's `timeout`: the client side may idle a little longer than the upstream, so the 503 wins.
    req.socket.setTimeout(config.proxyTimeoutMs + 5_000);
    // Out of the request's own call by now: a fault must end this request, not the gateway.
    const fault = (err: unknown): void => {
      logger.error({ requestId, err }, 'unhandled error');
      if (!sendError(res, 500, MESSAGES.internal)) res.destroy();
    };
    const guestId = guestReads?.plainRead(req);
    if (guestId !== undefined)
      guestReads!
        .answer(guestId)
        .then(
          (answer) => (answer ? answerHere(req, res, answer) : forward(req, res, requestId)),
          () => forward(req, res, requestId),
        )
        .catch(fault);
    else if (guestAdds?.plainAdd(req))
      readWhole(req, (body) =>
        guestAdds
          .answer(body)
          .then(
            (answer) => (answer ? answerHere(req, res, answer) : forward(req, res, requestId, body)),
            (err: unknown) => {
              if (!(err instanceof AddOutcomeUnknown)) return forward(req, res, requestId, body);
              // The cart may hold the add: passing it on could add it twice. A 503, as the cart service answers then.
              logger.warn({ requestId, err: err.message }, 'guest add: outcome unknown');
              if (!sendError(res, 503, unavailableMessage('cart'))) res.destroy();
            },
          )
          .catch(fault),
      );
    else forward(req, res, requestId);
    return true;
  };

  return { handle, close: () => pool.close() };
}

/**
 * A body of a declared length up to this (an add's is ~150 bytes) is read whole and sent with its headers in one
 * write: piping it cost the stream plumbing of a body that arrives in one chunk anyway. Larger ones are piped.
 */
const WHOLE_BODY_BYTES = 16 * 1024;

/** A request's whole body, once it has all arrived (its length was checked to be small). */
function readWhole(message: IncomingMessage, done: (body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  message.on('data', (chunk: Buffer) => chunks.push(chunk));
  message.on('end', () => done(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
}

/** The compression middleware's default threshold: it leaves a smaller answer as it is. */
const COMPRESSION_THRESHOLD = 1024;

/** What of the cart's answer headers decides how it is passed on. */
interface AnswerHeaders {
  contentLength?: string;
  contentType?: string;
  cacheControl?: string;
  vary?: string;
}

/**
 * A cart answer the compression middleware would only add `Vary: Accept-Encoding` to: JSON (compressible) of a
 * declared length under its threshold, with no Cache-Control (no-transform) or Vary of its own to weigh. Most cart
 * answers (a 3-line cart is ~760 bytes): for them the lane skips the middleware, whose per-response wrapping was a
 * measurable part of the lane's CPU; everything else goes through it.
 */
function belowCompressionThreshold(headers: AnswerHeaders): boolean {
  return (
    headers.contentLength !== undefined &&
    Number(headers.contentLength) < COMPRESSION_THRESHOLD &&
    /^application\/json\s*(;|$)/i.test(headers.contentType ?? '') &&
    headers.cacheControl === undefined &&
    headers.vary === undefined
  );
}

/**
 * The cart's answer passed on to the client as undici hands it over (the dispatch handler's onHeaders, onData,
 * onComplete): its status and headers as the cart sent them (less DROPPED_ANSWER_HEADERS), then its body — whole,
 * back to back with this turn's other writes, when it is small enough for the compression middleware to leave alone,
 * else streamed through that middleware.
 */
class UpstreamAnswer {
  /** The body so far, when it is sent whole. */
  private chunks?: Buffer[];
  /** The body's way through the compression middleware, when it is streamed. */
  private stream?: PassThrough;
  /** The headers set on the response from the cart's answer. */
  private readonly staged = new Set<string>();

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly compress: RequestHandler,
  ) {}

  head(status: number, statusText: string, rawHeaders: Buffer[], resume: () => void): boolean {
    if (status < 200) return true; // an informational answer: the real one follows
    const { req, res, staged } = this;
    res.statusCode = status;
    if (statusText) res.statusMessage = statusText;
    const headers: AnswerHeaders = {};
    for (let i = 0; i < rawHeaders.length; i += 2) {
      const name = rawHeaders[i].toString('latin1').toLowerCase();
      const value = rawHeaders[i + 1].toString('latin1');
      if (DROPPED_ANSWER_HEADERS.has(name)) continue;
      // The cart's value replaces the lane's own (its X-Request-Id is the same id); a repeated header stays repeated.
      if (staged.has(name)) res.appendHeader(name, value);
      else res.setHeader(name, value);
      staged.add(name);
      const field = ANSWER_HEADERS.get(name);
      if (field) headers[field] ??= value;
    }
    if (belowCompressionThreshold(headers)) {
      // All the compression middleware would do to this answer (a Vary, as for every JSON answer).
      res.setHeader('vary', 'Accept-Encoding');
      staged.add('vary');
      this.chunks = [];
    } else {
      const stream = (this.stream = new PassThrough());
      stream.on('drain', resume);
      void this.compress(req as Request, res as Response, () => stream.pipe(res));
    }
    return true;
  }

  /** False pauses the cart's answer until the client has taken what was written (undici's backpressure). */
  data(chunk: Buffer): boolean {
    if (this.chunks) {
      this.chunks.push(chunk);
      return true;
    }
    return this.stream!.write(chunk);
  }

  /**
   * Takes back an answer that will not be sent after all (nothing of it was): its headers (the cart's ETag on a
   * 503…) and its body. True when the compression middleware already wraps the response.
   */
  discard(): boolean {
    for (const name of this.staged) this.res.removeHeader(name);
    this.staged.clear();
    this.res.statusMessage = ''; // the status's own text, not the cart's
    this.chunks = undefined;
    this.stream?.unpipe(this.res);
    return this.stream !== undefined;
  }

  end(): void {
    const { chunks, res } = this;
    if (chunks) writeTogether(() => res.end(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    else this.stream!.end();
  }
}

const ANSWER_HEADERS = new Map<string, keyof AnswerHeaders>([
  ['content-length', 'contentLength'],
  ['content-type', 'contentType'],
  ['cache-control', 'cacheControl'],
  ['vary', 'vary'],
]);

/**
 * Not passed on: X-Powered-By, and the hop-by-hop headers of the lane's own connection to the cart. The gateway's
 * server frames its answer and keeps (or closes) the client's connection by itself, as the client asked.
 */
const DROPPED_ANSWER_HEADERS = new Set(['x-powered-by', 'connection', 'keep-alive', 'transfer-encoding']);

/**
 * The request's headers for the cart: all of them but the hop-by-hop Connection and Keep-Alive, which are about the
 * client's connection (the pool keeps its own alive). X-Forwarded-* were added to them already.
 */
function forwardedHeaders(req: IncomingMessage): IncomingHttpHeaders {
  const { connection: _connection, 'keep-alive': _keepAlive, ...headers } = req.headers;
  return headers;
}

function isForwardable(req: IncomingMessage, bodyLimit: number): boolean {
  if (req.method !== 'GET' && req.method !== 'POST') return false;
  const url = req.url ?? '';
  if (!url.startsWith(CART_PATH) || (url.length > CART_PATH.length && url[CART_PATH.length] !== '?')) return false;
  const { headers } = req;
  if (req.httpVersion !== '1.1' || headers['transfer-encoding'] !== undefined) return false;
  // Expect and Upgrade change how the exchange goes on: the Express path's proxy deals with them.
  if (headers.expect !== undefined || headers.upgrade !== undefined) return false;
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
