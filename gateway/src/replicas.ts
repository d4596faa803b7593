import { SERVICES, type ServiceName } from '@shop/contracts';
import type { Logger } from 'pino';

/** How often a replica that refused a connection is asked for GET /health until it answers. */
const PROBE_EVERY_MS = 500;

/**
 * A service's replicas, as a Kubernetes Service reaches its pods: each new request goes to the next one in turn. A
 * replica that refuses a connection (its process is gone) is left out of the turn until its `GET /health` answers
 * again, as an endpoint leaves a Service while its readiness probe fails; when every replica is out, they are all
 * tried anyway (the request fails as it would have). With one URL this is that URL, always.
 */
export class Replicas {
  private turn = 0;
  private readonly down = new Set<string>();

  constructor(
    readonly service: ServiceName,
    readonly urls: readonly string[],
    private readonly logger?: Logger,
    private readonly probeEveryMs = PROBE_EVERY_MS,
  ) {
    if (urls.length === 0) throw new Error(`${service}: no upstream URL`);
  }

  /** The next replica in turn that is not in `tried` (a request's earlier attempts), or undefined when none is left. */
  pick(tried?: ReadonlySet<string>): string | undefined {
    const n = this.urls.length;
    let fallback: number | undefined;
    for (let i = 0; i < n; i++) {
      const at = (this.turn + i) % n;
      const url = this.urls[at];
      if (tried?.has(url)) continue;
      if (this.down.has(url)) {
        fallback ??= at;
        continue;
      }
      this.turn = (at + 1) % n;
      return url;
    }
    if (fallback === undefined) return undefined;
    this.turn = (fallback + 1) % n;
    return this.urls[fallback];
  }

  /** True while `url` is left out of the turn. */
  isDown(url: string): boolean {
    return this.down.has(url);
  }

  /** `url` refused a connection: out of the turn until its /health answers (probed in the background). */
  refused(url: string): void {
    if (this.urls.length === 1 || this.down.has(url)) return;
    this.down.add(url);
    this.logger?.warn({ upstream: this.service, url }, 'replica refused a connection: left out until /health answers');
    const probe = async (): Promise<void> => {
      try {
        const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) });
        await res.body?.cancel();
        if (res.ok) {
          this.down.delete(url);
          this.logger?.info({ upstream: this.service, url }, 'replica answers again');
          return;
        }
      } catch {
        // still down
      }
      setTimeout(() => void probe(), this.probeEveryMs).unref();
    };
    setTimeout(() => void probe(), this.probeEveryMs).unref();
  }
}

export type ServiceReplicas = Record<ServiceName, Replicas>;

export function serviceReplicas(upstreams: Record<ServiceName, readonly string[]>, logger?: Logger): ServiceReplicas {
  return Object.fromEntries(
    SERVICES.map((service) => [service, new Replicas(service, upstreams[service], logger)]),
  ) as ServiceReplicas;
}

/** Errors meaning the request never reached a live process: connection refused. */
export const isRefused = (err: unknown): boolean => (err as NodeJS.ErrnoException)?.code === 'ECONNREFUSED';

/**
 * Errors after which a request without a body may be sent again to another replica: refused, or the connection reset
 * or closed before an answer (a replica killed with the request in hand; a pooled socket it left behind).
 */
export const isRetriable = (err: unknown): boolean =>
  ['ECONNREFUSED', 'ECONNRESET', 'EPIPE'].includes((err as NodeJS.ErrnoException)?.code ?? '');

/** Idempotent methods, which the gateway replays on another replica when their request carries no body. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** True for a request the gateway may send to another replica after a failed attempt: idempotent, and no body. */
export function isReplayable(req: { method?: string; headers: Record<string, unknown> }): boolean {
  if (!IDEMPOTENT.has(req.method ?? 'GET')) return false;
  if (req.headers['transfer-encoding'] !== undefined) return false;
  const length = req.headers['content-length'];
  return length === undefined || Number(length) === 0;
}
