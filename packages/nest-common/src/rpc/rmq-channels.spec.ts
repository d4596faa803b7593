import type { AmqpConnectionManager, ChannelWrapper } from 'amqp-connection-manager';
import { EventEmitter } from 'node:events';
import type { Channel } from 'amqplib';
import { listenForChannelErrors, ResilientServerRMQ } from './rmq-channels';

/** A connection manager whose channels fail every send, as when the broker goes away before confirming. */
function failingConnection(): AmqpConnectionManager {
  const createChannel = () =>
    Object.assign(new EventEmitter(), {
      sendToQueue: () => Promise.reject(new Error('channel closed')),
    }) as unknown as ChannelWrapper;
  return { createChannel } as unknown as AmqpConnectionManager;
}

describe('RabbitMQ channels of the request server and clients', () => {
  it('never leaves a send the broker did not confirm as an unhandled rejection (it would end the process)', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const channel = listenForChannelErrors(failingConnection(), 'request queue').createChannel({});
      // As Nest's request server sends a reply: the promise is dropped.
      void channel.sendToQueue('amq.rabbitmq.reply-to.x', Buffer.from('{}'), {});
      // A caller that waits on it still hears the failure.
      await expect(channel.sendToQueue('q', Buffer.from('{}'), {})).rejects.toThrow('channel closed');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it("never leaves the request queue's consume, cut short by a connection that ended, as an unhandled rejection", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const server = new ResilientServerRMQ({ urls: ['amqp://127.0.0.1:1'], queue: 'requests' });
      // The broker went away between prefetch and consume-ok: amqplib rejects the consume.
      const channel = {
        assertQueue: () => Promise.resolve({ queue: 'requests', messageCount: 0, consumerCount: 0 }),
        prefetch: () => Promise.resolve({}),
        consume: () => Promise.reject(new Error('Channel ended, no reply will be forthcoming')),
      } as unknown as Channel;
      const ready = jest.fn();
      await server.setupChannel(channel, ready);
      expect(ready).toHaveBeenCalled();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
