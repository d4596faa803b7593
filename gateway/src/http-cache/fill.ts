import * as http from 'node:http';
import * as https from 'node:https';
import type { ServiceName } from '@shop/contracts';
import type { GatewayConfig } from '../config';
import type { Logger } from '../logger';
import { requestIdOf } from '../request-id';
import { UPSTREAM_IDLE_MS } from '../proxy';
import { entryOf, isCacheable, type Entry, type Upstream } from './entry';
import type { Store } from './store';

/** What a fill brings: an entry to serve (kept if still fresh), an answer to pass on as is, or a failure. */
export type FillResult = { entry: Entry } | { passed: Upstream } | { failed: string };

/**
 * Fetches from `upstream` anonymously (no Authorization, no cookies: a shared entry must not depend on who asked
 * first), fully buffered, over a keep-alive agent.
 */
export function createFiller(
  config: GatewayConfig,
  upstream: ServiceName,
  store: Store,
  logger: Logger,
  /** Whether an answer may be kept now (not while purges cannot be heard). */
  mayKeep: () => boolean,
) {
  const target = new URL(config.upstreams[upstream]);
  const targetPath = target.pathname.replace(/\/+$/, '');
  const client = target.protocol === 'https:' ? https : http;
  // As many idle sockets kept as may be busy: closing the surplus after each burst of misses costs a TCP
  // handshake on both sides at the next one.
  const agent = new client.Agent({
    keepAlive: true,
    maxSockets: 64,
    maxFreeSockets: 64,
    scheduling: 'lifo',
    timeout: UPSTREAM_IDLE_MS,
  });
  const inflight = new Map<string, Promise<FillResult>>();

  const fetchUpstream = (path: string, req: http.IncomingMessage | undefined): Promise<Upstream> =>
    new Promise((resolve, reject) => {
      const headers: http.OutgoingHttpHeaders = {
        host: req?.headers.host ?? target.host, // like the proxy (changeOrigin: false)
        accept: 'application/json',
        'accept-encoding': 'identity', // we keep the raw bytes and gzip them ourselves
      };
      if (req) {
        const remote = req.socket.remoteAddress ?? '';
        const forwardedFor = req.headers['x-forwarded-for'];
        headers['x-request-id'] = requestIdOf(req);
        headers['x-forwarded-for'] = forwardedFor ? `${String(forwardedFor)},${remote}` : remote;
        headers['x-forwarded-proto'] = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
        headers['x-forwarded-host'] = headers.host;
      }
      const upstreamReq = client.request(
        {
          protocol: target.protocol,
          hostname: target.hostname,
          port: target.port,
          method: 'GET',
          path: `${targetPath}${path}`,
          headers,
          agent,
          timeout: config.proxyTimeoutMs,
        },
        (upstreamRes) => {
          const chunks: Buffer[] = [];
          upstreamRes.on('data', (chunk: Buffer) => chunks.push(chunk));
          upstreamRes.on('end', () =>
            resolve({
              status: upstreamRes.statusCode ?? 502,
              headers: upstreamRes.headers,
              body: Buffer.concat(chunks),
            }),
          );
          upstreamRes.on('error', reject);
          upstreamRes.on('aborted', () => reject(new Error('upstream response aborted')));
        },
      );
      upstreamReq.on('timeout', () => {
        const err = new Error('upstream timed out') as NodeJS.ErrnoException;
        err.code = 'ETIMEDOUT';
        upstreamReq.destroy(err);
      });
      upstreamReq.on('error', reject);
      upstreamReq.end();
    });

  return {
    /**
     * One upstream request per key at a time; later requests for the key wait for the same answer. `path` is what to
     * ask for (the URL as the client sent it); `req` the client's request, when there is one (its request id and
     * address are passed on).
     */
    fill(key: string, path: string, req?: http.IncomingMessage): Promise<FillResult> {
      const running = inflight.get(key);
      if (running) return running;
      const ticket = store.ticket();
      const filling = fetchUpstream(path, req)
        .then((up): FillResult => {
          if (!isCacheable(up)) return { passed: up };
          const entry = entryOf(key, up);
          if (mayKeep()) store.admit(entry, ticket);
          return { entry };
        })
        .catch((err: NodeJS.ErrnoException): FillResult => {
          logger.warn(
            { requestId: req && requestIdOf(req), upstream, code: err.code, err: err.message },
            'upstream failed',
          );
          return { failed: err.message };
        })
        .finally(() => {
          if (inflight.get(key) === filling) inflight.delete(key);
        });
      inflight.set(key, filling);
      return filling;
    },
    /** After a change: later requests must not join a fill that started before it. */
    forgetInflight: () => inflight.clear(),
    close: () => agent.destroy(),
  };
}
