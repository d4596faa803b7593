/** The five services behind the gateway: each owns part of /api (the gateway proxies to them and checks them). */
export const SERVICES = ['catalog', 'cart', 'identity', 'checkout', 'orders'] as const;
export type ServiceName = (typeof SERVICES)[number];

/**
 * Services that serve no /api route: they work from events and answer only /health, /ready and /metrics on
 * their own port. The gateway neither proxies to them nor waits for them.
 */
export const WORKER_SERVICES = ['notifications'] as const;
export type WorkerServiceName = (typeof WORKER_SERVICES)[number];

/** Every service of the shop, behind the gateway or not: what a service process is started as. */
export type ShopServiceName = ServiceName | WorkerServiceName;

export const DEFAULT_PORTS: Record<ShopServiceName | 'gateway', number> = {
  gateway: 8080,
  catalog: 3001,
  cart: 3002,
  identity: 3003,
  checkout: 3004,
  orders: 3005,
  notifications: 3006,
};

/** The request id header, set by the gateway and carried through HTTP and RabbitMQ. */
export const REQUEST_ID_HEADER = 'x-request-id';
