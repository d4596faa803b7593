// CLI: `node packages/fake-paypal/dist/main.js` — the fake PayPal for npm start (and anything else that wants it
// as a separate process). Env: FAKE_PAYPAL_PORT (8090), FAKE_PAYPAL_HOST (127.0.0.1), PAYPAL_CLIENT_ID,
// PAYPAL_CLIENT_SECRET, FAKE_PAYPAL_LATENCY_MS, FAKE_PAYPAL_MODE, FAKE_PAYPAL_ALLOW_ANONYMOUS. Refuses
// NODE_ENV=production (exit 1).
import { FakePayPalConfigError, readFakePayPalEnv } from './config';
import { startFakePayPal } from './fake-paypal';
import type { FakePayPalOptions } from './types';

async function main(): Promise<void> {
  let options: FakePayPalOptions;
  try {
    options = readFakePayPalEnv(process.env);
  } catch (err) {
    console.error(err instanceof FakePayPalConfigError ? err.message : err);
    process.exit(1);
  }

  // Signals are handled from the start, so a stop that arrives while the server is still binding is clean too.
  const starting = startFakePayPal(options);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    starting
      .then((fake) => fake.close())
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        console.error('fake PayPal: shutdown failed:', err);
        process.exit(1);
      });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  const fake = await starting;
  console.log(`fake PayPal listening on ${fake.url}`);
}

main().catch((err: unknown) => {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  console.error(`fake PayPal failed to start${code ? ` (${code})` : ''}:`, err instanceof Error ? err.message : err);
  process.exit(1);
});
