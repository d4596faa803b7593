// Two real gateways in front of a suite's real cart and catalog (cart.fixtures.ts), alike but for one of the
// gateway's own cart features: one with it on, one with it off (everything forwarded). The gateway-guest-*.spec.ts
// suites ask both the same and expect the same answers.
import type { Server } from 'node:http';
import { createGateway, type Gateway } from '../../../gateway/src/app';
import { loadConfig } from '../../../gateway/src/config';
import type { Shop } from './cart.fixtures';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds (polled every 50 ms), or fails after `timeoutMs`. */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(50);
  }
}

export interface GatewayPair {
  /** The gateway with the feature on, and its URL. */
  on: Gateway;
  onUrl: string;
  /** The gateway with the feature off: it forwards to the cart service. */
  off: Gateway;
  offUrl: string;
  /** The Redis key (and channel) of the catalog version both follow. */
  versionKey: string;
  /** Requests that reached the cart service's HTTP server so far. */
  cartRequests(): number;
  /** Until the feature gateway's catalogue copy is current at the version Redis has. */
  copyCurrent(): Promise<void>;
  close(): Promise<void>;
}

export async function startGatewayPair(
  shop: Shop,
  feature: 'CART_GUEST_READS' | 'CART_GUEST_ADDS',
  env: Record<string, string> = {},
): Promise<GatewayPair> {
  const namespace = shop.cart.config.RABBITMQ_NAMESPACE;
  const gatewayWith = (on: boolean): Gateway =>
    createGateway(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        REDIS_URL: shop.cart.config.REDIS_URL,
        RATE_LIMIT_PREFIX: `${namespace}rl:`,
        CATALOG_CACHE_PREFIX: namespace,
        CART_NAMESPACE: namespace,
        CATALOG_URL: shop.catalog.url,
        CART_URL: shop.cart.url,
        READY_CHECK_UPSTREAMS: 'false',
        // Versions by message only: the suites announce a version the copy cannot reach.
        CATALOG_VERSION_POLL_MS: '3600000',
        // Only the feature under test differs; the other one is off in both.
        CART_GUEST_READS: 'off',
        CART_GUEST_ADDS: 'off',
        ...env,
        [feature]: on ? 'on' : 'off',
      }),
    );
  const on = gatewayWith(true);
  const off = gatewayWith(false);
  const onUrl = (await on.start()).url;
  const offUrl = (await off.start()).url;
  let cartRequests = 0;
  (shop.cart.app.getHttpServer() as Server).on('request', () => (cartRequests += 1));
  const versionKey = `${namespace}catalog:version`;
  const pair: GatewayPair = {
    on,
    onUrl,
    off,
    offUrl,
    versionKey,
    cartRequests: () => cartRequests,
    copyCurrent: () =>
      eventually(async () => {
        const version = (await shop.redis.get(versionKey)) ?? '0';
        const stats = on.catalogCache!.stats();
        return (
          on.catalogCache!.currentCatalogue() !== undefined &&
          stats.version === version &&
          String(stats.copy?.version) === version
        );
      }),
    close: async () => {
      await on.close(1000);
      await off.close(1000);
    },
  };
  await pair.copyCurrent();
  return pair;
}
