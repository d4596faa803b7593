import { formatAmount, parseAmount, verifyPayPalOrder, verifyPayPalRefund } from './paypal-verification';

/** A PayPal order as GET /v2/checkout/orders/{id} shows it once captured. */
function order(overrides: { status?: string; unitAmount?: object | null; captures?: object[] } = {}) {
  return {
    id: 'ORDER123',
    status: overrides.status ?? 'COMPLETED',
    purchase_units: [
      {
        ...(overrides.unitAmount === null
          ? {}
          : { amount: overrides.unitAmount ?? { currency_code: 'GBP', value: '49.98' } }),
        payments: {
          captures: overrides.captures ?? [
            {
              id: 'CAPTURE1',
              status: 'COMPLETED',
              amount: { currency_code: 'GBP', value: '49.98' },
              create_time: '2026-11-23T10:00:00Z',
            },
          ],
        },
      },
    ],
    payer: { email_address: 'buyer@example.com', payer_id: 'PAYER1', name: { given_name: 'Not kept' } },
  };
}

describe('verifyPayPalOrder', () => {
  it('accepts a completed order whose completed capture is exactly the total in GBP, keeping only sanitised details', () => {
    expect(verifyPayPalOrder(order(), { pence: 4998 })).toEqual({
      ok: true,
      details: {
        provider: 'paypal',
        id: 'ORDER123',
        status: 'COMPLETED',
        captureId: 'CAPTURE1',
        captureStatus: 'COMPLETED',
        amount: '49.98',
        currency: 'GBP',
        payerEmail: 'buyer@example.com',
        payerId: 'PAYER1',
        capturedAt: '2026-11-23T10:00:00Z',
      },
    });
  });

  it('accepts the capture answer, which states no purchase-unit amount', () => {
    expect(verifyPayPalOrder(order({ unitAmount: null }), { pence: 4998 }).ok).toBe(true);
  });

  it.each([
    ['an order not completed', order({ status: 'APPROVED' })],
    [
      'a declined capture in a completed order',
      order({ captures: [{ id: 'C', status: 'DECLINED', amount: { currency_code: 'GBP', value: '49.98' } }] }),
    ],
    ['no capture', order({ captures: [] })],
    [
      'a capture 1p short',
      order({ captures: [{ id: 'C', status: 'COMPLETED', amount: { currency_code: 'GBP', value: '49.97' } }] }),
    ],
    [
      'a capture 1p over',
      order({ captures: [{ id: 'C', status: 'COMPLETED', amount: { currency_code: 'GBP', value: '49.99' } }] }),
    ],
    [
      'a capture in dollars',
      order({ captures: [{ id: 'C', status: 'COMPLETED', amount: { currency_code: 'USD', value: '49.98' } }] }),
    ],
    ['an order amount that differs', order({ unitAmount: { currency_code: 'GBP', value: '0.01' } })],
    ['an order in another currency', order({ unitAmount: { currency_code: 'EUR', value: '49.98' } })],
    [
      'an amount that is not two decimals',
      order({ captures: [{ id: 'C', status: 'COMPLETED', amount: { currency_code: 'GBP', value: '49.980' } }] }),
    ],
    [
      'a numeric amount',
      order({ captures: [{ id: 'C', status: 'COMPLETED', amount: { currency_code: 'GBP', value: 49.98 } }] }),
    ],
    ['two purchase units', { ...order(), purchase_units: [order().purchase_units[0], order().purchase_units[0]] }],
    ['nothing at all', null],
  ])('refuses %s', (_what, paypalOrder) => {
    expect(verifyPayPalOrder(paypalOrder, { pence: 4998 })).toEqual({ ok: false, reason: expect.any(String) });
  });

  it('adds up several completed captures and ignores declined ones', () => {
    const split = order({
      captures: [
        { id: 'C1', status: 'COMPLETED', amount: { currency_code: 'GBP', value: '40.00' } },
        { id: 'C2', status: 'DECLINED', amount: { currency_code: 'GBP', value: '9.98' } },
        { id: 'C3', status: 'COMPLETED', amount: { currency_code: 'GBP', value: '9.98' } },
      ],
    });
    expect(verifyPayPalOrder(split, { pence: 4998 })).toEqual(
      expect.objectContaining({ ok: true, details: expect.objectContaining({ captureId: 'C1', amount: '49.98' }) }),
    );
  });
});

describe('amounts', () => {
  it('formats pence as PayPal wants them and reads them back exactly', () => {
    expect([1, 10, 1999, 4998, 100000].map(formatAmount)).toEqual(['0.01', '0.10', '19.99', '49.98', '1000.00']);
    expect(['0.01', '0.10', '19.99', '49.98', '1000.00'].map(parseAmount)).toEqual([1, 10, 1999, 4998, 100000]);
    expect(['1', '1.5', '-1.00', '1e2', '', ' 1.00'].map(parseAmount)).toEqual([null, null, null, null, null, null]);
  });
});

describe('verifyPayPalRefund', () => {
  /** The order as GET shows it after a refund of CAPTURE1. */
  const refunded = (refund: object = {}, captureStatus = 'REFUNDED') => ({
    ...order({
      captures: [{ id: 'CAPTURE1', status: captureStatus, amount: { currency_code: 'GBP', value: '49.98' } }],
    }),
    purchase_units: [
      {
        amount: { currency_code: 'GBP', value: '49.98' },
        payments: {
          captures: [{ id: 'CAPTURE1', status: captureStatus, amount: { currency_code: 'GBP', value: '49.98' } }],
          refunds: [
            { id: 'REFUND1', status: 'COMPLETED', amount: { currency_code: 'GBP', value: '49.98' }, ...refund },
          ],
        },
      },
    ],
  });
  const expected = { refundId: 'REFUND1', captureId: 'CAPTURE1', pence: 4998 };

  it('accepts the whole capture refunded in GBP, the capture REFUNDED', () => {
    expect(verifyPayPalRefund(refunded(), expected)).toEqual({ ok: true, amountPence: 4998, currency: 'GBP' });
  });

  it("accepts a return's partial refund of exactly its amount, the capture PARTIALLY_REFUNDED (or REFUNDED once none remains)", () => {
    const part = refunded({ amount: { currency_code: 'GBP', value: '18.00' } }, 'PARTIALLY_REFUNDED');
    const partial = { ...expected, pence: 1800, partial: true };
    expect(verifyPayPalRefund(part, partial)).toEqual({ ok: true, amountPence: 1800, currency: 'GBP' });
    expect(
      verifyPayPalRefund(refunded({ amount: { currency_code: 'GBP', value: '18.00' } }, 'REFUNDED'), partial),
    ).toMatchObject({ ok: true });
    expect(verifyPayPalRefund(part, { ...partial, pence: 1799 })).toMatchObject({ ok: false });
    expect(
      verifyPayPalRefund(refunded({ amount: { currency_code: 'GBP', value: '18.00' } }, 'COMPLETED'), partial),
    ).toMatchObject({
      ok: false,
      reason: 'capture status COMPLETED after a completed refund',
    });
    // Not partial: a refund of part of the capture is no cancellation's refund.
    expect(verifyPayPalRefund(part, { ...expected, pence: 1800 })).toMatchObject({ ok: false });
  });

  it('accepts a PENDING refund of the whole amount while the capture still reads COMPLETED', () => {
    expect(verifyPayPalRefund(refunded({ status: 'PENDING' }, 'COMPLETED'), expected)).toMatchObject({ ok: true });
  });

  it.each<[string, unknown, Partial<typeof expected>?]>([
    ['no such refund', refunded({ id: 'OTHER' })],
    ['a FAILED refund', refunded({ status: 'FAILED' })],
    ['a CANCELLED refund', refunded({ status: 'CANCELLED' })],
    ['a part of the amount', refunded({ amount: { currency_code: 'GBP', value: '10.00' } })],
    ['another currency', refunded({ amount: { currency_code: 'USD', value: '49.98' } })],
    ['a completed refund on a capture not REFUNDED', refunded({}, 'PARTIALLY_REFUNDED')],
    ['another capture', refunded(), { captureId: 'CAPTURE2' }],
    ['nothing PayPal would answer', 'not an order'],
    ['no order at all', undefined],
  ])('refuses %s', (_what, raw, overrides = {}) => {
    expect(verifyPayPalRefund(raw, { ...expected, ...overrides })).toMatchObject({
      ok: false,
      reason: expect.any(String),
    });
  });
});
