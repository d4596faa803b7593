import { Logger } from '@nestjs/common';
import type { RmqContext } from '@nestjs/microservices';

const acknowledged = new WeakSet<object>();
const logger = new Logger('RabbitMQ');

/**
 * Acks a request message exactly once. Request queues run with manual acks (a crash mid-
 * handler leaves the message for another replica), so both the request queue's server (once the
 * answer is sent) and the exception filter (on the error path) ack; acking twice would close the channel.
 *
 * The channel the message came on may be gone by the time its handler is done (the broker connection dropped
 * meanwhile): amqplib then throws "Channel closed" from `ack`, and a throw here — inside Nest's reply path, in a
 * promise nobody awaits — ended the process (both catalog replicas and a checkout replica at once, on a broker
 * failover). There is nothing left to ack: the broker gave the unacked message back to the queue when the channel
 * closed, so another delivery answers it (request handlers are idempotent).
 */
export function acknowledgeRpc(context: unknown): void {
  const ctx = context as Partial<RmqContext> | undefined;
  if (!ctx || typeof ctx.getMessage !== 'function' || typeof ctx.getChannelRef !== 'function') return;
  const message = ctx.getMessage() as object | undefined;
  if (!message || acknowledged.has(message)) return;
  acknowledged.add(message);
  try {
    ctx.getChannelRef().ack(message);
  } catch (err) {
    logger.warn(
      `a request was not acked: ${(err as Error).message} (the broker redelivers it on the channel's connection loss)`,
    );
  }
}
