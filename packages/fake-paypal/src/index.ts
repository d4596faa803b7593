export {
  assertNotProduction,
  DEFAULT_FAKE_PAYPAL_HOST,
  DEFAULT_FAKE_PAYPAL_PORT,
  FakePayPalConfigError,
  readFakePayPalEnv,
} from './config';
export { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET, paypalId, startFakePayPal } from './fake-paypal';
export { fromMinor, SUPPORTED_CURRENCIES, toMinor } from './order-request';
export * from './types';
export {
  crc32,
  DEFAULT_WEBHOOK_ID,
  rawMember,
  signedString,
  WEBHOOK_AUTH_ALGO,
  WEBHOOK_EVENT_TYPES,
  type TransmissionHeaders,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookEventType,
} from './webhooks';
