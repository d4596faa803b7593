import { createHash } from 'node:crypto';
import { Injectable, OnModuleDestroy } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { NotificationsConfig } from '../config/notifications.config';
import type { RenderedMail } from './mail-templates';

export interface OutgoingMail extends RenderedMail {
  to: string;
  name: string;
  messageId: string;
}

/** The domain of MAIL_FROM's address (`no-reply@gridiron.example` → `gridiron.example`), for Message-IDs. */
export function senderDomain(from: string): string {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  return address.split('@')[1]?.trim().toLowerCase() || 'localhost';
}

/**
 * The Message-ID of the email an event causes: the same for every delivery of that event, so a mail sent twice
 * (the crash window between sending and recording it, README "Exactly once?") is the same message to a mail system
 * that collapses duplicates (Gmail does, Mailpit with --ignore-duplicate-ids).
 */
export function stableMessageId(eventId: string, kind: string, domain: string): string {
  const digest = createHash('sha256').update(`${kind}\u0000${eventId}`).digest('hex').slice(0, 32);
  return `<${kind}.${digest}@${domain}>`;
}

/** SMTP_URL without its password, for logs. */
export function redactSmtpUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(invalid SMTP_URL)';
  }
}

/**
 * nodemailer over SMTP (SMTP_URL), one connection per message: nothing to go stale while the server is away, and
 * a send fails within SMTP_TIMEOUT_MS per step when it does not answer.
 */
@Injectable()
export class Mailer implements OnModuleDestroy {
  private readonly transport: Transporter<SMTPTransport.SentMessageInfo>;
  readonly from: string;
  readonly domain: string;

  constructor(config: NotificationsConfig) {
    this.from = config.MAIL_FROM;
    this.domain = senderDomain(config.MAIL_FROM);
    this.transport = nodemailer.createTransport({
      url: config.SMTP_URL,
      connectionTimeout: config.SMTP_TIMEOUT_MS,
      greetingTimeout: config.SMTP_TIMEOUT_MS,
      socketTimeout: config.SMTP_TIMEOUT_MS,
    } as SMTPTransport.Options);
  }

  /** Hands the message to the SMTP server; rejects when it is unreachable or refuses it. */
  async send(mail: OutgoingMail): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: mail.name ? { name: mail.name, address: mail.to } : mail.to,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      messageId: mail.messageId,
    });
  }

  onModuleDestroy(): void {
    this.transport.close();
  }
}
