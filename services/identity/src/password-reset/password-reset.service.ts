import { BadRequestException, Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { EVENTS, PASSWORD_RESET_MESSAGES, type AuthResponse } from '@shop/contracts';
import { isDuplicateKeyError, outboxEntry, REDIS, TokenRevocations, withRedisLock } from '@shop/nest-common';
import type Redis from 'ioredis';
import { Types, type Model } from 'mongoose';
import { IdentityConfig } from '../config/identity.config';
import { IdentityOutbox, type SealedPasswordResetRequested } from '../outbox/identity-outbox';
import { LoginThrottle } from '../users/login-throttle';
import { hashPassword } from '../users/password';
import { User } from '../users/user.schema';
import { UsersService } from '../users/users.service';
import { PasswordResetThrottle } from './password-reset.throttle';
import { PasswordReset, PasswordResetClaim, type LeanPasswordReset } from './password-reset.schema';
import { hashResetToken, newResetToken, TokenSeal } from './reset-token';

/** How often expired reset records and claims are deleted (FerretDB has no TTL indexes). */
const PURGE_EVERY_MS = 5 * 60_000;

/**
 * "Forgot password?": a single-use, expiring token mailed (by notifications, from our event) to the account's
 * address, which sets a new password and signs in. Identity keeps only the token's hash.
 */
@Injectable()
export class PasswordResetService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(PasswordResetService.name);
  /** Requests being worked on after their 202 went out; awaited at shutdown. */
  private readonly inFlight = new Set<Promise<void>>();
  private purgeTimer?: NodeJS.Timeout;

  constructor(
    @InjectModel(PasswordReset.name) private readonly resets: Model<PasswordReset>,
    @InjectModel(PasswordResetClaim.name) private readonly claims: Model<PasswordResetClaim>,
    @InjectModel(User.name) private readonly users: Model<User>,
    private readonly usersService: UsersService,
    private readonly revocations: TokenRevocations,
    private readonly loginThrottle: LoginThrottle,
    private readonly throttle: PasswordResetThrottle,
    private readonly outbox: IdentityOutbox,
    private readonly seal: TokenSeal,
    private readonly config: IdentityConfig,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  onModuleInit(): void {
    this.purgeTimer = setInterval(() => void this.purgeExpired().catch(() => undefined), PURGE_EVERY_MS);
    this.purgeTimer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.purgeTimer);
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Answers at once, the same for every email: whether an account exists is only looked at after the answer,
   * so neither the body nor the time tells. Only the per-address limit (which says nothing about accounts)
   * refuses here.
   */
  async request(email: string, address: string): Promise<{ message: string }> {
    await this.throttle.consumeAddress(address);
    const work = this.issue(email)
      .catch((err: Error) => this.logger.error(`password reset for a request not issued: ${err.message}`))
      .finally(() => this.inFlight.delete(work));
    this.inFlight.add(work);
    return { message: PASSWORD_RESET_MESSAGES.requested };
  }

  /** Resolves once every request answered so far has been worked on (tests, shutdown). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  private async issue(email: string): Promise<void> {
    if (!(await this.throttle.consumeAccount(email))) return;
    const user = await this.users.findOne({ email }, { name: 1, email: 1 }).lean().exec();
    if (!user) return;
    const token = newResetToken();
    const expiresAt = new Date(Date.now() + this.config.PASSWORD_RESET_TTL_MINUTES * 60_000);
    const _id = new Types.ObjectId();
    const event: SealedPasswordResetRequested = {
      userId: String(user._id),
      name: user.name,
      email: user.email,
      sealedToken: this.seal.seal(token),
      expiresAt: expiresAt.toISOString(),
    };
    await this.resets.create({
      _id,
      tokenHash: hashResetToken(token),
      userId: String(user._id),
      expiresAt,
      outbox: [
        outboxEntry(
          EVENTS.identity.passwordResetRequested,
          event,
          `${EVENTS.identity.passwordResetRequested}:${String(_id)}`,
        ),
      ],
      outboxPending: true,
    });
    this.outbox.relaySoon('resets', String(_id));
  }

  /**
   * Sets the new password and signs in. The token is claimed by inserting its hash under a unique key, so of two
   * concurrent submissions exactly one gets through; the account's resets are serialised by a Redis lock, so a
   * token voided by a reset that just succeeded cannot slip in beside it. Every earlier session is revoked and
   * the account's other tokens deleted.
   */
  async reset(token: string, password: string): Promise<AuthResponse> {
    const tokenHash = hashResetToken(token);
    const found = await this.findLive(tokenHash);
    const passwordHash = await hashPassword(password);
    return withRedisLock(this.redis, `identity:lock:password-reset:${found.userId}`, async () => {
      const record = await this.findLive(tokenHash); // a reset of the account that just finished voided it
      try {
        await this.claims.create({ _id: tokenHash, userId: record.userId, expiresAt: record.expiresAt });
      } catch (err) {
        if (isDuplicateKeyError(err)) throw invalidToken();
        throw err;
      }
      const user = await this.users.findById(record.userId).exec();
      if (!user) throw invalidToken(); // the account was deleted since
      // Sessions issued up to now are void; the token answered below is issued at or after this instant.
      const revokedBefore = Date.now();
      try {
        await this.revocations.revokeBefore(record.userId, revokedBefore);
        await this.users.updateOne({ _id: user._id }, { $set: { passwordHash } }).exec();
        await this.usersService.changed(record.userId); // its updatedAt moved
      } catch (err) {
        // Nothing changed for the customer: the link works again once the failure has passed.
        await this.claims.deleteOne({ _id: tokenHash }).catch(() => undefined);
        throw err;
      }
      await this.resets.deleteMany({ userId: record.userId }).exec();
      await this.loginThrottle.reset(user.email);
      return this.usersService.session(user, Math.max(Date.now(), revokedBefore));
    });
  }

  /** Deletes reset records and claims whose token has expired; resolves to how many went. */
  async purgeExpired(now = new Date()): Promise<number> {
    const [resets, claims] = await Promise.all([
      this.resets.deleteMany({ expiresAt: { $lte: now } }).exec(),
      this.claims.deleteMany({ expiresAt: { $lte: now } }).exec(),
    ]);
    return resets.deletedCount + claims.deletedCount;
  }

  private async findLive(tokenHash: string): Promise<LeanPasswordReset> {
    const record = await this.resets
      .findOne({ tokenHash, expiresAt: { $gt: new Date() } }, { userId: 1, expiresAt: 1 })
      .lean<LeanPasswordReset>()
      .exec();
    if (!record) throw invalidToken();
    return record;
  }
}

function invalidToken(): BadRequestException {
  return new BadRequestException(PASSWORD_RESET_MESSAGES.invalidToken);
}
