import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { AdminUserListQuery, PublicUser } from '@shop/contracts';
import { REDIS } from '@shop/nest-common';
import type Redis from 'ioredis';
import type { Model } from 'mongoose';
import { IdentityConfig } from '../config/identity.config';
import { ascending, pageOf, rowOf, type UserRow } from './user-list';
import { toPublicUser, User } from './user.schema';

/** Changes a replica can fall behind by and still catch up from the log. */
export const USER_CHANGE_LOG_LENGTH = 10_000;
/** More users changed than this since the copy's version: one full load beats as many lookups. */
const RELOAD_ABOVE = 200;
/**
 * Documents per batch of a full load: each batch is one round trip that must answer within the driver's socket
 * timeout (2.5 s) even on a busy development box, where FerretDB decodes every document in Go.
 */
const LOAD_BATCH = 250;
/** How long paged reads skip the version after reading it failed (they go to the database meanwhile). */
const VERSION_RETRY_MS = 1000;
/** How often changes Redis could not take are offered again. */
const RECORD_RETRY_MS = 1000;

/** The Redis keys of identity's user change feed (see UserDirectory). */
export function userFeedKeysOf(namespace: string): { version: string; log: string } {
  return { version: `${namespace}identity:users:version`, log: `${namespace}identity:users:changes` };
}

/** INCR the version, log the user id under it, keep the last ARGV[2] versions. */
const RECORD = `
local v = redis.call('incr', KEYS[1])
redis.call('zadd', KEYS[2], v, v .. ' ' .. ARGV[1])
redis.call('zremrangebyscore', KEYS[2], '-inf', v - tonumber(ARGV[2]))
return v`;

/**
 * The users, in this replica's memory, for the paged admin list. On the development FerretDB a search, a sort,
 * a skip or a count reads and decodes the whole users collection per query (only `_id` and plain equalities reach
 * SQLite: docs/performance.md, "Admin lists"), which measured p99 ≈ 5 s at 10,000 users; here a page is a walk
 * over a sorted array.
 *
 * Identity owns the data and may run as several replicas, so every write to a user (register, admin create, edit,
 * delete, a password reset) records the user's id after the database write, before it answers, in its own Redis
 * change feed: the counter `<ns>identity:users:version` goes up and `<version> <userId>` joins the sorted set
 * `<ns>identity:users:changes` (the last 10,000). Each paged read reads the counter and, when it moved, reloads
 * the users the log names by `_id` (or everything, after a gap or a version that went back). So a write that
 * finished before a request arrived shows in it, on every replica. The copy is loaded at the first paged read; while
 * Redis is unreachable paged reads load every user from the database (slow, never stale), and the copy is dropped:
 * it is loaded again once the version can be read.
 */
@Injectable()
export class UserDirectory {
  private readonly logger = new Logger(UserDirectory.name);
  private readonly keys: { version: string; log: string };
  private rows?: Map<string, UserRow>;
  private at = 0;
  private readonly sorted = new Map<string, UserRow[]>();
  private queue: Promise<unknown> = Promise.resolve();
  private versionUnreadableUntil = 0;
  /** Users written while Redis could not record it (see changed). */
  private readonly unrecorded = new Set<string>();
  private retry?: NodeJS.Timeout;

  constructor(
    @InjectModel(User.name) private readonly users: Model<User>,
    @Inject(REDIS) private readonly redis: Redis,
    config: IdentityConfig,
  ) {
    this.keys = userFeedKeysOf(config.RABBITMQ_NAMESPACE);
  }

  /**
   * A user was written (created, changed or deleted): call after the database write, before answering. While
   * Redis is unreachable the id waits in this process and is recorded as soon as Redis answers again (every
   * second), so that the write does not wait on Redis; the replicas meanwhile answer paged reads from the
   * database, and drop their copies (see current).
   */
  async changed(userId: string): Promise<void> {
    this.unrecorded.add(userId);
    await this.record();
  }

  private async record(): Promise<void> {
    if (this.redis.status !== 'ready') return this.recordLater();
    try {
      for (const id of [...this.unrecorded]) {
        await this.redis.eval(RECORD, 2, this.keys.version, this.keys.log, id, USER_CHANGE_LOG_LENGTH);
        this.unrecorded.delete(id);
      }
    } catch (err) {
      this.logger.warn(`user changes not recorded yet (${this.unrecorded.size}): ${(err as Error).message}`);
      this.recordLater();
    }
  }

  private recordLater(): void {
    if (this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.record();
    }, RECORD_RETRY_MS);
    this.retry.unref();
  }

  async page(query: AdminUserListQuery): Promise<{ total: number; users: PublicUser[] }> {
    const rows = await this.current();
    const field = query.sort.field;
    let sorted = rows ? this.sorted.get(field) : undefined;
    if (!sorted) {
      sorted = [...(rows ?? (await this.loadAll())).values()].sort(ascending(field));
      if (rows) this.sorted.set(field, sorted);
    }
    return pageOf(sorted, query);
  }

  private async current(): Promise<Map<string, UserRow> | undefined> {
    if (Date.now() < this.versionUnreadableUntil || this.redis.status !== 'ready') {
      this.rows = undefined;
      return undefined;
    }
    let version: number;
    try {
      version = Number((await this.redis.get(this.keys.version)) ?? 0);
    } catch {
      this.versionUnreadableUntil = Date.now() + VERSION_RETRY_MS;
      // Writes made meanwhile may never reach the log (a replica that stopped before Redis came back): the copy
      // is loaded again once the version can be read.
      this.rows = undefined;
      return undefined;
    }
    if (this.rows && version === this.at) return this.rows;
    const caughtUp = this.queue.then(() => this.catchUp(version));
    this.queue = caughtUp.catch(() => undefined);
    return caughtUp;
  }

  private async catchUp(version: number): Promise<Map<string, UserRow>> {
    let rows = this.rows;
    if (rows && version === this.at) return rows;
    const ids = rows && version > this.at ? await this.changedSince(this.at, version) : undefined;
    if (rows && ids && ids.size <= RELOAD_ABOVE) {
      const found = await Promise.all([...ids].map((id) => this.users.findById(id).lean().exec()));
      for (const [i, id] of [...ids].entries()) {
        const doc = found[i];
        if (doc) rows.set(id, rowOf(toPublicUser(doc as User & { _id: unknown })));
        else rows.delete(id);
      }
    } else {
      rows = await this.loadAll();
    }
    this.rows = rows;
    this.at = version;
    this.sorted.clear();
    return rows;
  }

  /** The ids the log names for versions `from + 1 … to`; undefined when it does not hold them all. */
  private async changedSince(from: number, to: number): Promise<Set<string> | undefined> {
    const members = await this.redis.zrangebyscore(this.keys.log, `(${from}`, to);
    if (members.length !== to - from) return undefined;
    return new Set(members.map((m) => m.slice(m.indexOf(' ') + 1)));
  }

  private async loadAll(): Promise<Map<string, UserRow>> {
    const started = Date.now();
    const rows = new Map<string, UserRow>();
    const cursor = this.users.find({}, { passwordHash: 0 }).lean().cursor({ batchSize: LOAD_BATCH });
    for await (const doc of cursor) {
      const row = rowOf(toPublicUser(doc as User & { _id: unknown }));
      rows.set(row.id, row);
    }
    this.logger.log(`admin list loaded: ${rows.size} users in ${Date.now() - started} ms`);
    return rows;
  }
}
