import { seededRandom } from './seeded-random';

describe('seededRandom', () => {
  it('gives the same numbers in [0, 1) for the same seed, and others for another seed', () => {
    const take = (seed: number) => {
      const next = seededRandom(seed);
      return Array.from({ length: 1000 }, () => next());
    };
    const first = take(42);
    expect(take(42)).toEqual(first);
    expect(take(43)).not.toEqual(first);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
    // spread over the interval, not stuck in a corner
    expect(first.filter((x) => x < 0.5).length).toBeGreaterThan(400);
    expect(first.filter((x) => x < 0.5).length).toBeLessThan(600);
  });
});
