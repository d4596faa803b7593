import type { NextFunction, Request, Response } from 'express';
import type { Metrics } from './metrics';
import { secondsSince } from './metrics';

/** The route label of a request no route matched (404s of unknown paths: never the raw path). */
export const UNMATCHED_ROUTE = 'unmatched';

/** Records one answered HTTP request: its count and duration by method, route template and status. */
export type HttpRequestRecorder = (labels: { method: string; route: string; status: string }, started: bigint) => void;

/**
 * The recorder behind {@link httpMetrics}, for a service's own lane in front of Express (which never reaches the
 * middleware) to count its requests in the same series.
 */
export function httpRequestRecorder(metrics: Metrics): HttpRequestRecorder {
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
  return (labels, started) => {
    requests.inc(labels);
    duration.observe(labels, secondsSince(started));
  };
}

/**
 * Counts every HTTP request and observes its duration by method, route TEMPLATE (`/api/cart/:productId`, as
 * the router matched it; `unmatched` otherwise, so cardinality stays bounded whatever paths clients send) and
 * status. GET /metrics answers the exposition itself and is not counted.
 */
export function httpMetrics(metrics: Metrics) {
  const record = httpRequestRecorder(metrics);
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.path === '/metrics') {
      if (req.method !== 'GET' && req.method !== 'HEAD') return next();
      metrics.exposition().then(
        ({ contentType, body }) => res.type(contentType).send(body),
        (err: unknown) => next(err),
      );
      return;
    }
    const started = process.hrtime.bigint();
    let done = false;
    const finished = (): void => {
      if (done) return;
      done = true;
      record({ method: req.method, route: routeTemplate(req), status: String(res.statusCode) }, started);
    };
    res.on('finish', finished);
    res.on('close', finished);
    next();
  };
}

/** The template of the route that answered (`req.route`, set by the router), or {@link UNMATCHED_ROUTE}. */
export function routeTemplate(req: Request): string {
  const route = (req as { route?: { path?: unknown } }).route;
  if (!route || typeof route.path !== 'string') return UNMATCHED_ROUTE;
  return `${req.baseUrl ?? ''}${route.path}` || '/';
}
