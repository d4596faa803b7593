import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import type { GatewayConfig } from './config';

/** GET /health: the process is up. */
export const health: RequestHandler = (_req, res) => {
  res.setHeader('Cache-Control', 'no-store').json({ status: 'ok' });
};

/**
 * GET /ready: Redis answers PING (within the client's own command timeout) and, with READY_CHECK_UPSTREAMS, every
 * service has a replica whose /health answers 2xx within 1 s. Checks run in parallel; concurrent probes share one round of checks.
 */
export function ready(config: GatewayConfig, redis: Redis): RequestHandler {
  const upstreams = config.readyCheckUpstreams ? Object.entries(config.upstreams) : [];
  const replicaUp = async (url: string): Promise<void> => {
    const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) });
    await res.body?.cancel();
    if (!res.ok) throw new Error(`status ${res.status}`);
  };
  const upstreamUp = (urls: readonly string[]): Promise<unknown> => Promise.any(urls.map(replicaUp));
  const runChecks = async (): Promise<Record<string, 'up' | 'down'>> => {
    const names = ['redis', ...upstreams.map(([service]) => service)];
    const results = await Promise.allSettled([redis.ping(), ...upstreams.map(([, urls]) => upstreamUp(urls))]);
    return Object.fromEntries(names.map((name, i) => [name, results[i].status === 'fulfilled' ? 'up' : 'down']));
  };
  let inflight: ReturnType<typeof runChecks> | undefined;

  return async (_req, res) => {
    inflight ??= runChecks().finally(() => (inflight = undefined));
    const checks = await inflight;
    const down = Object.keys(checks).filter((name) => checks[name] === 'down');
    res.setHeader('Cache-Control', 'no-store');
    if (down.length === 0) res.json({ status: 'ok', checks });
    else res.status(503).json({ message: `Not ready: ${down.join(', ')} unavailable`, statusCode: 503, checks });
  };
}
