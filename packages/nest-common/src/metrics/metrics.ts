import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

export type { Counter, Histogram } from 'prom-client';

/** Latency buckets (seconds) for HTTP and RabbitMQ requests: 5 ms to 10 s. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * One service's Prometheus metrics (prom-client): its own registry, labelled `service`, with the process and
 * event-loop metrics prom-client collects by default. Served at GET /metrics on the service's (internal) port.
 *
 * A registry per application rather than prom-client's global one: a test process may run several services.
 * `counter()`/`histogram()` return the metric already registered under a name, so a provider created twice
 * shares it.
 */
export class Metrics {
  readonly registry = new Registry();

  constructor(
    readonly service: string,
    options: { defaultMetrics?: boolean } = {},
  ) {
    this.registry.setDefaultLabels({ service });
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
  }

  counter<L extends string = never>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
    const existing = this.registry.getSingleMetric(name);
    if (existing instanceof Counter) return existing as Counter<L>;
    if (existing) throw new Error(`metric ${name} is already registered as another type`);
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  histogram<L extends string = never>(
    name: string,
    help: string,
    labelNames: readonly L[] = [],
    buckets: number[] = LATENCY_BUCKETS,
  ): Histogram<L> {
    const existing = this.registry.getSingleMetric(name);
    if (existing instanceof Histogram) return existing as Histogram<L>;
    if (existing) throw new Error(`metric ${name} is already registered as another type`);
    return new Histogram({ name, help, labelNames, buckets, registers: [this.registry] });
  }

  /** The exposition text and its content type, for GET /metrics. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/** Seconds since `started` (process.hrtime.bigint()). */
export function secondsSince(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e9;
}
