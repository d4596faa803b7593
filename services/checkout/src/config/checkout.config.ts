import { Transform, Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  Validate,
  ValidatorConstraint,
  type ValidationArguments,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { ServiceConfig } from '@shop/nest-common';

/** The credentials (and webhook id) the fake PayPal accepts by default (packages/fake-paypal). */
const FAKE_CREDENTIALS = ['fake-client-id', 'fake-client-secret', 'FAKEWEBHOOKID'];

/** The webhook id the fake PayPal signs its events for: the default in fake mode. */
export const FAKE_WEBHOOK_ID = 'FAKEWEBHOOKID';

/** The fake approves every payment: production refuses to start with it, or with its credentials. */
@ValidatorConstraint({ name: 'realPayPalInProduction' })
class RealPayPalInProduction implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    const config = args.object as CheckoutConfig;
    if (config.NODE_ENV !== 'production') return true;
    if (args.property === 'PAYPAL_MODE') return value === 'paypal';
    if (args.property === 'PAYPAL_WEBHOOK_ID' && value === undefined) return true;
    return typeof value === 'string' && !FAKE_CREDENTIALS.includes(value);
  }

  defaultMessage(args: ValidationArguments): string {
    return args.property === 'PAYPAL_MODE'
      ? 'PAYPAL_MODE=fake is refused in production: the fake PayPal approves every payment'
      : `${args.property} must be real PayPal credentials in production`;
  }
}

export class CheckoutConfig extends ServiceConfig {
  /** `fake`: our fake PayPal (npm start, tests); `paypal`: PayPal itself (sandbox or live, by PAYPAL_API_BASE). */
  @IsIn(['fake', 'paypal'])
  @Validate(RealPayPalInProduction)
  PAYPAL_MODE: 'fake' | 'paypal' = 'fake';

  /** Where this service reaches PayPal's REST API, e.g. https://api-m.sandbox.paypal.com. */
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'PAYPAL_API_BASE must be an http(s) URL' })
  PAYPAL_API_BASE = 'http://127.0.0.1:8090';

  /** Fake mode: the fake's base URL as a browser reaches it (GET /api/config); default PAYPAL_API_BASE. */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'PAYPAL_PUBLIC_API_BASE must be an http(s) URL' })
  PAYPAL_PUBLIC_API_BASE?: string;

  /** Public: the SPA renders PayPal's buttons with it. */
  @IsString()
  @MinLength(1, { message: 'PAYPAL_CLIENT_ID is required' })
  @Validate(RealPayPalInProduction)
  PAYPAL_CLIENT_ID = 'fake-client-id';

  /** Secret: only this service talks to PayPal with it. */
  @IsString()
  @MinLength(1, { message: 'PAYPAL_CLIENT_SECRET is required' })
  @Validate(RealPayPalInProduction)
  PAYPAL_CLIENT_SECRET = 'fake-client-secret';

  /**
   * The id PayPal gave the shop's webhook (`POST /api/paypal/webhooks`, in the REST app's settings): every event is
   * verified with PayPal for it. Unset in `paypal` mode: the route answers 404 and payments are reconciled only by the
   * sweeper. Fake mode defaults to the fake's id.
   */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' && value.trim() === '' ? undefined : value))
  @Matches(/^[A-Za-z0-9]{1,50}$/, {
    message: 'PAYPAL_WEBHOOK_ID must be 1-50 letters and digits (PayPal’s webhook id)',
  })
  @Validate(RealPayPalInProduction)
  PAYPAL_WEBHOOK_ID?: string;

  /** A PayPal call that takes longer is abandoned: the shopper gets a 503 to retry, never a paid checkout. */
  @Type(() => Number)
  @IsInt()
  @Min(500)
  @Max(60_000)
  PAYPAL_TIMEOUT_MS = 10_000;

  /**
   * How long checkout waits for a stock reservation. Longer than other requests: buyers racing for one product
   * queue on its lock, and each should hear "held" or "sold out" rather than "try again" — yet well inside the
   * gateway's 10 s.
   */
  @Type(() => Number)
  @IsInt()
  @Min(500)
  @Max(60_000)
  RESERVE_TIMEOUT_MS = 8000;

  /** How long stock is held for a checkout that is not paid yet. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(86_400)
  RESERVATION_SECONDS = 15 * 60;

  /** A payment PayPal confirmed but pay left unfinished this long (no order yet, or not paid) is finished by the service. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  FINALIZE_GRACE_MS = 60_000;

  /** How often unfinished payments and expired discount holds are looked for. */
  @Type(() => Number)
  @IsInt()
  @Min(50)
  FINALIZE_SWEEP_MS = 15_000;
}
