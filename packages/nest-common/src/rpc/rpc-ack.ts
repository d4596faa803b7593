import type { RmqContext } from '@nestjs/microservices';

const acknowledged = new WeakSet<object>();

/**
 * Acks a request message exactly once. Request queues run with manual acks (a crash mid-
 * handler leaves the message for another replica), so both the request queue's server (once the
 * answer is sent) and the exception filter (on the error path) ack; acking twice would close the channel.
 */
export function acknowledgeRpc(context: unknown): void {
  const ctx = context as Partial<RmqContext> | undefined;
  if (!ctx || typeof ctx.getMessage !== 'function' || typeof ctx.getChannelRef !== 'function') return;
  const message = ctx.getMessage() as object | undefined;
  if (!message || acknowledged.has(message)) return;
  acknowledged.add(message);
  ctx.getChannelRef().ack(message);
}
