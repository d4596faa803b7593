import * as amqplib from 'amqplib';
import { randomUUID } from 'node:crypto';
import { EventBus } from './event-bus';
import { waitFor } from '../testing/wait-for';

const AMQP_URL = process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('EventBus.broadcast (real RabbitMQ)', () => {
  const exchange = `test.broadcast.${randomUUID().slice(0, 8)}`;
  const buses: EventBus[] = [];
  const started = async () => {
    const bus = new EventBus({ url: AMQP_URL, service: 'cart', exchange, logger: quiet });
    buses.push(bus);
    await bus.start();
    return bus;
  };
  afterAll(async () => {
    await Promise.all(buses.map((b) => b.close()));
    const connection = await amqplib.connect(AMQP_URL);
    const channel = await connection.createChannel();
    await channel.deleteExchange(exchange);
    await connection.close();
  });

  it('delivers every event to every replica, unlike subscribe(), and survives a failing handler', async () => {
    const [publisher, one, two] = await Promise.all([started(), started(), started()]);
    const heard: Record<string, string[]> = { one: [], two: [] };
    await one.broadcast({ 'catalog.product.*': async (e) => void heard.one.push((e.data as { id: string }).id) });
    await two.broadcast({
      'catalog.product.changed': async (e) => {
        heard.two.push((e.data as { id: string }).id);
        throw new Error('a broken handler must not stop the listener');
      },
    });
    await publisher.publish('catalog.product.changed', { id: 'p1' });
    await publisher.publish('catalog.product.deleted', { id: 'p2' });
    await publisher.publish('catalog.product.changed', { id: 'p3' });
    await waitFor('both replicas to hear', () => heard.one.length === 3 && heard.two.length === 2, 5000);
    expect(heard).toEqual({ one: ['p1', 'p2', 'p3'], two: ['p1', 'p3'] });
  });
});
