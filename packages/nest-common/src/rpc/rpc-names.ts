import { EVENTS_EXCHANGE, rpcQueue, type ShopServiceName } from '@shop/contracts';

/** Queue and exchange names with the deployment's namespace (empty in production, unique per test suite). */
export function namespacedQueue(namespace: string, service: ShopServiceName): string {
  return `${namespace}${rpcQueue(service)}`;
}

export function namespacedExchange(namespace: string): string {
  return `${namespace}${EVENTS_EXCHANGE}`;
}
