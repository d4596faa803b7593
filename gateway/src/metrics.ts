import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { Logger } from 'pino';
import type { GatewayConfig } from './config';
import { isBackendPath, matchRoute, normalisePath, pathOf } from './routes';

/**
 * The gateway's Prometheus metrics. One registry per process (the gateway is one process), served only by a
 * listener of its own on METRICS_PORT (startMetricsServer), never on the public port: the route table proxies
 * /api and /uploads only, and a /metrics on the public port is the SPA's page like any other unknown path.
 */
export const registry = new Registry();
registry.setDefaultLabels({ service: 'gateway' });

const requests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, route (the route-table prefix, an own endpoint, spa or unmatched) and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

const duration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from the request to the end of the response (upstream time included), by method, route and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

const OWN_ROUTES = ['/health', '/ready', '/api/docs'];
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The route label of a request path, from a bounded set: the gateway's own endpoints, the route table's
 * prefixes (`/api/products`: the service then labels its own route templates), `unmatched` for any other
 * /api or /uploads path, and `spa` for the web app's files and pages.
 */
export function routeLabel(url: string): string {
  const path = normalisePath(pathOf(url));
  const own = OWN_ROUTES.find((r) => path === r || path.startsWith(`${r}/`));
  if (own) return own;
  const route = matchRoute(path);
  if (route) return route.prefix;
  return isBackendPath(path) ? 'unmatched' : 'spa';
}

/** Called once per request when its response is done or cut off (request-id.ts), with its route label when known. */
export function observeRequest(req: IncomingMessage, res: ServerResponse, seconds: number, route?: string): void {
  const labels = {
    method: METHODS.has(req.method ?? '') ? req.method! : 'OTHER',
    route: route ?? routeLabel((req as { originalUrl?: string }).originalUrl ?? req.url ?? '/'),
    status: res.writableFinished ? String(res.statusCode) : 'aborted',
  };
  requests.inc(labels);
  duration.observe(labels, seconds);
}

let defaultMetrics = false; // registered once per process

export type MetricsServer = NonNullable<Awaited<ReturnType<typeof startMetricsServer>>>;

/**
 * Serves GET /metrics on METRICS_HOST:METRICS_PORT (off when METRICS_PORT is unset), with the process and
 * event-loop metrics, the requests' and the HTTP cache's (http-cache/). Resolves undefined when off.
 */
export async function startMetricsServer(
  config: Pick<GatewayConfig, 'metricsPort' | 'metricsHost'>,
  logger: Logger,
): Promise<{ port: number; close(): Promise<void> } | undefined> {
  if (config.metricsPort === undefined) return undefined;
  if (!defaultMetrics) collectDefaultMetrics({ register: registry });
  defaultMetrics = true;
  const server = createServer((req, res) => {
    if (pathOf(req.url ?? '/') !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found: try GET /metrics\n');
      return;
    }
    registry.metrics().then(
      (body) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(body),
      (err: unknown) => {
        logger.error({ err }, 'metrics not collected');
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end('metrics not collected\n');
      },
    );
  });
  server.listen(config.metricsPort, config.metricsHost);
  await once(server, 'listening'); // rejects on 'error' (the port is taken)
  const { port } = server.address() as AddressInfo;
  logger.info({ port, host: config.metricsHost }, 'metrics listening (GET /metrics)');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
