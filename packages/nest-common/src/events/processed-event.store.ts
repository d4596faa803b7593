/**
 * Remembers which events a consumer has already handled, so that a redelivered event
 * (broker restart, consumer crash before the ack, a publisher retry with the same eventId)
 * is acknowledged without running its handler again.
 */
export interface ProcessedEventStore {
  /** True when `consumer` already handled the event with this id. */
  has(consumer: string, eventId: string): Promise<boolean>;
  /**
   * Records the event as handled. Resolves `true` when this call recorded it and `false`
   * when it was already recorded (never throws for a duplicate).
   */
  markProcessed(consumer: string, eventId: string, type: string): Promise<boolean>;
}

/** For unit tests only: forgets everything when the process ends. */
export class InMemoryProcessedEventStore implements ProcessedEventStore {
  private readonly seen = new Set<string>();

  async has(consumer: string, eventId: string): Promise<boolean> {
    return this.seen.has(key(consumer, eventId));
  }

  async markProcessed(consumer: string, eventId: string): Promise<boolean> {
    const k = key(consumer, eventId);
    if (this.seen.has(k)) return false;
    this.seen.add(k);
    return true;
  }

  get size(): number {
    return this.seen.size;
  }
}

function key(consumer: string, eventId: string): string {
  return `${consumer}\u0000${eventId}`;
}
