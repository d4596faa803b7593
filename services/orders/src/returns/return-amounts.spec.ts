import fc from 'fast-check';
import { paidPerLine, returnRefundPence, returnableUntil, shareDiscount } from './return-amounts';

const lineTotals = fc.array(fc.integer({ min: 0, max: 5_000_000 }), { minLength: 1, maxLength: 20 });
/** Line totals and a discount no larger than their sum. */
const totalsAndDiscount = lineTotals.chain((totals) =>
  fc.tuple(fc.constant(totals), fc.integer({ min: 0, max: totals.reduce((a, b) => a + b, 0) })),
);

describe('shareDiscount (largest remainder)', () => {
  it('shares add up to exactly the discount, none negative, none above its line', () => {
    fc.assert(
      fc.property(totalsAndDiscount, ([totals, discount]) => {
        const shares = shareDiscount(totals, discount);
        expect(shares).toHaveLength(totals.length);
        expect(shares.reduce((a, b) => a + b, 0)).toBe(discount);
        shares.forEach((s, i) => {
          expect(Number.isInteger(s)).toBe(true);
          expect(s).toBeGreaterThanOrEqual(0);
          expect(s).toBeLessThanOrEqual(totals[i]);
        });
      }),
      { numRuns: 500 },
    );
  });

  it('each share is its exact proportion rounded down or up, and only the largest remainders are rounded up', () => {
    fc.assert(
      fc.property(totalsAndDiscount, ([totals, discount]) => {
        const sum = totals.reduce((a, b) => a + b, 0);
        const shares = shareDiscount(totals, discount);
        if (sum === 0) return;
        const exact = totals.map((t) => (t * discount) / sum);
        const remainders = totals.map((t) => (BigInt(t) * BigInt(discount)) % BigInt(sum));
        shares.forEach((s, i) => expect(s - Math.floor(exact[i] + 1e-9)).toBeGreaterThanOrEqual(0));
        shares.forEach((s, i) => expect(s - Math.floor(exact[i] + 1e-9)).toBeLessThanOrEqual(1));
        // A line rounded up never has a smaller remainder than a line rounded down.
        const up = shares
          .map((s, i) => ({ i, up: BigInt(s) * BigInt(sum) > BigInt(totals[i]) * BigInt(discount) }))
          .filter((x) => x.up)
          .map((x) => remainders[x.i]);
        const down = shares
          .map((s, i) => ({ i, up: BigInt(s) * BigInt(sum) > BigInt(totals[i]) * BigInt(discount) }))
          .filter((x) => !x.up && remainders[x.i] > 0n)
          .map((x) => remainders[x.i]);
        if (up.length && down.length) {
          const minUp = up.reduce((a, b) => (a < b ? a : b));
          const maxDown = down.reduce((a, b) => (a > b ? a : b));
          expect(minUp >= maxDown).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('shares a £10 discount over £40 and £20 lines as £6.67 and £3.33; none when there is none', () => {
    expect(shareDiscount([4000, 2000], 1000)).toEqual([667, 333]);
    expect(shareDiscount([1, 1, 1], 2)).toEqual([1, 1, 0]);
    expect(shareDiscount([4000, 2000], 0)).toEqual([0, 0]);
  });

  it('refuses a discount above the lines, or anything but whole pence', () => {
    expect(() => shareDiscount([100], 101)).toThrow(RangeError);
    expect(() => shareDiscount([100], -1)).toThrow(RangeError);
    expect(() => shareDiscount([10.5], 1)).toThrow(RangeError);
  });
});

describe('paidPerLine', () => {
  it('adds up to what was paid', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ pricePence: fc.integer({ min: 0, max: 100_000 }), quantity: fc.integer({ min: 1, max: 9 }) }),
          {
            minLength: 1,
            maxLength: 10,
          },
        ),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (lines, fraction) => {
          const sum = lines.reduce((a, l) => a + l.pricePence * l.quantity, 0);
          const total = Math.floor(sum * fraction);
          const paid = paidPerLine(lines, total);
          expect(paid.reduce((a, b) => a + b, 0)).toBe(total);
          paid.forEach((p) => expect(p).toBeGreaterThanOrEqual(0));
        },
      ),
    );
  });
});

describe('returnRefundPence', () => {
  it('never refunds more than the line was paid, and all its units refund exactly that, however split and rejected', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 1, max: 12 }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 12 }), fc.boolean()), { maxLength: 12 }),
        (paid, bought, attempts) => {
          const kept: Array<{ quantity: number; pence: number }> = [];
          const claimed = () => ({
            quantity: kept.reduce((a, r) => a + r.quantity, 0),
            pence: kept.reduce((a, r) => a + r.pence, 0),
          });
          for (const [want, rejected] of attempts) {
            const left = bought - claimed().quantity;
            if (left === 0) break;
            const quantity = Math.min(want, left);
            const pence = returnRefundPence({ paid, bought }, claimed(), quantity);
            expect(pence).toBeGreaterThanOrEqual(0);
            expect(claimed().pence + pence).toBeLessThanOrEqual(paid);
            if (rejected) continue; // a rejected return frees its units
            kept.push({ quantity, pence });
          }
          const rest = bought - claimed().quantity;
          if (rest > 0) kept.push({ quantity: rest, pence: returnRefundPence({ paid, bought }, claimed(), rest) });
          expect(claimed()).toEqual({ quantity: bought, pence: paid });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('prices units evenly, the rounding pence with the last one', () => {
    expect(returnRefundPence({ paid: 100, bought: 3 }, { quantity: 0, pence: 0 }, 1)).toBe(33);
    expect(returnRefundPence({ paid: 100, bought: 3 }, { quantity: 1, pence: 33 }, 1)).toBe(33);
    expect(returnRefundPence({ paid: 100, bought: 3 }, { quantity: 2, pence: 66 }, 1)).toBe(34);
    expect(() => returnRefundPence({ paid: 100, bought: 3 }, { quantity: 2, pence: 66 }, 2)).toThrow(RangeError);
  });

  it('the return window ends 45 days after the delivery', () => {
    expect(returnableUntil(new Date('2026-10-01T10:00:00Z'), 45).toISOString()).toBe('2026-11-15T10:00:00.000Z');
  });
});
