// What a return refunds, in integer pence: pure, so that its rules are tested on their own (return-amounts.spec.ts).

/**
 * The order's discount shared out across its lines in proportion to each line's total, to the penny, by the largest
 * remainder method: each line gets the whole pence of its exact share, then the pence left over go one each to the
 * lines with the largest fractional remainders (ties to the earlier line). The shares add up to exactly `discount`,
 * none is negative, and none exceeds its line's total when the discount does not exceed the lines' sum.
 */
export function shareDiscount(lineTotals: readonly number[], discount: number): number[] {
  if (!Number.isSafeInteger(discount) || discount < 0) throw new RangeError('discount must be whole pence, at least 0');
  for (const t of lineTotals)
    if (!Number.isSafeInteger(t) || t < 0) throw new RangeError('line totals must be whole pence, at least 0');
  const sum = lineTotals.reduce((a, b) => a + b, 0);
  if (discount > sum) throw new RangeError('the discount exceeds the lines');
  if (discount === 0 || sum === 0) return lineTotals.map(() => 0);
  // Exact shares as quotient and remainder over `sum` (BigInt: a line total × the discount may pass 2^53).
  const D = BigInt(discount);
  const S = BigInt(sum);
  const parts = lineTotals.map((t, i) => {
    const numerator = BigInt(t) * D;
    return { i, whole: Number(numerator / S), remainder: numerator % S };
  });
  let left = discount - parts.reduce((a, p) => a + p.whole, 0);
  const byRemainder = [...parts].sort((a, b) =>
    a.remainder === b.remainder ? a.i - b.i : a.remainder > b.remainder ? -1 : 1,
  );
  const shares = parts.map((p) => p.whole);
  for (const p of byRemainder) {
    if (left === 0) break;
    shares[p.i] += 1;
    left -= 1;
  }
  return shares;
}

/** A line of an order as the amounts read it. */
export interface PricedLine {
  pricePence: number;
  quantity: number;
}

/**
 * What each line was paid: its total less its share of the discount. The discount is what the lines came to less
 * what was paid (shipping is free), so the lines' paid amounts add up to exactly `totalPence`.
 */
export function paidPerLine(lines: readonly PricedLine[], totalPence: number): number[] {
  const totals = lines.map((l) => l.pricePence * l.quantity);
  const sum = totals.reduce((a, b) => a + b, 0);
  const discount = Math.max(0, sum - totalPence);
  const shares = shareDiscount(totals, Math.min(discount, sum));
  return totals.map((t, i) => t - shares[i]);
}

/**
 * What returning `quantity` more units of a line refunds, when `claimed` of its `bought` units (refunding
 * `claimedPence`) are in earlier returns that were not rejected. Units are paid `paid / bought` each, the pence of
 * rounding going to the last: `k` units are worth `floor(paid × k / bought)`, and the return that makes every unit
 * returned gets all that is left of `paid`. So however the units are split across returns, they never refund more
 * than the line was paid, and all of them refund exactly that.
 */
export function returnRefundPence(
  line: { paid: number; bought: number },
  claimed: { quantity: number; pence: number },
  quantity: number,
): number {
  const { paid, bought } = line;
  if (quantity < 1 || claimed.quantity + quantity > bought) throw new RangeError('more units than were bought');
  const left = Math.max(0, paid - claimed.pence);
  const after = claimed.quantity + quantity;
  if (after === bought) return left;
  const worth = Math.floor((paid * after) / bought) - claimed.pence;
  return Math.min(left, Math.max(0, worth));
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The last moment a return can be asked for: `days` after the delivery. */
export function returnableUntil(deliveredAt: Date, days: number): Date {
  return new Date(deliveredAt.getTime() + days * DAY_MS);
}
