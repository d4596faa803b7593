import { DISCOUNT_MESSAGES } from '@shop/contracts';
import fc from 'fast-check';
import { customerLimitOf, discountPence, statusOf, termsRefusal, type DiscountTerms } from './discount-rules';
import { hasAtMostTwoDecimals } from './dto/discount-code.dto';

const terms = (over: Partial<DiscountTerms> = {}): DiscountTerms => ({
  type: 'percent',
  percent: 10,
  minSubtotalPence: null,
  startsAt: null,
  endsAt: null,
  usageLimit: null,
  perCustomerLimit: null,
  firstOrderOnly: false,
  active: true,
  ...over,
});

describe('discount arithmetic (integer pence)', () => {
  it('rounds a percentage half-up to the penny, once, on the subtotal', () => {
    expect(discountPence(terms({ percent: 10 }), 8887)).toBe(889); // 888.7
    expect(discountPence(terms({ percent: 10 }), 8885)).toBe(889); // 888.5 → up
    expect(discountPence(terms({ percent: 10 }), 8884)).toBe(888); // 888.4
    expect(discountPence(terms({ percent: 15 }), 333)).toBe(50); // 49.95 → 50
    expect(discountPence(terms({ percent: 100 }), 4999)).toBe(4999);
    expect(discountPence(terms({ percent: 10 }), 0)).toBe(0);
  });

  it('never takes a fixed amount past the subtotal', () => {
    expect(discountPence(terms({ type: 'fixed', amountPence: 500 }), 2000)).toBe(500);
    expect(discountPence(terms({ type: 'fixed', amountPence: 5000 }), 2000)).toBe(2000);
  });

  it('holds on generated subtotals and codes: exact, half-up, never negative', () => {
    const code = fc.oneof(
      fc.integer({ min: 1, max: 100 }).map((percent) => terms({ type: 'percent', percent })),
      fc.integer({ min: 1, max: 10_000_000 }).map((amountPence) => terms({ type: 'fixed', amountPence })),
    );
    fc.assert(
      fc.property(code, fc.integer({ min: 0, max: 99 * 50 * 10_000_000 }), (c, subtotal) => {
        const off = discountPence(c, subtotal);
        const total = subtotal - off;
        expect(Number.isInteger(off)).toBe(true);
        expect(off).toBeGreaterThanOrEqual(0);
        expect(total).toBeGreaterThanOrEqual(0);
        if (c.type === 'fixed') expect(off).toBe(Math.min(c.amountPence!, subtotal));
        else {
          // Half-up: the exact value is within half a penny below and under half a penny above.
          const exact = (subtotal * c.percent!) / 100;
          expect(off - exact).toBeLessThanOrEqual(0.5);
          expect(exact - off).toBeLessThan(0.5);
          // Checked with BigInt: no float in the reference either.
          const ref = (BigInt(subtotal) * BigInt(c.percent!) * 2n + 100n) / 200n;
          expect(BigInt(off)).toBe(ref);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('knows an amount in pounds with at most two decimals', () => {
    expect(hasAtMostTwoDecimals(19.99)).toBe(true);
    expect(hasAtMostTwoDecimals(0.1 + 0.2)).toBe(true);
    expect(hasAtMostTwoDecimals(5)).toBe(true);
    expect(hasAtMostTwoDecimals(1.005)).toBe(false);
  });
});

describe('discount terms', () => {
  const now = new Date('2026-06-01T12:00:00Z');
  const at = (iso: string) => new Date(iso);

  it.each([
    [terms({ active: false }), DISCOUNT_MESSAGES.inactive],
    [terms({ startsAt: at('2026-06-02T00:00:00Z') }), DISCOUNT_MESSAGES.notYetValid],
    [terms({ endsAt: now }), DISCOUNT_MESSAGES.expired],
    [terms({ email: 'someone@example.com' }), DISCOUNT_MESSAGES.notYours],
    [terms({ minSubtotalPence: 5000 }), DISCOUNT_MESSAGES.belowMinimum('50.00')],
    [terms({ startsAt: now, endsAt: at('2026-06-01T12:00:01Z') }), undefined],
    [terms({ email: 'me@example.com', minSubtotalPence: 4999 }), undefined],
  ])('%# refuses with the shopper’s message', (t, message) => {
    expect(termsRefusal(t, { now, subtotalPence: 4999, email: 'ME@example.com' })).toBe(message);
  });

  it('names the minimum in pounds with two decimals', () => {
    expect(DISCOUNT_MESSAGES.belowMinimum('50.00')).toBe('This discount code needs a subtotal of at least £50.00');
  });

  it('gives a first-order code one use per customer', () => {
    expect(customerLimitOf(terms({ firstOrderOnly: true }))).toBe(1);
    expect(customerLimitOf(terms({ firstOrderOnly: true, perCustomerLimit: 3 }))).toBe(1);
    expect(customerLimitOf(terms({ perCustomerLimit: 3 }))).toBe(3);
    expect(customerLimitOf(terms())).toBeNull();
  });

  it('shows the admin a status', () => {
    expect(statusOf(terms({ active: false, usageLimit: 1 }), 1, now)).toBe('inactive');
    expect(statusOf(terms({ endsAt: now }), 0, now)).toBe('expired');
    expect(statusOf(terms({ usageLimit: 2 }), 2, now)).toBe('used up');
    expect(statusOf(terms({ startsAt: at('2026-07-01T00:00:00Z') }), 0, now)).toBe('scheduled');
    expect(statusOf(terms({ usageLimit: 2 }), 1, now)).toBe('active');
  });
});
