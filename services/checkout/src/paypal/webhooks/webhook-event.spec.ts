import { pence, readWebhookEvent, transmissionOf } from './webhook-event';

const CHECKOUT = '65b000000000000000000001';

const capture = (overrides: Record<string, unknown> = {}) => ({
  id: 'WH-1',
  event_type: 'PAYMENT.CAPTURE.COMPLETED',
  create_time: '2026-03-01T10:00:00.000Z',
  resource: {
    id: '2GG279541U471931P',
    status: 'COMPLETED',
    custom_id: CHECKOUT,
    amount: { currency_code: 'GBP', value: '40.00' },
    supplementary_data: { related_ids: { order_id: '5O190127TN364715T' } },
  },
  ...overrides,
});

const refund = (resource: Record<string, unknown> = {}, type = 'PAYMENT.CAPTURE.REFUNDED') => ({
  id: 'WH-2',
  event_type: type,
  create_time: '2026-03-02T10:00:00.000Z',
  resource: {
    id: '1Y107995YT783435V',
    status: 'COMPLETED',
    amount: { currency_code: 'GBP', value: '15.5' },
    create_time: '2026-03-02T09:59:00Z',
    links: [
      { rel: 'self', href: 'https://api.paypal.com/v2/payments/refunds/1Y107995YT783435V', method: 'GET' },
      { rel: 'up', href: 'https://api.paypal.com/v2/payments/captures/2GG279541U471931P', method: 'GET' },
    ],
    ...resource,
  },
});

describe('readWebhookEvent', () => {
  it('a completed or denied capture: the capture, its PayPal order and the checkout of custom_id', () => {
    expect(readWebhookEvent(capture())).toEqual({
      id: 'WH-1',
      type: 'PAYMENT.CAPTURE.COMPLETED',
      capture: {
        captureId: '2GG279541U471931P',
        status: 'COMPLETED',
        paypalOrderId: '5O190127TN364715T',
        checkoutId: CHECKOUT,
      },
    });
    const denied = readWebhookEvent(capture({ event_type: 'PAYMENT.CAPTURE.DENIED' }));
    expect(denied).toMatchObject({ type: 'PAYMENT.CAPTURE.DENIED', capture: { checkoutId: CHECKOUT } });
  });

  it('a custom_id that is not a checkout id is left out (another system’s, or the fake’s mode)', () => {
    const e = readWebhookEvent(capture({ resource: { ...capture().resource, custom_id: 'fake:declined' } }));
    expect(e).toMatchObject({ capture: { captureId: '2GG279541U471931P' } });
    expect((e as { capture: object }).capture).not.toHaveProperty('checkoutId');
  });

  it('a refund or reversal: its id, the capture of its `up` link, pence, currency, when', () => {
    expect(readWebhookEvent(refund())).toEqual({
      id: 'WH-2',
      type: 'PAYMENT.CAPTURE.REFUNDED',
      refund: {
        refundId: '1Y107995YT783435V',
        kind: 'refund',
        captureId: '2GG279541U471931P',
        amountPence: 1550,
        currency: 'GBP',
        at: '2026-03-02T09:59:00.000Z',
      },
    });
    expect(readWebhookEvent(refund({}, 'PAYMENT.CAPTURE.REVERSED'))).toMatchObject({ refund: { kind: 'reversal' } });
  });

  it('ignores, with the reason, what it does not act on or cannot read', () => {
    expect(readWebhookEvent({ id: 'WH-3', event_type: 'CHECKOUT.ORDER.APPROVED' })).toMatchObject({
      type: 'ignored',
      eventType: 'CHECKOUT.ORDER.APPROVED',
    });
    expect(readWebhookEvent(refund({ links: [] }))).toMatchObject({
      type: 'ignored',
      reason: 'the refund names no capture',
    });
    expect(readWebhookEvent(refund({ amount: { currency_code: 'GBP', value: '1.234' } }))).toMatchObject({
      type: 'ignored',
      reason: 'no amount',
    });
    expect(readWebhookEvent(capture({ resource: 'x' }))).toMatchObject({ type: 'ignored', reason: 'no resource' });
    expect(readWebhookEvent(capture({ resource: { id: { $gt: '' } } }))).toMatchObject({ type: 'ignored' });
  });

  it('not an event at all: undefined (a 400)', () => {
    for (const body of [null, [], 'x', 42, {}, { id: 'WH-1' }, { event_type: 'X' }, { id: 'a b', event_type: 'X' }])
      expect(readWebhookEvent(body)).toBeUndefined();
    expect(readWebhookEvent({ id: 'W'.repeat(101), event_type: 'X' })).toBeUndefined();
  });
});

describe('pence', () => {
  it('reads PayPal amounts exactly', () => {
    expect(pence('40.00')).toBe(4000);
    expect(pence('0.1')).toBe(10);
    expect(pence('12')).toBe(1200);
    for (const bad of ['1.234', '-1.00', '1e3', '', ' 1.00', 12, null]) expect(pence(bad)).toBeUndefined();
  });
});

describe('transmissionOf', () => {
  const headers = {
    'paypal-auth-algo': 'SHA256withRSA',
    'paypal-cert-url': 'https://api.paypal.com/v1/notifications/certs/CERT-1',
    'paypal-transmission-id': 't-1',
    'paypal-transmission-sig': 'c2ln',
    'paypal-transmission-time': '2026-03-01T10:00:00Z',
  };
  it('the five headers, or nothing when one is missing or too long', () => {
    expect(transmissionOf(headers)).toEqual({
      auth_algo: 'SHA256withRSA',
      cert_url: 'https://api.paypal.com/v1/notifications/certs/CERT-1',
      transmission_id: 't-1',
      transmission_sig: 'c2ln',
      transmission_time: '2026-03-01T10:00:00Z',
    });
    expect(transmissionOf({ ...headers, 'paypal-transmission-sig': undefined })).toBeUndefined();
    expect(transmissionOf({ ...headers, 'paypal-transmission-sig': 'x'.repeat(2001) })).toBeUndefined();
  });
});
