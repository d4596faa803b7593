import type { INestApplication } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Role, ShopServiceName, TokenClaims } from '@shop/contracts';
import amqp from 'amqplib';
import type { Connection } from 'mongoose';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { startServiceApp } from '../bootstrap/create-service-app';
import { ServiceConfig } from '../config/service-config';
import { consumerTopology } from '../events/event-bus.types';
import { namespacedExchange, namespacedQueue } from '../rpc/rpc-names';
import { testMongoUrl, withDatabase } from './mongo-url';

export const TEST_JWT_SECRET = 'test-secret-for-the-shop-suites';

export interface TestService {
  app: INestApplication;
  /** Base URL of the service's HTTP side, e.g. http://127.0.0.1:41234 */
  url: string;
  config: ServiceConfig;
  /** The RabbitMQ namespace this suite's queues and exchange live in. */
  namespace: string;
  /** Every JSON log line the service wrote. */
  logs: Array<Record<string, unknown>>;
  /** Signs a token exactly as identity does, for calling protected routes. */
  token(user: { id: string; role?: Role; name?: string; iatMs?: number }): string;
  /** Stops the service, drops its database and deletes its queues. */
  close(): Promise<void>;
}

export interface TestServiceOptions {
  /** Extra or overriding environment for the service's config. */
  env?: Record<string, string>;
  /** Share a namespace with other services of the same suite (so they can talk). */
  namespace?: string;
  /** Queue names, besides the service's request queue, to delete at close. */
  extraQueues?: string[];
}

export function uniqueSuffix(): string {
  return randomBytes(4).toString('hex');
}

/**
 * Starts a real service in-process against the real dev servers: its own database on the
 * test MongoDB-wire server (TEST_MONGO_URL), the real Redis and RabbitMQ, queues under a
 * unique namespace. Three lines per suite: start, use `url`, close.
 */
export async function startTestService(
  service: ShopServiceName,
  rootModule: unknown,
  options: TestServiceOptions = {},
): Promise<TestService> {
  const suffix = uniqueSuffix();
  const namespace = options.namespace ?? `t${suffix}.`;
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    MONGO_URI: withDatabase(testMongoUrl(), `test_${service}_${suffix}`),
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    RABBITMQ_URL: process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
    RABBITMQ_NAMESPACE: namespace,
    JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'info',
    ...options.env,
  };

  const saved = new Map(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  const logs: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line) continue;
        try {
          logs.push(JSON.parse(line));
        } catch {
          logs.push({ msg: line });
        }
      }
      done();
    },
  });
  let app: INestApplication;
  try {
    app = await startServiceApp(service, rootModule, { port: 0, logDestination: sink });
  } finally {
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  const config = app.get(ServiceConfig);
  const { port } = app.getHttpServer().address() as { port: number };
  const jwt = app.get(JwtService);

  return {
    app,
    url: `http://127.0.0.1:${port}`,
    config,
    namespace,
    logs,
    token: ({ id, role = 'customer', name = 'Test User', iatMs = Date.now() }) =>
      jwt.sign({ sub: id, role, name, iatMs } satisfies TokenClaims),
    close: async () => {
      const connection = app.get<Connection>(getConnectionToken());
      await connection.db?.dropDatabase().catch(() => undefined);
      await app.close();
      const events = consumerTopology(`${namespace}${service}.events`);
      await deleteBrokerObjects(env.RABBITMQ_URL, {
        queues: [
          namespacedQueue(namespace, service),
          events.queue,
          events.retryQueue,
          events.dlq,
          ...(options.extraQueues ?? []),
        ],
        // The suite's exchange goes with the last service of the namespace: the one that created the namespace.
        exchanges: [events.dlx, ...(options.namespace ? [] : [namespacedExchange(namespace)])],
      });
    },
  };
}

/** Deletes an event consumer's queues (queue, retry, DLQ, DLX) that a suite declared itself. */
export async function deleteConsumerTopology(url: string, queue: string): Promise<void> {
  const t = consumerTopology(queue);
  await deleteBrokerObjects(url, { queues: [t.queue, t.retryQueue, t.dlq], exchanges: [t.dlx] });
}

/** Deletes what a suite declared; one channel per call, since a failed delete closes its channel. */
async function deleteBrokerObjects(url: string, objects: { queues: string[]; exchanges: string[] }): Promise<void> {
  const connection = await amqp.connect(url);
  const attempt = async (fn: (channel: amqp.Channel) => Promise<unknown>) => {
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    await fn(channel).catch(() => undefined);
    await channel.close().catch(() => undefined);
  };
  try {
    for (const queue of objects.queues) await attempt((ch) => ch.deleteQueue(queue));
    for (const exchange of objects.exchanges) await attempt((ch) => ch.deleteExchange(exchange));
  } finally {
    await connection.close();
  }
}
