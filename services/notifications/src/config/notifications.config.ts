import { Type } from 'class-transformer';
import { IsInt, IsString, Matches, Max, Min, MinLength } from 'class-validator';
import { ServiceConfig } from '@shop/nest-common';

export class NotificationsConfig extends ServiceConfig {
  /** Where mail is handed over: smtp://host:port (STARTTLS when offered), smtps://host:465, user:pass@ when needed. */
  @Matches(/^smtps?:\/\/.+/, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL = 'smtp://127.0.0.1:1025';

  /** The From of every message, e.g. `"Gridiron Store" <no-reply@gridiron.example>`. */
  @IsString()
  @MinLength(3)
  MAIL_FROM = '"Gridiron Store" <no-reply@gridiron.example>';

  /** The shop's address as customers reach it: the links in the emails start with it. */
  @Matches(/^https?:\/\/[^/]+(\/.*)?$/, { message: 'PUBLIC_URL must be an http(s):// URL' })
  PUBLIC_URL = 'http://localhost:8080';

  /** The order confirmation's estimated delivery: this many days after the order was placed. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(90)
  ESTIMATED_DELIVERY_DAYS = 10;

  /** How long one SMTP step (connect, greeting, a command's answer) may take before the send fails and is retried. */
  @Type(() => Number)
  @IsInt()
  @Min(500)
  @Max(120_000)
  SMTP_TIMEOUT_MS = 10_000;

  /**
   * An email waits out an SMTP server that is away for up to 3 minutes (36 runs, 5 s apart) before its event is
   * dead-lettered: the other consumers' 5 runs (20 s) lost every email of a 30-second SMTP restart to the dead-letter
   * queue (the chaos run, scripts/bench/chaos.mjs).
   */
  override EVENT_MAX_ATTEMPTS = 36;
}
