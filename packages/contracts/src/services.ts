/** The five services, and where each listens by default (gateway on 8080). */
export const SERVICES = ['catalog', 'cart', 'identity', 'checkout', 'orders'] as const;
export type ServiceName = (typeof SERVICES)[number];

export const DEFAULT_PORTS: Record<ServiceName | 'gateway', number> = {
  gateway: 8080,
  catalog: 3001,
  cart: 3002,
  identity: 3003,
  checkout: 3004,
  orders: 3005,
};

/** The request id header, set by the gateway and carried through HTTP and RabbitMQ. */
export const REQUEST_ID_HEADER = 'x-request-id';
