import { REFUND_RETRY_MAX_MS, refundRetryDelay } from './refund-retry';

describe('refundRetryDelay', () => {
  it('waits the first delay after the first failed try, twice as long after each next one', () => {
    expect([1, 2, 3, 4].map((tries) => refundRetryDelay(tries, 8000))).toEqual([8000, 16_000, 32_000, 64_000]);
  });

  it('never waits more than an hour, however many tries failed', () => {
    expect(refundRetryDelay(10, 8000)).toBe(REFUND_RETRY_MAX_MS);
    expect(refundRetryDelay(5000, 8000)).toBe(REFUND_RETRY_MAX_MS);
    expect(REFUND_RETRY_MAX_MS).toBe(3_600_000);
  });

  it('counts no try yet as the first', () => {
    expect(refundRetryDelay(0, 8000)).toBe(8000);
  });
});
