import { Controller, Get, Inject, ServiceUnavailableException } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type Redis from 'ioredis';
import type { Connection } from 'mongoose';
import { EventBus } from '../events/event-bus';
import { REDIS } from '../redis/redis.provider';

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timed out')), ms).unref()),
  ]);
}

/** /health: the process is up. /ready: its MongoDB, Redis and RabbitMQ answer. Not proxied publicly. */
@Controller()
export class HealthController {
  constructor(
    @InjectConnection() private readonly mongo: Connection,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly bus: EventBus,
  ) {}

  @Get('health')
  health() {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready() {
    const checks: Record<string, () => Promise<unknown>> = {
      mongodb: async () => {
        if (!this.mongo.db) throw new Error('not connected');
        await this.mongo.db.admin().ping();
      },
      redis: () => this.redis.ping(),
      // The bus's own connection, not a fresh TCP connect: a hung broker still accepts connections.
      rabbitmq: async () => {
        if (!this.bus.isConnected()) throw new Error('not connected');
      },
    };
    const results = await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        try {
          await withTimeout(check(), 2000);
          return [name, 'ok'] as const;
        } catch (err) {
          return [name, (err as Error).message] as const;
        }
      }),
    );
    const failing = results.filter(([, status]) => status !== 'ok');
    if (failing.length) {
      throw new ServiceUnavailableException(
        `Not ready: ${failing.map(([name, why]) => `${name} (${why})`).join(', ')}`,
      );
    }
    return { status: 'ready', checks: Object.fromEntries(results) };
  }
}
