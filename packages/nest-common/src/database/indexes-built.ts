import { Logger } from '@nestjs/common';
import { mongo } from 'mongoose';

/** How long a start waits, by default, for the indexes a new version declares to be built over existing data. */
export const INDEX_BUILD_WAIT_MS = 120_000;

/** What is asked of a model: mongoose's `init` (its collection, then its indexes) and `ensureIndexes`. */
export interface IndexedModel {
  readonly modelName: string;
  init(): Promise<unknown>;
  ensureIndexes(): Promise<unknown>;
}

const logger = new Logger('Indexes');

/**
 * Resolves once the models' declared indexes exist, before a service relies on them (a unique key it writes by).
 * Building a new index over a big collection takes the server longer than a command's socket timeout (2.5 s in the
 * services): the server goes on building it, so the indexes are asked for again until they are there, for up to
 * `withinMs`. Any other failure, or a time-out past that, is thrown: the service does not start.
 */
export async function indexesBuilt(models: readonly IndexedModel[], withinMs = INDEX_BUILD_WAIT_MS): Promise<void> {
  const deadline = Date.now() + withinMs;
  // mongoose keeps init's first promise, rejected or not: later rounds ask for the indexes themselves
  let ask = (m: IndexedModel) => m.init();
  for (;;) {
    try {
      await Promise.all(models.map((m) => ask(m)));
      return;
    } catch (err) {
      if (!(err instanceof mongo.MongoNetworkTimeoutError) || Date.now() >= deadline) throw err;
      logger.warn({
        msg: 'indexes still being built: asking again',
        models: models.map((m) => m.modelName),
        err: err.message,
      });
      ask = (m) => m.ensureIndexes();
    }
  }
}
