import type { Request, RequestHandler, Response } from 'express';
import type { Redis } from 'ioredis';
import type { GatewayConfig } from './config';

type Check = 'up' | 'down';
const CHECK_TIMEOUT_MS = 1000;

/** GET /health: the process is up. */
export const health: RequestHandler = (_req: Request, res: Response) => {
  res.setHeader('Cache-Control', 'no-store');
  res.json({ status: 'ok' });
};

/**
 * GET /ready: Redis answers PING and (READY_CHECK_UPSTREAMS) every service's /health answers 2xx.
 * Checks run in parallel with a 1 s cap; concurrent probes share one round of checks.
 */
export function ready(config: GatewayConfig, redis: Redis): RequestHandler {
  let inflight: Promise<Record<string, Check>> | undefined;

  const runChecks = async (): Promise<Record<string, Check>> => {
    // the client's own command timeout (redis.ts) bounds the PING
    const checks: Array<[string, Promise<unknown>]> = [['redis', redis.ping()]];
    if (config.readyCheckUpstreams) {
      for (const [service, url] of Object.entries(config.upstreams)) {
        checks.push([
          service,
          fetch(`${url}/health`, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) }).then(async (r) => {
            await r.body?.cancel();
            if (!r.ok) throw new Error(`status ${r.status}`);
          }),
        ]);
      }
    }
    const results = await Promise.allSettled(checks.map(([, p]) => p));
    return Object.fromEntries(checks.map(([name], i) => [name, results[i].status === 'fulfilled' ? 'up' : 'down']));
  };

  return async (_req: Request, res: Response) => {
    inflight ??= runChecks().finally(() => {
      inflight = undefined;
    });
    const checks = await inflight;
    const down = Object.keys(checks).filter((name) => checks[name] === 'down');
    res.setHeader('Cache-Control', 'no-store');
    if (down.length === 0) {
      res.json({ status: 'ok', checks });
    } else {
      res.status(503).json({ message: `Not ready: ${down.join(', ')} unavailable`, statusCode: 503, checks });
    }
  };
}
