import { randomUUID } from 'node:crypto';
import { Schema, type Model } from 'mongoose';
import type { EventBus } from './event-bus';
import type { EventBusLogger } from './event-bus.types';
import { errorText } from './event-consumer';

/**
 * An event waiting in its document's outbox: written in the same single-document write as the fact it
 * announces, so the fact and its event are stored together or not at all (no multi-document
 * transactions: docs/decisions/0003-outbox-and-inboxes.md), then relayed to the broker until it confirms.
 */
export interface OutboxEntry<T = unknown> {
  /** Kept through every relay attempt: consumers dedupe on it. */
  eventId: string;
  type: string;
  data: T;
  occurredAt: Date;
  /** Set once the broker confirmed it. */
  publishedAt?: Date | null;
}

/** The sub-document schema; a document carries `outbox: [OutboxEntrySchema]` and `outboxPending: boolean`. */
export const OutboxEntrySchema = new Schema<OutboxEntry>(
  {
    eventId: { type: String, required: true },
    type: { type: String, required: true },
    data: { type: Schema.Types.Mixed, required: true },
    occurredAt: { type: Date, required: true },
    publishedAt: { type: Date, default: null },
  },
  { _id: false, minimize: false },
);

/** Rounds of read-and-mark before a relay leaves its entries pending (each lost round is another write). */
const MARK_ATTEMPTS = 5;

/**
 * The conditional update that marks `eventIds` published in an outbox read as `outbox`: the filter pins the read
 * (its length, and the eventId at each position marked), the set writes each `publishedAt` and `outboxPending`.
 * Undefined when none of them is pending in it.
 */
export function publishedMark(
  id: unknown,
  outbox: OutboxEntry[],
  eventIds: string[],
  at: Date,
): { filter: Record<string, unknown>; set: Record<string, unknown> } | undefined {
  const filter: Record<string, unknown> = { _id: id, outbox: { $size: outbox.length } };
  const set: Record<string, unknown> = {};
  let pending = false;
  outbox.forEach((entry, i) => {
    if (entry.publishedAt) return;
    if (!eventIds.includes(entry.eventId)) {
      pending = true;
      return;
    }
    filter[`outbox.${i}.eventId`] = entry.eventId;
    set[`outbox.${i}.publishedAt`] = at;
  });
  if (!Object.keys(set).length) return undefined;
  set.outboxPending = pending;
  return { filter, set };
}

/**
 * A filter that finds a document's outbox still as it was read (`seen`): the same length, each entry's eventId at its
 * position, and the entries unpublished then still unpublished. An owner that rewrites its outbox from a read (to
 * drop published entries, say) writes with it: a relay's mark made meanwhile then makes the write miss — read again
 * and write again — rather than be undone (an entry published twice). An owner that only appends uses `$push`.
 */
export function outboxAsRead(seen: OutboxEntry[]): Record<string, unknown> {
  const filter: Record<string, unknown> = { outbox: { $size: seen.length } };
  seen.forEach((entry, i) => {
    filter[`outbox.${i}.eventId`] = entry.eventId;
    if (!entry.publishedAt) filter[`outbox.${i}.publishedAt`] = null;
  });
  return filter;
}

/** A new entry for a document's outbox; pass a stable `eventId` when the fact can only happen once. */
export function outboxEntry<T>(type: string, data: T, eventId: string = randomUUID()): OutboxEntry<T> {
  return { eventId, type, data, occurredAt: new Date(), publishedAt: null };
}

/** What the relay needs of a document. */
export interface OutboxDocument {
  _id: unknown;
  outbox?: OutboxEntry[];
  outboxPending?: boolean;
}

export interface OutboxRelayOptions {
  /** The collection whose documents carry an outbox (`outbox` + an indexed `outboxPending`). */
  model: Model<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  bus: EventBus;
  logger: EventBusLogger;
  /** How often documents with unpublished entries are looked for; default 5000 ms. */
  intervalMs?: number;
  /** Documents relayed per sweep; default 100. */
  batchSize?: number;
  /**
   * What an entry publishes: its `data` unless given. For an event that carries a secret the document must not
   * hold in the clear (it keeps it sealed, and this opens it on the way to the broker).
   */
  payload?: (entry: OutboxEntry) => unknown;
}

/**
 * Relays outbox entries to the event bus: at once after the owner's write (`relay(id)`), and by a
 * periodic sweep for whatever that missed (broker down, a crash between the write and the publish).
 *
 * At least once: an entry is marked published only after the broker confirmed it, so a crash in
 * between publishes it again, with the same eventId, which consumers dedupe. Safe on every replica.
 */
export class OutboxRelay {
  private readonly intervalMs: number;
  private readonly batchSize: number;
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<number>;
  private failing = false;
  /** Per document: the relay running (tail) and the one waiting to start after it, which later callers join. */
  private readonly relays = new Map<string, { tail: Promise<number>; queued?: Promise<number> }>();

  constructor(private readonly options: OutboxRelayOptions) {
    this.intervalMs = options.intervalMs ?? 5000;
    this.batchSize = options.batchSize ?? 100;
  }

  /**
   * Publishes the document's unpublished entries; resolves to how many were published now. Relays of one
   * document run one after the other in this process: two that overlapped (a write's own relay and the
   * sweep, certain while the broker is away) would both read the same entries as pending and publish them
   * twice. A relay asked for while another waits to start joins it: it has not read the document yet.
   *
   * `created`: the entries of a document this caller has just inserted, which therefore holds no others. When
   * no relay of it is running or waiting here (the sweep may have found it already), they are published without
   * reading the document back; else this is an ordinary relay.
   */
  relay(id: string, created?: OutboxEntry[]): Promise<number> {
    const fresh = created && !this.relays.has(id) ? created : undefined;
    const slot = this.relays.get(id) ?? { tail: Promise.resolve(0) };
    if (slot.queued) return slot.queued;
    const run: Promise<number> = slot.tail
      .catch(() => 0)
      .then(() => {
        if (slot.queued === run) slot.queued = undefined; // reading now: later callers must wait for this one
        return this.relayOnce(id, fresh);
      })
      .finally(() => {
        if (slot.tail === run) this.relays.delete(id);
      });
    slot.tail = run;
    slot.queued = run;
    this.relays.set(id, slot);
    return run;
  }

  private async relayOnce(id: string, created?: OutboxEntry[]): Promise<number> {
    const outbox =
      created ?? (await this.options.model.findById(id, { outbox: 1 }).lean<OutboxDocument>().exec())?.outbox;
    if (!outbox) return 0;
    const pending = (outbox ?? []).filter((e) => !e.publishedAt);
    if (!pending.length) return 0;
    const published: string[] = [];
    const metrics = this.options.bus.metrics;
    try {
      for (const entry of pending) {
        await this.options.bus.publish(entry.type, this.options.payload ? this.options.payload(entry) : entry.data, {
          eventId: entry.eventId,
          occurredAt: entry.occurredAt,
        });
        published.push(entry.eventId);
        metrics?.outboxRelayed.inc({ collection: this.collection });
      }
    } catch (err) {
      metrics?.outboxFailures.inc({ collection: this.collection });
      throw err;
    } finally {
      if (published.length) await this.markPublished(id, published, outbox);
    }
    return published.length;
  }

  /** Relays every document with unpublished entries (one batch); resolves to how many entries went out. */
  sweep(): Promise<number> {
    this.sweeping ??= this.sweepOnce().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  /** Starts the periodic sweep. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.sweep().catch(() => undefined), this.intervalMs);
    this.timer.unref();
  }

  /** Stops the sweep and waits for a running one. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.sweeping?.catch(() => undefined);
  }

  private async sweepOnce(): Promise<number> {
    const docs = await this.options.model
      .find({ outboxPending: true }, { _id: 1 })
      .limit(this.batchSize)
      .lean<OutboxDocument[]>()
      .exec();
    let relayed = 0;
    for (const doc of docs) {
      try {
        relayed += await this.relay(String(doc._id));
        if (this.failing) this.options.logger.info({ collection: this.collection }, 'outbox relay recovered');
        this.failing = false;
      } catch (err) {
        // The broker is away: the rest of the batch would fail the same way. Try again next sweep.
        if (!this.failing)
          this.options.logger.warn(
            { collection: this.collection, id: String(doc._id), err: errorText(err) },
            'outbox relay failed; retrying until the broker confirms',
          );
        this.failing = true;
        break;
      }
    }
    return relayed;
  }

  /**
   * Marks the entries published, without a lock: one conditional update of the outbox as it was read — the same
   * length (nothing appended or dropped since) and each entry still at its position — that sets their `publishedAt`
   * and `outboxPending` (whether any other entry still waits). Atomic per document in MongoDB (and our FerretDB
   * build), so it never overwrites an entry another write appended: when the outbox changed meanwhile, the update
   * matches nothing, and the outbox is read again and marked again. `seen`: the outbox as this relay read it.
   */
  private async markPublished(id: string, eventIds: string[], seen: OutboxEntry[]): Promise<void> {
    const at = new Date();
    let outbox: OutboxEntry[] | undefined = seen;
    for (let attempt = 0; outbox && attempt < MARK_ATTEMPTS; attempt++) {
      const mark = publishedMark(id, outbox, eventIds, at);
      if (!mark) return; // none of them is in the outbox any more (the owner dropped them)
      const res = await this.options.model
        // Bookkeeping, not a change to the document itself: its updatedAt stays.
        .updateOne(mark.filter, { $set: mark.set }, { timestamps: false })
        .exec();
      if (res.matchedCount === 1) return;
      outbox = (await this.options.model.findById(id, { outbox: 1 }).lean<OutboxDocument>().exec())?.outbox;
    }
    if (outbox)
      // Left pending: the sweep publishes them again, with the same eventIds, which consumers dedupe.
      this.options.logger.warn({ collection: this.collection, id }, 'outbox entries not marked published: busy');
  }

  private get collection(): string {
    return this.options.model.collection.collectionName;
  }
}
