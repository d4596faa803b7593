import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { EventEnvelope } from '@shop/contracts';
import { indexesBuilt, isDuplicateKeyError, Metrics, type Counter } from '@shop/nest-common';
import type { Model, Types } from 'mongoose';
import { NotificationsConfig } from '../config/notifications.config';
import { MailTemplates, type MailKind } from '../mail/mail-templates';
import { Mailer, stableMessageId } from '../mail/mailer';
import type { ComposeSettings, Composed } from './messages';
import { SentMessage } from './sent-message.schema';

/** What happened to one event's email. */
export type DeliveryOutcome = 'sent' | 'duplicate' | 'skipped';

/** Ours (with the record's id), already sent, or held by another delivery right now. */
type Claim = { claimed: Types.ObjectId } | 'sent' | 'busy';

/**
 * Sends the email an event causes, once per event and kind (README "Exactly once?"):
 * claim (insert `sending`, unique on eventId + kind) → SMTP → mark `sent`. A claim that is `sent` means done; a
 * fresh `sending` one belongs to a delivery in progress elsewhere (this one fails and is retried by the bus); one
 * older than the lease was left by a consumer that stopped mid-send, and is taken over (the mail may then go out
 * twice, with the same Message-ID). An SMTP failure gives the claim back and throws: the bus retries with backoff,
 * then dead-letters.
 */
@Injectable()
export class NotificationsService implements OnModuleInit {
  private readonly logger = new Logger(NotificationsService.name);
  private readonly emails: Counter<'kind' | 'outcome'>;
  private readonly skipped: Counter<'event'>;
  readonly settings: ComposeSettings;
  /** A `sending` claim older than this was abandoned: longer than any send can take (its three SMTP steps, twice). */
  private readonly leaseMs: number;

  constructor(
    @InjectModel(SentMessage.name) private readonly sent: Model<SentMessage>,
    private readonly templates: MailTemplates,
    private readonly mailer: Mailer,
    config: NotificationsConfig,
    metrics: Metrics,
  ) {
    this.settings = {
      publicUrl: config.PUBLIC_URL.replace(/\/+$/, ''),
      estimatedDeliveryDays: config.ESTIMATED_DELIVERY_DAYS,
    };
    this.leaseMs = Math.max(60_000, 6 * config.SMTP_TIMEOUT_MS);
    this.emails = metrics.counter(
      'shop_notifications_emails_total',
      'Emails by kind and outcome: sent (handed to SMTP), failed (SMTP refused or unreachable; retried), duplicate (already sent for this event)',
      ['kind', 'outcome'],
    );
    this.skipped = metrics.counter(
      'shop_notifications_events_skipped_total',
      'Events that cause no email (no summary or address, a status without one, malformed data): acknowledged and logged',
      ['event'],
    );
  }

  /** The unique index on {eventId, kind} must exist before the first claim relies on it. */
  async onModuleInit(): Promise<void> {
    await indexesBuilt([this.sent]);
  }

  /** Sends what `compose` makes of the event (or logs why nothing). Throws when it must be retried. */
  async handle(
    event: EventEnvelope,
    compose: (event: EventEnvelope, settings: ComposeSettings) => Composed,
  ): Promise<DeliveryOutcome> {
    const composed = compose(event, { ...this.settings, now: new Date() });
    const log = { eventId: event.eventId, type: event.type };
    if ('skip' in composed) {
      this.skipped.inc({ event: event.type });
      this.logger.warn({ msg: 'event acknowledged without an email', ...log, reason: composed.skip });
      return 'skipped';
    }
    const { kind, to, name, values } = composed.mail;
    // Rendered before the claim: a template that cannot render leaves nothing behind.
    const rendered = this.templates.render(kind, values);
    const messageId = stableMessageId(event.eventId, kind, this.mailer.domain);
    const { subject } = rendered;
    const claim = await this.claim({ eventId: event.eventId, eventType: event.type, kind, to, messageId, subject });
    if (claim === 'sent') {
      this.emails.inc({ kind, outcome: 'duplicate' });
      this.logger.log({ msg: 'email already sent for this event: not sent again', ...log, kind, messageId });
      return 'duplicate';
    }
    if (claim === 'busy')
      throw new Error(`the ${kind} email of event ${event.eventId} is being sent by another delivery`);
    try {
      await this.mailer.send({ ...rendered, to, name, messageId });
    } catch (err) {
      this.emails.inc({ kind, outcome: 'failed' });
      await this.sent.deleteOne({ _id: claim.claimed, state: 'sending' }).catch((e: unknown) =>
        // left as it is, the claim expires after the lease and the retry takes it over
        this.logger.warn({ msg: 'could not give back the claim of a failed email', ...log, kind, err: e }),
      );
      throw new Error(`SMTP: could not send the ${kind} email: ${(err as Error).message}`);
    }
    this.emails.inc({ kind, outcome: 'sent' });
    await this.sent
      .updateOne({ _id: claim.claimed }, { $set: { state: 'sent', sentAt: new Date() } })
      .catch((err: unknown) =>
        // Sent, but still `sending`: a redelivery after the lease would send it again (same Message-ID).
        this.logger.error({ msg: 'email sent but not recorded as sent', ...log, kind, messageId, err }),
      );
    this.logger.log({ msg: 'email sent', ...log, kind, messageId });
    return 'sent';
  }

  private async claim(
    record: Omit<SentMessage, 'state' | 'claimedAt' | 'sentAt'> & { kind: MailKind },
    takeOver = true,
  ): Promise<Claim> {
    try {
      const created = await this.sent.create({ ...record, state: 'sending', claimedAt: new Date() });
      return { claimed: created._id };
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
    const existing = await this.sent.findOne({ eventId: record.eventId, kind: record.kind }).lean();
    if (!existing) return 'busy'; // given back a moment ago: the retry claims it
    if (existing.state === 'sent') return 'sent';
    if (!takeOver || Date.now() - existing.claimedAt.getTime() < this.leaseMs) return 'busy';
    // Only one taker deletes this very claim; the unique index then admits one new claim whatever happens.
    const { deletedCount } = await this.sent.deleteOne({
      _id: existing._id,
      state: 'sending',
      claimedAt: existing.claimedAt,
    });
    if (deletedCount !== 1) return 'busy';
    this.logger.warn({
      msg: 'taking over an abandoned send (its consumer stopped mid-send): the email may arrive twice, with one Message-ID',
      eventId: record.eventId,
      kind: record.kind,
      claimedAt: existing.claimedAt,
    });
    return this.claim(record, false);
  }
}
