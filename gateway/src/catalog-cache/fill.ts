import * as http from 'node:http';
import * as https from 'node:https';
import type { GatewayConfig } from '../config';
import type { Logger } from '../logger';
import { requestIdOf } from '../request-id';
import { UPSTREAM_IDLE_MS } from '../proxy';
import { entryOf, isCacheable, type Entry, type Upstream } from './entry';
import type { Store } from './store';
import { writeTogether } from '../write-together';

/** What a fill brings: an entry to serve (kept if still fresh), an answer to pass on as is, or a failure. */
export type FillResult = { entry: Entry } | { passed: Upstream } | { failed: string };

export interface Filler {
  /**
   * One upstream request per key at a time; later requests for the key wait for the same answer. `path`: what to
   * ask the catalog for, when not what `req` asked (a product whose bytes a cached list needs, on behalf of req).
   */
  fill(key: string, req: http.IncomingMessage, path?: string): Promise<FillResult>;
  /** After a change: later requests must not join a fill that started before it. */
  forgetInflight(): void;
  close(): void;
}

/**
 * Fetches catalogue reads from the catalog, anonymously (no Authorization, no cookies: public reads ignore them,
 * and a shared entry must not depend on who asked first), fully buffered, over a keep-alive agent.
 */
export function createFiller(config: GatewayConfig, store: Store, logger: Logger): Filler {
  const target = new URL(config.upstreams.catalog);
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

  const fetchUpstream = (req: http.IncomingMessage, path: string): Promise<Upstream> =>
    new Promise((resolve, reject) => {
      const remote = req.socket.remoteAddress ?? '';
      const forwardedFor = req.headers['x-forwarded-for'];
      const host = req.headers.host ?? target.host;
      const headers: http.OutgoingHttpHeaders = {
        host, // like the proxy (changeOrigin: false)
        accept: 'application/json',
        'accept-encoding': 'identity', // we keep the raw bytes and gzip them ourselves
        'x-request-id': requestIdOf(req),
        'x-forwarded-for': forwardedFor ? `${String(forwardedFor)},${remote}` : remote,
        'x-forwarded-proto': (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http',
        'x-forwarded-host': host,
      };
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
      writeTogether(() => upstreamReq.end());
    });

  return {
    fill(key, req, path = req.url ?? key) {
      const running = inflight.get(key);
      if (running) return running;
      const ticket = store.ticket();
      const filling = fetchUpstream(req, path)
        .then((up): FillResult => {
          if (!isCacheable(up)) return { passed: up };
          const entry = entryOf(key, up);
          store.admit(entry, ticket);
          return { entry };
        })
        .catch((err: NodeJS.ErrnoException): FillResult => {
          logger.warn(
            { requestId: requestIdOf(req), upstream: 'catalog', code: err.code, err: err.message },
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
    forgetInflight: () => inflight.clear(),
    close: () => agent.destroy(),
  };
}
