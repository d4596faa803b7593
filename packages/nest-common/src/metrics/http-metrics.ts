import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Metrics } from './metrics';

/** The route label of a request no route matched (404s of unknown paths: never the raw path). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Serves GET /metrics (Prometheus exposition, not itself counted) and counts every other HTTP request and observes
 * its duration by method, route TEMPLATE (`/api/cart/:productId`, as the router matched it; `unmatched` otherwise,
 * so cardinality stays bounded whatever paths clients send) and status.
 */
export function httpMetrics(app: FastifyInstance, metrics: Metrics): void {
  const requests = metrics.counter(
    'http_requests_total',
    'HTTP requests answered, by method, route template and status',
    ['method', 'route', 'status'],
  );
  const duration = metrics.histogram(
    'http_request_duration_seconds',
    'Time from the request to the end of the response, by method, route template and status',
    ['method', 'route', 'status'],
  );
  app.get('/metrics', { config: { uncounted: true } }, async (_req, reply) => {
    const { contentType, body } = await metrics.exposition();
    return reply.type(contentType).send(body);
  });
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions; // a getter that builds a new object: read once
    if (!route.config.uncounted) {
      const labels = { method: req.method, route: routeTemplate(req, route.url), status: String(reply.statusCode) };
      requests.inc(labels);
      duration.observe(labels, reply.elapsedTime / 1000);
    }
    done();
  });
}

/** The template of the route that answered, or {@link UNMATCHED_ROUTE} (the not-found handler has no route). */
export function routeTemplate(req: FastifyRequest, url = req.routeOptions.url): string {
  return req.is404 || !url ? UNMATCHED_ROUTE : url;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Not counted in the HTTP metrics (the exposition itself). */
    uncounted?: boolean;
  }
}
