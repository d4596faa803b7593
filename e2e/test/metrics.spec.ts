// Metrics of the running shop (issue 13): every process's /metrics exposes the series docs/operations.md
// describes, they move when a shopper buys through the gateway, the gateway's public port serves none, and the
// Grafana dashboard and the alert rules name only series that exist.
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { scrapeMetrics, type Exposition } from '@shop/nest-common/testing';
import { api, e2eEnv, login, uniqueEmail, type E2eEnv } from './support';

jest.setTimeout(120_000);

const ROOT = path.join(__dirname, '..', '..');
const OBSERVABILITY = path.join(ROOT, 'deploy/observability');

type Scrapes = Record<string, Exposition>;

/** The metric names a PromQL expression reads: not functions, keywords, label names or Grafana variables. */
function seriesOf(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""') // strings
    .replace(/\{[^}]*\}/g, '') // label matchers
    .replace(/\[[^\]]*\]/g, '') // ranges
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '') // grouping labels
    .replace(/\$\{?\w+\}?/g, ''); // $__rate_interval and friends
  const keywords = new Set(['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan', 'e']);
  const names = new Set<string>();
  for (const match of bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const name = match[0];
    const after = bare.slice((match.index ?? 0) + name.length).trimStart();
    if (after.startsWith('(') || keywords.has(name.toLowerCase())) continue;
    if (/^\d/.test(bare.slice(Math.max(0, (match.index ?? 0) - 1), match.index))) continue; // 350e6
    names.add(name);
  }
  return [...names];
}

/** Every PromQL expression of the dashboard (panels and rows, at any depth) and of the alert rules. */
function dashboardAndAlertQueries(): Array<{ where: string; expr: string }> {
  const found: Array<{ where: string; expr: string }> = [];
  const dashboard = JSON.parse(fs.readFileSync(path.join(OBSERVABILITY, 'grafana/dashboards/shop.json'), 'utf8'));
  const walk = (panels: Array<Record<string, any>>) => {
    for (const p of panels ?? []) {
      for (const t of p.targets ?? []) found.push({ where: `dashboard panel "${p.title}"`, expr: t.expr });
      walk(p.panels);
    }
  };
  walk(dashboard.panels);
  const alerts = parse(fs.readFileSync(path.join(OBSERVABILITY, 'alerts.yml'), 'utf8'));
  for (const group of alerts.groups)
    for (const rule of group.rules) found.push({ where: `alert ${rule.alert}`, expr: rule.expr });
  return found;
}

describe('metrics of the running shop', () => {
  let env: E2eEnv;
  let urls: Record<string, string>;
  const scrapeAll = async (): Promise<Scrapes> =>
    Object.fromEntries(await Promise.all(Object.entries(urls).map(async ([n, u]) => [n, await scrapeMetrics(u)])));

  beforeAll(() => {
    env = e2eEnv();
    urls = JSON.parse(process.env.E2E_METRICS_URLS ?? '{}');
  });

  it('has a /metrics for the gateway (its own port) and every running service', () => {
    expect(Object.keys(urls).sort()).toEqual(['gateway', ...env.running].sort());
    expect(new URL(urls.gateway).port).not.toBe(new URL(env.baseUrl).port);
  });

  it('never serves /metrics on the gateway’s public port', async () => {
    for (const p of ['/metrics', '/Metrics/', '/api/metrics', '/api/cart/metrics', '/uploads/metrics']) {
      const res = await api(env.baseUrl, 'GET', p, { headers: { Accept: 'text/plain' } });
      expect({ p, metrics: /^# (HELP|TYPE) /m.test(res.text) }).toEqual({ p, metrics: false });
    }
  });

  it('exposes process, event-loop, HTTP and RabbitMQ series everywhere, and they move when a shopper buys', async () => {
    const before = await scrapeAll();
    for (const [name, m] of Object.entries(before)) {
      const names = m.names();
      for (const series of [
        'process_cpu_seconds_total',
        'process_resident_memory_bytes',
        'nodejs_eventloop_lag_p99_seconds',
        'http_requests_total',
        'http_request_duration_seconds_bucket',
      ])
        expect({ name, series, exposed: names.has(series) }).toEqual({ name, series, exposed: true });
      if (name !== 'gateway')
        for (const series of [
          'shop_events_published_total',
          'shop_events_consumed_total',
          'shop_events_retried_total',
          'shop_events_dead_lettered_total',
          'shop_rpc_client_requests_total',
          'shop_rpc_server_requests_total',
        ])
          expect({ name, series, exposed: names.has(series) }).toEqual({ name, series, exposed: true });
    }

    // A shopper browses (the catalogue cache fills, then answers), buys, is refused once, pays and orders.
    const call = (method: string, p: string, token?: string, json?: unknown) =>
      api(env.baseUrl, method, p, { token, json });
    const browse = `/api/products?keyword=metrics-${randomUUID().slice(0, 8)}`;
    expect((await call('GET', browse)).status).toBe(200);
    expect((await call('GET', browse)).status).toBe(200);
    // A product nobody sells: no copy of the catalogue answers that, the catalog does (its 404), a cache miss.
    expect((await call('GET', `/api/products/${randomUUID().replace(/-/g, '').slice(0, 24)}`)).status).toBe(404);
    const adminToken = (await call('POST', '/api/users/login', undefined, login(env, 'admin'))).body.token;
    const image = (await call('GET', '/api/products?limit=1')).body[0].images[0];
    const sku = `E2E-METRICS-${randomUUID().slice(0, 8)}`;
    const product = await call('POST', '/api/admin/products', adminToken, {
      ...{ name: `Metrics Jersey ${sku}`, description: 'A jersey for the metrics test.', price: 34.99 },
      ...{ countInStock: 5, sku, category: 'Top Wear', gender: 'Men', brand: 'Philadelphia Eagles' },
      ...{ sizes: ['M'], colors: ['Green'], material: 'Polyester', images: [image] },
    });
    expect(product.status).toBe(201);
    const email = uniqueEmail('metrics');
    const buyer = (
      await call('POST', '/api/users/register', undefined, { name: 'Metrics', email, password: 'Metrics!2345' })
    ).body as { token: string; user: { _id: string } };
    const added = await call('POST', '/api/cart', buyer.token, {
      ...{ productId: product.body._id, quantity: 1, size: 'M', color: 'Green', userId: buyer.user._id },
    });
    expect(added.status).toBe(201);
    const checkout = await call('POST', '/api/checkout', buyer.token, {
      checkoutItems: added.body.products,
      shippingAddress: {
        ...{ firstName: 'Nick', lastName: 'Sirianni', address: '1 Broad St', city: 'Philadelphia' },
        ...{ postalCode: 'PA1 1EA', country: 'United Kingdom', phone: '+44 20 7946 0018' },
      },
      paymentMethod: 'Paypal',
      totalPrice: 34.99,
    });
    expect(checkout.status).toBe(201);
    const payPal = async (value: string) => {
      const res = await fetch(`${env.paypalUrl}/__fake/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ value }),
      });
      return ((await res.json()) as { id: string }).id;
    };
    const pay = async (value: string) =>
      call('PUT', `/api/checkout/${checkout.body._id}/pay`, buyer.token, {
        paymentStatus: 'paid',
        paymentDetails: { id: await payPal(value), status: 'COMPLETED' },
      });
    expect((await pay('1.00')).status).toBe(402); // the wrong amount: refused
    expect((await pay('34.99')).status).toBe(200);
    expect((await call('POST', `/api/checkout/${checkout.body._id}/finalize`, buyer.token)).status).toBe(201);

    // The order's event reaches catalog (stock committed) and cart (lines taken out) through the outbox.
    const moved = (after: Scrapes, name: string, series: string, labels: Record<string, string> = {}) =>
      after[name].sum(series, labels) - before[name].sum(series, labels);
    const consumedPlaced = (after: Scrapes, name: string) =>
      moved(after, name, 'shop_events_consumed_total', { event: 'orders.order.placed', outcome: 'handled' });
    let after = await scrapeAll();
    const deadline = Date.now() + 20_000;
    while ((consumedPlaced(after, 'catalog') < 1 || consumedPlaced(after, 'cart') < 1) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      after = await scrapeAll();
    }

    const expectMoved = (name: string, series: string, labels: Record<string, string> = {}, atLeast = 1) =>
      expect({ name, series, labels, moved: moved(after, name, series, labels) >= atLeast }).toEqual({
        name,
        series,
        labels,
        moved: true,
      });
    // The shop's own counters.
    expectMoved('cart', 'shop_carts_written_total', { owner: 'user' }, 2); // the line added, then taken out
    expectMoved('checkout', 'shop_checkouts_created_total');
    expectMoved('checkout', 'shop_payments_total', { outcome: 'verified' });
    expectMoved('checkout', 'shop_payments_total', { outcome: 'refused' });
    expectMoved('orders', 'shop_orders_placed_total');
    // RabbitMQ: the outbox relay and the event it published, consumed by catalog and cart; requests both ways.
    expectMoved('orders', 'shop_outbox_relayed_total', { collection: 'orders' });
    expectMoved('orders', 'shop_events_published_total', { event: 'orders.order.placed', outcome: 'ok' });
    expectMoved('catalog', 'shop_events_consumed_total', { event: 'orders.order.placed', outcome: 'handled' });
    expectMoved('cart', 'shop_events_consumed_total', { event: 'orders.order.placed', outcome: 'handled' });
    expectMoved('checkout', 'shop_rpc_client_requests_total', { outcome: 'ok' }, 3); // price, reserve, create order…
    expectMoved('catalog', 'shop_rpc_server_requests_total', { outcome: 'ok' });
    expectMoved('orders', 'shop_rpc_server_requests_total', { outcome: 'ok' });
    // HTTP by route template in the services, by route-table prefix in the gateway.
    expectMoved('checkout', 'http_requests_total', { method: 'PUT', route: '/api/checkout/:id/pay', status: '402' });
    expectMoved('checkout', 'http_requests_total', { method: 'POST', route: '/api/checkout/:id/finalize' });
    expectMoved('gateway', 'http_requests_total', { method: 'POST', route: '/api/checkout', status: '201' }, 2);
    expectMoved('gateway', 'http_request_duration_seconds_count', { route: '/api/cart' });
    // The catalogue cache: the browses were answered from memory (its copy of the catalogue, then the kept answer),
    // the unknown product by the catalog.
    expectMoved('gateway', 'shop_catalog_cache_requests_total', { result: 'miss' });
    expectMoved('gateway', 'shop_catalog_cache_requests_total', { result: 'hit' });
  });

  it('has a dashboard and alert rules that name only series some /metrics exposes', async () => {
    const exposed = new Set<string>(['up']); // Prometheus's own, per target
    for (const m of Object.values(await scrapeAll())) for (const name of m.names()) exposed.add(name);
    const queries = dashboardAndAlertQueries();
    expect(queries.length).toBeGreaterThan(20);
    const missing = queries.flatMap(({ where, expr }) =>
      seriesOf(expr)
        .filter((name) => !exposed.has(name))
        .map((name) => `${where}: ${name}`),
    );
    expect(missing).toEqual([]);
    // The extractor itself finds what a query names, and nothing else.
    expect(
      seriesOf(
        'histogram_quantile(0.95, sum by (le, route) (rate(http_request_duration_seconds_bucket{service="gateway"}[$__rate_interval]))) > 350e6',
      ),
    ).toEqual(['http_request_duration_seconds_bucket']);
  });
});
