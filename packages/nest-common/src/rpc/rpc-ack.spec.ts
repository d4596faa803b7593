import { randomUUID } from 'node:crypto';
import * as amqp from 'amqplib';
import type { RmqContext } from '@nestjs/microservices';
import { acknowledgeRpc } from './rpc-ack';

const RABBITMQ_URL = process.env.RABBITMQ_URL || 'amqp://guest:guest@127.0.0.1:5672';

/** A request context as Nest's RMQ server makes it: the message and the channel it came on. */
const contextOf = (message: amqp.Message, channel: amqp.Channel) =>
  ({ getMessage: () => message, getChannelRef: () => channel }) as unknown as RmqContext;

describe('acknowledgeRpc, on a real broker', () => {
  it('acks a request once, and a request whose channel closed meanwhile is left to be redelivered, without a throw', async () => {
    const queue = `rpc-ack-test-${randomUUID()}`;
    const publisher = await amqp.connect(RABBITMQ_URL);
    const consumer = await amqp.connect(RABBITMQ_URL);
    consumer.on('error', () => undefined);
    try {
      const pub = await publisher.createChannel();
      await pub.assertQueue(queue, { durable: false, autoDelete: false });
      pub.sendToQueue(queue, Buffer.from('{"pattern":"a"}'));
      pub.sendToQueue(queue, Buffer.from('{"pattern":"b"}'));
      const channel = await consumer.createChannel();
      channel.on('error', () => undefined);
      const got: amqp.Message[] = [];
      await channel.consume(queue, (m) => m && got.push(m), { noAck: false });
      while (got.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));

      acknowledgeRpc(contextOf(got[0], channel));
      acknowledgeRpc(contextOf(got[0], channel)); // twice: the second is a no-op (a second ack closes the channel)
      await channel.checkQueue(queue); // a round trip on the channel: the broker has the ack
      // The connection drops (a broker failover) while the second request's handler runs; then it answers.
      await consumer.close();
      expect(() => acknowledgeRpc(contextOf(got[1], channel))).not.toThrow();

      // The broker gave the unacked request back; the acked one is gone.
      const again = await pub.get(queue, { noAck: true });
      expect(again && again.content.toString()).toBe('{"pattern":"b"}');
      expect(await pub.get(queue, { noAck: true })).toBe(false);
      await pub.deleteQueue(queue);
    } finally {
      await publisher.close().catch(() => undefined);
      await consumer.close().catch(() => undefined);
    }
  });
});
