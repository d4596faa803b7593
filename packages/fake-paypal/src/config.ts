// Configuration of the CLI (main.ts) from the environment, read in one place, and the production guard.
import { FAKE_PAYPAL_MODES, isFakePayPalMode, type FakePayPalOptions } from './types';

export const DEFAULT_FAKE_PAYPAL_PORT = 8090;
export const DEFAULT_FAKE_PAYPAL_HOST = '127.0.0.1';

export class FakePayPalConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FakePayPalConfigError';
  }
}

/** Throws when NODE_ENV is production: a fake payment provider must never take real orders. */
export function assertNotProduction(env: Record<string, string | undefined> = process.env): void {
  if (env.NODE_ENV?.trim().toLowerCase() === 'production')
    throw new FakePayPalConfigError(
      'fake PayPal refuses to start with NODE_ENV=production: it approves every payment. ' +
        'In production point PAYPAL_API_BASE at https://api-m.paypal.com and use real PayPal credentials.',
    );
}

function text(env: Record<string, string | undefined>, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function integer(env: Record<string, string | undefined>, name: string, min: number, max: number): number | undefined {
  const raw = text(env, name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max)
    throw new FakePayPalConfigError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  return value;
}

/**
 * The fake's options from the environment: FAKE_PAYPAL_PORT (default 8090), FAKE_PAYPAL_HOST (default 127.0.0.1),
 * PAYPAL_CLIENT_ID / PAYPAL_CLIENT_SECRET (the credentials it accepts; the shop reads the same names),
 * FAKE_PAYPAL_LATENCY_MS (how long `slow` waits), FAKE_PAYPAL_MODE (start mode), FAKE_PAYPAL_ALLOW_ANONYMOUS
 * (`false` to require a token on every Orders call), FAKE_PAYPAL_WEBHOOK_URL (where webhook events go) and
 * PAYPAL_WEBHOOK_ID (the id they are signed for; the shop reads the same name). Refuses NODE_ENV=production.
 */
export function readFakePayPalEnv(env: Record<string, string | undefined> = process.env): FakePayPalOptions {
  assertNotProduction(env);
  const options: FakePayPalOptions = {
    port: integer(env, 'FAKE_PAYPAL_PORT', 0, 65535) ?? DEFAULT_FAKE_PAYPAL_PORT,
    host: text(env, 'FAKE_PAYPAL_HOST') ?? DEFAULT_FAKE_PAYPAL_HOST,
  };
  const clientId = text(env, 'PAYPAL_CLIENT_ID');
  const clientSecret = text(env, 'PAYPAL_CLIENT_SECRET');
  if (clientId !== undefined) options.clientId = clientId;
  if (clientSecret !== undefined) options.clientSecret = clientSecret;
  const latencyMs = integer(env, 'FAKE_PAYPAL_LATENCY_MS', 0, 600_000);
  if (latencyMs !== undefined) options.latencyMs = latencyMs;
  const mode = text(env, 'FAKE_PAYPAL_MODE');
  if (mode !== undefined) {
    if (!isFakePayPalMode(mode))
      throw new FakePayPalConfigError(
        `FAKE_PAYPAL_MODE must be one of ${FAKE_PAYPAL_MODES.join(', ')} (got "${mode}")`,
      );
    options.mode = mode;
  }
  const webhookUrl = text(env, 'FAKE_PAYPAL_WEBHOOK_URL');
  if (webhookUrl !== undefined) {
    if (!/^https?:\/\/\S+$/.test(webhookUrl))
      throw new FakePayPalConfigError(`FAKE_PAYPAL_WEBHOOK_URL must be an http(s) URL (got "${webhookUrl}")`);
    options.webhookUrl = webhookUrl;
  }
  const webhookId = text(env, 'PAYPAL_WEBHOOK_ID');
  if (webhookId !== undefined) {
    if (!/^[A-Za-z0-9]{1,50}$/.test(webhookId))
      throw new FakePayPalConfigError(`PAYPAL_WEBHOOK_ID must be 1-50 letters and digits (got "${webhookId}")`);
    options.webhookId = webhookId;
  }
  const anonymous = text(env, 'FAKE_PAYPAL_ALLOW_ANONYMOUS')?.toLowerCase();
  if (anonymous !== undefined) {
    if (!['true', 'false', '1', '0'].includes(anonymous))
      throw new FakePayPalConfigError(`FAKE_PAYPAL_ALLOW_ANONYMOUS must be true or false (got "${anonymous}")`);
    options.allowAnonymous = anonymous === 'true' || anonymous === '1';
  }
  return options;
}
