import type { ServiceName } from '@shop/contracts';
import { testMongoUrl, withDatabase } from './mongo-url';
import { TcpProxy } from './tcp-proxy';
import { startTestService, uniqueSuffix, type TestService, type TestServiceOptions } from './test-service';

export type Dependency = 'mongodb' | 'redis' | 'rabbitmq';

export interface FaultyService {
  svc: TestService;
  /** One proxy per dependency, between the service and the real server: close(), blackhole(), open(). */
  proxies: Record<Dependency, TcpProxy>;
  /** Opens every proxy again (use in afterEach, so one failed test does not leave a dependency away). */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts a real service whose MongoDB, Redis and RabbitMQ connections each go through a TCP proxy the test
 * controls, for fault tests: a dependency refused (`close()`) or hung (`blackhole()`), then restored (`open()`).
 */
export async function startWithFaultProxies(
  service: ServiceName,
  rootModule: unknown,
  options: TestServiceOptions = {},
): Promise<FaultyService> {
  const mongo = await TcpProxy.inFrontOf(testMongoUrl(), 27017);
  const redis = await TcpProxy.inFrontOf(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 6379);
  const rabbit = await TcpProxy.inFrontOf(process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672', 5672);
  const proxies: Record<Dependency, TcpProxy> = { mongodb: mongo.proxy, redis: redis.proxy, rabbitmq: rabbit.proxy };
  const restore = async () => {
    for (const proxy of Object.values(proxies)) await proxy.open();
  };
  const svc = await startTestService(service, rootModule, {
    ...options,
    env: {
      MONGO_URI: throughProxy(withDatabase(mongo.url, `test_${service}_faults_${uniqueSuffix()}`)),
      REDIS_URL: redis.url,
      RABBITMQ_URL: rabbit.url,
      ...options.env,
    },
  });
  return {
    svc,
    proxies,
    restore,
    close: async () => {
      await restore();
      await svc.close();
      for (const proxy of Object.values(proxies)) await proxy.stop();
    },
  };
}

/**
 * A URL to the proxy as a direct connection: to a replica-set member (an external MongoDB, docs/operations.md) the
 * driver would otherwise discover the set's members by their own names and talk to them past the proxy.
 */
function throughProxy(url: string): string {
  const [base, query] = url.split('?');
  const options = new URLSearchParams(query);
  options.delete('replicaSet');
  options.set('directConnection', 'true');
  return `${base}?${options}`;
}
