import { Redis } from 'ioredis';
import { scrapeMetrics, type Exposition } from '@shop/nest-common/testing';
import { loadConfig, ConfigError } from '../src/config';
import { routeLabel, startMetricsServer, type MetricsServer } from '../src/metrics';
import { matchRoute, ROUTES } from '../src/routes';
import {
  deleteKeys,
  rawRequest,
  startAllUpstreams,
  startGateway,
  testConfig,
  uniqueCatalogPrefix,
  type Running,
  type Upstream,
} from './helpers';

/**
 * The gateway's /metrics: served by its own listener (METRICS_PORT), never on the public port; requests of
 * every request counted by route label and status; the HTTP cache's hits and misses.
 */
describe('gateway metrics', () => {
  let upstreams: Record<string, Upstream>;
  let gw: Running;
  let metrics: MetricsServer;
  let redis: Redis;
  const prefix = uniqueCatalogPrefix();
  const scrape = (): Promise<Exposition> => scrapeMetrics(`http://127.0.0.1:${metrics.port}/metrics`);
  const get = (path: string) =>
    fetch(`${gw.url}${path}`).then(async (r) => ({ status: r.status, body: await r.text() }));

  beforeAll(async () => {
    upstreams = await startAllUpstreams();
    redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    await redis.set(`${prefix}catalog:version`, '7'); // an armed cache: the catalog is running
    const config = testConfig(upstreams, { CATALOG_CACHE_PREFIX: prefix, METRICS_PORT: '0' });
    gw = await startGateway(config);
    metrics = (await startMetricsServer(config, gw.gateway.logger))!;
  });

  afterAll(async () => {
    await metrics?.close();
    await gw?.close();
    await deleteKeys(prefix);
    await redis.quit();
    await Promise.all(Object.values(upstreams).map((u) => u.close()));
  });

  it('is off unless METRICS_PORT is set, and never on the public port', async () => {
    expect(loadConfig({}).metricsPort).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: 'off' }).metricsPort).toBeUndefined();
    expect(loadConfig({ PORT: '8080', METRICS_PORT: '9080', HOST: '0.0.0.0' })).toMatchObject({
      metricsPort: 9080,
      metricsHost: '0.0.0.0',
    });
    expect(() => loadConfig({ PORT: '8080', METRICS_PORT: '8080' })).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS_PORT: 'ninety' })).toThrow(/METRICS_PORT/);
    expect(await startMetricsServer({ metricsPort: undefined, metricsHost: '127.0.0.1' }, gw.gateway.logger)).toBe(
      undefined,
    );
  });

  it('does not proxy or serve /metrics on the public port, however the path is spelled', async () => {
    expect(matchRoute('/metrics')).toBeUndefined();
    for (const path of [
      '/metrics',
      '/METRICS/',
      '/api/metrics',
      '/api/products/../../metrics',
      '/api/cart/%2e%2e/metrics',
    ]) {
      const res = await rawRequest(gw.url, { path });
      expect(res.body.toString()).not.toMatch(/^# (HELP|TYPE) /m);
    }
    for (const u of Object.values(upstreams)) expect(u.requests.filter((r) => /metrics/i.test(r.url))).toEqual([]);
    // The metrics listener serves nothing else.
    expect((await fetch(`http://127.0.0.1:${metrics.port}/api/products`)).status).toBe(404);
  });

  it('counts requests by route label (bounded: never the raw path) and status, with their latency', async () => {
    const before = await scrape();
    await get(`/api/cart/${Date.now()}`);
    await get('/api/orders/mine?status=401');
    await get(`/api/no-such-thing/${Date.now()}`);
    await get(`/collections/all?x=${Date.now()}`);
    await get('/health');
    const after = await scrape();
    const moved = (labels: Record<string, string>) =>
      after.sum('http_requests_total', labels) - before.sum('http_requests_total', labels);
    expect(moved({ method: 'GET', route: '/api/cart', status: '200' })).toBe(1);
    expect(moved({ method: 'GET', route: '/api/orders', status: '401' })).toBe(1);
    expect(moved({ method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(moved({ method: 'GET', route: 'spa' })).toBe(1);
    expect(moved({ method: 'GET', route: '/health', status: '200' })).toBe(1);
    expect(
      after.sum('http_request_duration_seconds_count', { route: '/api/cart' }) -
        before.sum('http_request_duration_seconds_count', { route: '/api/cart' }),
    ).toBe(1);
    const routes = new Set(after.samples.filter((s) => s.name === 'http_requests_total').map((s) => s.labels.route));
    for (const route of routes)
      expect(['/health', '/ready', '/api/docs', 'spa', 'unmatched', ...ROUTES.map((r) => r.prefix)]).toContain(route);
  });

  it('counts HTTP cache misses and hits', async () => {
    const before = await scrape();
    const path = `/api/products?keyword=metrics-${Date.now()}`;
    expect((await get(path)).status).toBe(200); // miss: filled from the catalog
    expect((await get(path)).status).toBe(200); // hit
    const after = await scrape();
    const moved = (result: string) =>
      after.sum('shop_catalog_cache_requests_total', { result }) -
      before.sum('shop_catalog_cache_requests_total', { result });
    expect(moved('miss')).toBe(1);
    expect(moved('hit')).toBe(1);
    expect(after.sum('shop_catalog_cache_entries')).toBeGreaterThanOrEqual(1);
    expect(after.sum('http_requests_total', { route: '/api/products', status: '200' })).toBeGreaterThanOrEqual(2);
  });

  it('serves the process and event-loop metrics', async () => {
    const names = (await scrape()).names();
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
    ])
      expect(names).toContain(name);
  });

  it('labels paths from a bounded set', () => {
    expect(routeLabel('/api/products/64b7f0c2a1b2c3d4e5f60001?x=1')).toBe('/api/products');
    expect(routeLabel('/API/Admin/Orders/abc/deliver')).toBe('/api/admin/orders');
    expect(routeLabel('/uploads/jersey.svg')).toBe('/uploads');
    expect(routeLabel('/api/docs')).toBe('/api/docs');
    expect(routeLabel('/api/whatever')).toBe('unmatched');
    expect(routeLabel('/assets/index-abc.js')).toBe('spa');
  });
});
