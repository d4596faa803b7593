import { Counter } from 'prom-client';
import type { Metrics } from './metrics';

/** The collection label of a command that names none: hello, ping, endSessions, saslStart, a database aggregate … */
export const NO_COLLECTION = '$cmd';

/**
 * Label pairs one service may create; past it, commands are counted under `other`. The pairs come from this code
 * base's collections and the driver's command names (a few dozen per service), so only a bug reaches it.
 */
const MAX_SERIES = 500;
const OTHER = 'other';
/** A started command whose end never comes is forgotten once this many are open (the driver ends every one). */
const MAX_IN_FLIGHT = 10_000;

/** The parts of the driver's CommandStartedEvent read here. */
export interface CommandStarted {
  requestId: number;
  commandName: string;
  command: Record<string, unknown>;
}
/** The parts of the driver's CommandSucceededEvent / CommandFailedEvent read here (duration in ms). */
export interface CommandEnded {
  requestId: number;
  duration: number;
}

/** The driver's command monitoring events, as a MongoClient emits them (and a mongoose Connection relays them). */
export interface CommandEvents {
  on(event: 'commandStarted', listener: (e: CommandStarted) => void): unknown;
  on(event: 'commandSucceeded' | 'commandFailed', listener: (e: CommandEnded) => void): unknown;
}

interface Tally {
  readonly labels: { collection: string; op: string };
  commands: number;
  failures: number;
  seconds: number;
}

/**
 * Counts a service's MongoDB commands by collection and operation, from the driver's command monitoring
 * (`monitorCommands: true`), so a change that adds a query shows as a number that does not depend on load:
 *   shop_mongo_commands_total{collection, op}         commands sent (counted when sent)
 *   shop_mongo_command_failures_total{collection, op} those that failed (server error or network)
 *   shop_mongo_command_seconds_total{collection, op}  their summed duration, send to reply (÷ commands = mean)
 * `op` is the command's name (find, insert, update, delete, findAndModify, aggregate, getMore, createIndexes,
 * hello, endSessions, …); `collection` the collection it names (getMore: its cursor's), or `$cmd` for commands that
 * name none.
 *
 * Per command: two Map lookups for its tally (no string built), one Map entry to match its end to it (requestId).
 * The counters are filled from the tallies only when scraped.
 */
export class MongoCommandMetrics {
  private readonly byOp = new Map<string, Map<string, Tally>>();
  private readonly inFlight = new Map<number, Tally>();
  private series = 0;
  private readonly watched = new WeakSet<object>();

  constructor(metrics: Metrics) {
    const tallies = () => this.tallies();
    const counter = (name: string, help: string, value: (t: Tally) => number) => {
      if (metrics.registry.getSingleMetric(name)) throw new Error(`metric ${name} is already registered`);
      return new Counter({
        name,
        help,
        labelNames: ['collection', 'op'] as const,
        registers: [metrics.registry],
        collect() {
          this.reset();
          for (const t of tallies()) this.inc(t.labels, value(t));
        },
      });
    };
    counter(
      'shop_mongo_commands_total',
      'MongoDB commands sent, by collection ($cmd when the command names none) and command name',
      (t) => t.commands,
    );
    counter(
      'shop_mongo_command_failures_total',
      'MongoDB commands that failed (server error or network), by collection and command name',
      (t) => t.failures,
    );
    counter(
      'shop_mongo_command_seconds_total',
      'Summed time from sending a MongoDB command to its reply or failure, by collection and command name',
      (t) => t.seconds,
    );
  }

  /** Counts the commands of `client` (a MongoClient or mongoose Connection opened with monitorCommands: true). */
  watch(client: CommandEvents): void {
    if (this.watched.has(client)) return;
    this.watched.add(client);
    client.on('commandStarted', this.started);
    client.on('commandSucceeded', this.succeeded);
    client.on('commandFailed', this.failed);
  }

  private readonly started = (e: CommandStarted): void => {
    const tally = this.tally(e.commandName, collectionOf(e.commandName, e.command));
    tally.commands++;
    if (this.inFlight.size >= MAX_IN_FLIGHT) this.inFlight.clear();
    this.inFlight.set(e.requestId, tally);
  };

  private readonly succeeded = (e: CommandEnded): void => {
    this.ended(e);
  };

  private readonly failed = (e: CommandEnded): void => {
    const tally = this.ended(e);
    if (tally) tally.failures++;
  };

  private ended(e: CommandEnded): Tally | undefined {
    const tally = this.inFlight.get(e.requestId);
    if (!tally) return undefined;
    this.inFlight.delete(e.requestId);
    tally.seconds += e.duration / 1000;
    return tally;
  }

  private tally(op: string, collection: string): Tally {
    let byCollection = this.byOp.get(op);
    let tally = byCollection?.get(collection);
    if (tally) return tally;
    if (this.series >= MAX_SERIES && !(op === OTHER && collection === OTHER)) return this.tally(OTHER, OTHER);
    if (!byCollection) this.byOp.set(op, (byCollection = new Map()));
    tally = { labels: { collection, op }, commands: 0, failures: 0, seconds: 0 };
    byCollection.set(collection, tally);
    this.series++;
    return tally;
  }

  private *tallies(): Iterable<Tally> {
    for (const byCollection of this.byOp.values()) yield* byCollection.values();
  }
}

/** The collection a command names: its first field's value for the CRUD and index commands, a getMore's `collection`. */
export function collectionOf(op: string, command: Record<string, unknown>): string {
  const named = op === 'getMore' ? command.collection : command[op];
  return typeof named === 'string' && named !== '' ? named : NO_COLLECTION;
}
