import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import * as amqplib from 'amqplib';
import type { EventEnvelope } from '@shop/contracts';
import { EventBus } from './event-bus';
import { consumerTopology, type EventBusLogger } from './event-bus.types';
import { EventsModule } from './events.module';
import { InMemoryProcessedEventStore } from './processed-event.store';

const AMQP_URL = process.env.TEST_AMQP_URL ?? process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const suite = randomUUID().slice(0, 8);
const exchange = `test.events.${suite}`;
const queuePrefix = `test.${suite}.`;
const queue = `${queuePrefix}stock.events`; // the default name: `${queuePrefix}${service}.events`
const silent: EventBusLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

const CONFIG = 'TEST_BUS_CONFIG';
@Module({ providers: [{ provide: CONFIG, useValue: { url: AMQP_URL, exchange } }], exports: [CONFIG] })
class ConfigModule {}

const received: EventEnvelope[] = [];

/** A feature provider subscribing in its own onModuleInit: the bus must already be started. */
@Injectable()
class StockListener implements OnModuleInit {
  constructor(@Inject(EventBus) private readonly bus: EventBus) {}

  onModuleInit(): Promise<void> {
    return this.bus.subscribe({ 'orders.order.placed': async (e) => void received.push(e) });
  }
}

@Module({
  imports: [
    EventsModule.forRootAsync({
      imports: [ConfigModule],
      inject: [CONFIG],
      useFactory: (cfg: { url: string; exchange: string }) => ({
        ...cfg,
        service: 'stock',
        queuePrefix,
        logger: silent,
        store: new InMemoryProcessedEventStore(),
      }),
    }),
  ],
  providers: [StockListener],
})
class AppModule {}

describe('EventsModule', () => {
  afterAll(async () => {
    const raw = await amqplib.connect(AMQP_URL);
    const ch = await raw.createChannel();
    const t = consumerTopology(queue);
    for (const q of [t.queue, t.retryQueue, t.dlq]) await ch.deleteQueue(q);
    await ch.deleteExchange(t.dlx);
    await ch.deleteExchange(exchange);
    await raw.close();
  });

  it('provides a started EventBus from the async factory and closes it on shutdown', async () => {
    const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
    const bus = app.get(EventBus);
    expect(bus.service).toBe('stock');
    expect(bus.exchange).toBe(exchange);

    const event = await bus.publish('orders.order.placed', { orderId: 'o-1' });
    const deadline = Date.now() + 5000;
    while (received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(received).toEqual([event]);

    const raw = await amqplib.connect(AMQP_URL);
    const ch = await raw.createChannel();
    expect(await ch.checkQueue(queue)).toMatchObject({ queue, consumerCount: 1 });
    await raw.close();

    await app.close();
    await expect(bus.publish('orders.order.placed', {})).rejects.toThrow(/not started \(or closed\)/);
  });
});
