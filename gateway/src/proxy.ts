import * as http from 'node:http';
import * as https from 'node:https';
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import { createProxyMiddleware, debugProxyErrorsPlugin, proxyEventsPlugin } from 'http-proxy-middleware';
import type { Logger } from 'pino';
import { SERVICES, type ServiceName } from '@shop/contracts';
import type { GatewayConfig } from './config';
import { MESSAGES, sendError, sendUnavailable } from './errors';
import { notesOf, requestIdOf } from './request-id';
import { isRefused, isReplayable, isRetriable, type ServiceReplicas } from './replicas';
import { DOT_SEGMENT, normalisePath, pathOf, type Route } from './routes';

export type Agents = Record<ServiceName, http.Agent>;

/**
 * One keep-alive agent per service, for its proxy and the HTTP cache's fills: at most 512 connections at once (more
 * requests wait for one), idle ones dropped after 60 s, before the service drops them (nest-common keeps idle
 * connections 65 s): a socket the service closes while idle in the pool races the next request sent on it.
 */
export function upstreamAgents(config: GatewayConfig): Agents {
  const agentFor = (url: string) =>
    new (url.startsWith('https:') ? https.Agent : http.Agent)({
      keepAlive: true,
      maxSockets: 512,
      maxFreeSockets: 64,
      scheduling: 'lifo',
      timeout: 60_000,
    });
  // One agent serves all of a service's replicas (it pools sockets per host and port).
  return Object.fromEntries(SERVICES.map((service) => [service, agentFor(config.upstreams[service][0])])) as Agents;
}

/** A chunked body's byte count on its way, and its upstream request once there is one. */
interface Counting {
  limit: number;
  received: number;
  overflowed: boolean;
  upstream?: ClientRequest;
}
const COUNT = Symbol('body byte count');
/** A request's way to its service's replicas: the one it is sent to now, those tried before. */
interface Attempt {
  target: string;
  tried: Set<string>;
  /** The attempt's upstream did not answer within the proxy timeout (never sent again: the client waited enough). */
  timedOut?: boolean;
  /** The X-Forwarded-* headers as the client sent them (the proxy appends to them on every attempt). */
  forwarded: Record<string, string | string[] | undefined>;
  next: (err?: unknown) => void;
}
const ATTEMPT = Symbol('upstream attempt');
type Counted = IncomingMessage & { [COUNT]?: Counting; [ATTEMPT]?: Attempt };
const FORWARDED = ['x-forwarded-for', 'x-forwarded-port', 'x-forwarded-proto', 'x-forwarded-host'];

/** A refused body up to this size is read and dropped after the 413; a larger one is cut off with the connection. */
const LINGER_BYTES = 8 * 1024 * 1024;

/**
 * One http-proxy-middleware (v3) instance per service, mounted at the root so the upstream receives the full original
 * path (docs/pitfalls.md#proxy-paths-in-v3), and called only for the requests the route table gives it. Bodies are
 * never parsed here: they stream through, and their size is policed by Content-Length up front and by counting bytes of
 * chunked bodies.
 */
export function createServiceProxies(
  config: GatewayConfig,
  agents: Agents,
  replicas: ServiceReplicas,
  logger: Logger,
  /** Called with every upstream response, before its headers reach the client. */
  onUpstreamResponse?: (req: IncomingMessage, statusCode: number, service: ServiceName) => void,
) {
  const proxyTo = (service: ServiceName) =>
    createProxyMiddleware({
      target: config.upstreams[service][0],
      // the replica picked for this attempt (below)
      router: (req: Counted) => req[ATTEMPT]?.target,
      agent: agents[service],
      changeOrigin: false,
      xfwd: true,
      proxyTimeout: config.proxyTimeoutMs,
      // The client side may idle a little longer than the upstream, so the 503 below wins the race.
      timeout: config.proxyTimeoutMs + 5_000,
      // Our own error handler instead of the default plain-text 504 (docs/pitfalls.md#proxy-errors-and-timeouts).
      ejectPlugins: true,
      plugins: [debugProxyErrorsPlugin, proxyEventsPlugin],
      on: {
        // Here, as the body is about to be piped: a listener added any earlier would take chunks from the pipe.
        start: (req: Counted, res) => {
          const counting = req[COUNT];
          if (!counting) return;
          req.on('data', (chunk: Buffer) => {
            counting.received += chunk.length;
            if (counting.received <= counting.limit || counting.overflowed) return;
            counting.overflowed = true;
            req.unpipe();
            sendError(res as ServerResponse, 413, MESSAGES.tooLarge, { Connection: 'close' });
            counting.upstream?.destroy();
          });
        },
        proxyReq: (proxyReq, req: Counted) => {
          const attempt = req[ATTEMPT];
          if (attempt) proxyReq.once('timeout', () => (attempt.timedOut = true));
          if (req[COUNT]?.overflowed) proxyReq.destroy();
          else if (req[COUNT]) req[COUNT].upstream = proxyReq;
        },
        proxyRes: (proxyRes, req) => {
          delete proxyRes.headers['x-powered-by'];
          onUpstreamResponse?.(req, proxyRes.statusCode ?? 0, service);
        },
        error: (err, req, res) => {
          if ((req as Counted)[COUNT]?.overflowed) return; // we cut the upload off ourselves and already answered 413
          const code = (err as NodeJS.ErrnoException).code;
          const attempt = (req as Counted)[ATTEMPT];
          if (attempt && isRefused(err)) replicas[service].refused(attempt.target);
          // Another replica, for a request that can be sent again (idempotent, no body) and not answered yet.
          const again =
            attempt &&
            !attempt.timedOut &&
            isRetriable(err) &&
            isReplayable(req) &&
            'setHeader' in res &&
            !res.headersSent
              ? replicas[service].pick(attempt.tried)
              : undefined;
          logger.warn(
            {
              requestId: requestIdOf(req),
              upstream: service,
              url: attempt?.target,
              code,
              err: err.message,
              retry: again,
            },
            'upstream failed',
          );
          if (attempt && again) {
            for (const name of FORWARDED)
              if (attempt.forwarded[name] === undefined) delete req.headers[name];
              else req.headers[name] = attempt.forwarded[name];
            attempt.target = again;
            attempt.tried.add(again);
            void proxies[service](req, res as ServerResponse, attempt.next);
            return;
          }
          // (a bare socket only for an upgrade, which no route takes)
          if ('setHeader' in res) sendUnavailable(res, service);
          else res.destroy();
        },
      },
    });
  const proxies: Record<ServiceName, ReturnType<typeof proxyTo>> = Object.fromEntries(
    SERVICES.map((service) => [service, proxyTo(service)]),
  ) as Record<ServiceName, ReturnType<typeof proxyTo>>;

  /** Proxies a request to the service of its route (next(err) only if the proxy throws). */
  return (route: Route, req: Counted, res: ServerResponse, next: (err?: unknown) => void): void => {
    if (DOT_SEGMENT.test(normalisePath(pathOf(req.url ?? '/')))) return void sendError(res, 400, MESSAGES.badPath);
    notesOf(res).upstream = route.service;
    const limit = route.upload ? config.uploadBodyLimitBytes : config.bodyLimitBytes;
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) {
      // Answered before any of the body is proxied. Closing the connection at once resets a client still sending,
      // which then never reads the answer (what nginx's lingering close avoids): a body of a few megabytes is left to
      // Node, which reads it to its end and drops it, keeping the connection; beyond that the connection closes, so
      // nothing unread is taken as the next request.
      return void sendError(res, 413, MESSAGES.tooLarge, declared > LINGER_BYTES ? { Connection: 'close' } : {});
    }
    // A chunked body is counted as it streams (above). One with a Content-Length was judged by it, and Node's parser
    // reads no byte past it (any more are the next request, on which the client waits).
    if (req.headers['transfer-encoding'] !== undefined) req[COUNT] = { limit, received: 0, overflowed: false };
    const target = replicas[route.service].pick()!;
    const forwarded = Object.fromEntries(FORWARDED.map((name) => [name, req.headers[name]]));
    req[ATTEMPT] = { target, tried: new Set([target]), forwarded, next };
    void proxies[route.service](req, res, next);
  };
}
