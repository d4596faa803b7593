import amqp from 'amqplib';
import { consumerTopology, EVENT_HEADERS } from './event-bus.types';

/** One dead-lettered event, as an operator needs to see it. */
export interface DeadLetter {
  eventId?: string;
  type?: string;
  attempts: number;
  error?: string;
  failedAt?: string;
  body: string;
}

const FAILURE_HEADERS: string[] = [
  EVENT_HEADERS.attempts,
  EVENT_HEADERS.lastError,
  EVENT_HEADERS.error,
  EVENT_HEADERS.errorStack,
  EVENT_HEADERS.failedAt,
  EVENT_HEADERS.consumer,
];

function describe(msg: amqp.GetMessage): DeadLetter {
  const headers = msg.properties.headers ?? {};
  const body = msg.content.toString('utf8');
  let type: string | undefined;
  try {
    type = (JSON.parse(body) as { type?: string }).type;
  } catch {
    // not JSON: shown as is
  }
  return {
    eventId: msg.properties.messageId as string | undefined,
    type,
    attempts: Number(headers[EVENT_HEADERS.attempts] ?? 0),
    error: headers[EVENT_HEADERS.error] as string | undefined,
    failedAt: headers[EVENT_HEADERS.failedAt] as string | undefined,
    body,
  };
}

/**
 * The dead-letter queue of one consumer queue, for operators: look at what failed and, once the cause is
 * fixed, send it back to the consumer (with its attempt count reset). Handlers dedupe by event id, so a
 * replayed event that had in fact been handled is harmless.
 */
export class DeadLetters {
  private constructor(
    private readonly connection: amqp.ChannelModel,
    private readonly channel: amqp.ConfirmChannel,
    private readonly queue: string,
  ) {}

  static async open(url: string, consumerQueue: string): Promise<DeadLetters> {
    const connection = await amqp.connect(url);
    connection.on('error', () => undefined); // a failed check closes the channel; the rejection below says why
    try {
      const channel = await connection.createConfirmChannel();
      channel.on('error', () => undefined);
      await channel.checkQueue(consumerTopology(consumerQueue).dlq);
      return new DeadLetters(connection, channel, consumerQueue);
    } catch (err) {
      await connection.close().catch(() => undefined);
      throw new Error(`no dead-letter queue for ${consumerQueue}: ${(err as Error).message}`);
    }
  }

  /** Up to `limit` dead letters, oldest first, left in the queue. */
  async list(limit = 50): Promise<DeadLetter[]> {
    const dlq = consumerTopology(this.queue).dlq;
    const seen: amqp.GetMessage[] = [];
    try {
      for (let i = 0; i < limit; i++) {
        const msg = await this.channel.get(dlq, { noAck: false });
        if (!msg) break;
        seen.push(msg);
      }
      return seen.map(describe);
    } finally {
      if (seen.length) {
        // Unacked gets go back in their original order. A nack has no reply: the next call on this channel is one
        // the broker answers only after handling it, so the letters are back when list() returns.
        this.channel.nackAll(true);
        await this.channel.checkQueue(dlq);
      }
    }
  }

  /** Moves up to `limit` dead letters back to the consumer queue; returns how many moved. */
  async replay(limit = Number.MAX_SAFE_INTEGER): Promise<number> {
    const dlq = consumerTopology(this.queue).dlq;
    let moved = 0;
    while (moved < limit) {
      const msg = await this.channel.get(dlq, { noAck: false });
      if (!msg) break;
      const headers = { ...(msg.properties.headers ?? {}) };
      for (const name of FAILURE_HEADERS) delete headers[name];
      this.channel.sendToQueue(this.queue, msg.content, {
        persistent: true,
        contentType: msg.properties.contentType,
        messageId: msg.properties.messageId,
        appId: msg.properties.appId,
        timestamp: msg.properties.timestamp,
        headers,
      });
      await this.channel.waitForConfirms();
      this.channel.ack(msg);
      moved++;
    }
    return moved;
  }

  async close(): Promise<void> {
    await this.channel.close().catch(() => undefined);
    await this.connection.close().catch(() => undefined);
  }
}
