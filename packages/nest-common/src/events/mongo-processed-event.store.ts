import { isDuplicateKeyError } from '../database/mongo-errors';
import { Schema, type Connection, type Model } from 'mongoose';
import type { ProcessedEventStore } from './processed-event.store';

export const PROCESSED_EVENTS_COLLECTION = 'processed_events';
const MODEL_NAME = 'ProcessedEvent';

export interface ProcessedEventRecord {
  consumer: string;
  eventId: string;
  type: string;
  processedAt: Date;
}

const processedEventSchema = new Schema<ProcessedEventRecord>(
  {
    consumer: { type: String, required: true },
    eventId: { type: String, required: true },
    type: { type: String, required: true },
    processedAt: { type: Date, required: true },
  },
  // The unique index is created (and awaited) by the store itself, before the first write.
  { collection: PROCESSED_EVENTS_COLLECTION, versionKey: false, autoIndex: false },
);
// Exactly-once rests on this index: on FerretDB no update operator is atomic, a unique index is.
processedEventSchema.index({ consumer: 1, eventId: 1 }, { unique: true, name: 'consumer_1_eventId_1' });

/**
 * Processed-event records in the consuming service's own database (collection `processed_events`,
 * unique on {consumer, eventId}). A duplicate-key error (11000) on insert means "already recorded".
 */
export class MongoProcessedEventStore implements ProcessedEventStore {
  private readonly model: Model<ProcessedEventRecord>;
  private indexes?: Promise<void>;

  constructor(connection: Connection) {
    this.model =
      (connection.models[MODEL_NAME] as Model<ProcessedEventRecord> | undefined) ??
      connection.model<ProcessedEventRecord>(MODEL_NAME, processedEventSchema, PROCESSED_EVENTS_COLLECTION);
  }

  /** Creates the unique index (once). Called by the other methods; call it at boot to fail fast. */
  init(): Promise<void> {
    this.indexes ??= this.model.createIndexes().then(
      () => undefined,
      (err: unknown) => {
        this.indexes = undefined; // let the next call try again
        throw err;
      },
    );
    return this.indexes;
  }

  async has(consumer: string, eventId: string): Promise<boolean> {
    await this.init();
    return (await this.model.exists({ consumer, eventId })) !== null;
  }

  async markProcessed(consumer: string, eventId: string, type: string): Promise<boolean> {
    await this.init();
    try {
      await this.model.create({ consumer, eventId, type, processedAt: new Date() });
      return true;
    } catch (err) {
      // Only the code: FerretDB's duplicate-key errors carry no keyValue/keyPattern.
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }
}
