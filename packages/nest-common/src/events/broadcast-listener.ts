import type { AmqpConnectionManager, ChannelWrapper } from 'amqp-connection-manager';
import type { ConfirmChannel } from 'amqplib';
import type { EventEnvelope } from '@shop/contracts';
import type { MessagingMetrics } from '../metrics/messaging-metrics';
import { errorText, parseEnvelope, withTimeout } from './event-consumer';
import type { EventBusLogger } from './event-bus.types';
import { topicMatches } from './topic-pattern';

/** Routing key (an event type, or a topic pattern) → what this replica does with it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type BroadcastHandlers = Record<string, (event: EventEnvelope<any>) => void | Promise<void>>;

export interface BroadcastOptions {
  /**
   * Called when the listener's queue was declared again after the connection or channel came back:
   * events published meanwhile were missed, so an in-memory copy should be dropped.
   */
  onResubscribed?: () => void;
}

export interface BroadcastListenerConfig extends BroadcastOptions {
  service: string;
  exchange: string;
  handlers: BroadcastHandlers;
  logger: EventBusLogger;
  metrics?: MessagingMetrics;
}

/**
 * Every replica hears every event: one exclusive, server-named, auto-deleted queue per process, bound
 * to the handlers' keys. For in-memory copies of another service's data (a cache dropped on a change);
 * deliveries are at most once, without retries or a dead-letter queue, since a replica that missed one
 * is told (`onResubscribed`) and the copy carries its own expiry. Facts that must be acted on exactly
 * once go through `subscribe()` instead.
 */
export class BroadcastListener {
  private wrapper?: ChannelWrapper;
  private readonly patterns: string[];
  private setups = 0;

  constructor(
    private readonly manager: AmqpConnectionManager,
    private readonly cfg: BroadcastListenerConfig,
  ) {
    this.patterns = Object.keys(cfg.handlers);
  }

  async start(connectTimeoutMs: number): Promise<void> {
    const wrapper = this.manager.createChannel({ name: `broadcast:${this.cfg.service}:${this.patterns.join(',')}` });
    this.wrapper = wrapper;
    wrapper.on('error', (err: Error) => this.cfg.logger.error({ err }, 'broadcast listener channel setup failed'));
    try {
      await withTimeout(wrapper.waitForConnect(), connectTimeoutMs, 'no channel to the broker');
      await wrapper.addSetup((channel: ConfirmChannel) => this.setup(channel));
    } catch (err) {
      await wrapper.close().catch(() => undefined);
      throw new Error(`EventBus(${this.cfg.service}): cannot listen to ${this.patterns.join(', ')}: ${errorText(err)}`);
    }
  }

  async close(): Promise<void> {
    await this.wrapper?.close().catch(() => undefined);
  }

  private async setup(channel: ConfirmChannel): Promise<void> {
    if (this.setups++ > 0) this.cfg.onResubscribed?.();
    await channel.assertExchange(this.cfg.exchange, 'topic', { durable: true });
    const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true, durable: false });
    for (const pattern of this.patterns) await channel.bindQueue(queue, this.cfg.exchange, pattern);
    await channel.consume(queue, (msg) => msg && void this.deliver(msg.content), { noAck: true });
  }

  private async deliver(content: Buffer): Promise<void> {
    let envelope: EventEnvelope;
    try {
      envelope = parseEnvelope(content);
    } catch (err) {
      this.cfg.logger.warn({ err: errorText(err) }, 'broadcast: invalid message ignored');
      return;
    }
    const pattern = this.cfg.handlers[envelope.type]
      ? envelope.type
      : this.patterns.find((p) => topicMatches(p, envelope.type));
    if (!pattern) return;
    // One server-named queue per replica: counted under a stable name.
    const labels = { queue: `${this.cfg.service}.broadcast`, event: pattern };
    try {
      await this.cfg.handlers[pattern](envelope);
      this.cfg.metrics?.consumed.inc({ ...labels, outcome: 'handled' });
    } catch (err) {
      this.cfg.metrics?.consumed.inc({ ...labels, outcome: 'failed' });
      this.cfg.logger.warn({ eventId: envelope.eventId, type: envelope.type, err }, 'broadcast handler failed');
    }
  }
}
