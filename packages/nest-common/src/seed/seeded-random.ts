/**
 * mulberry32: a small, fast, seedable pseudo-random generator (numbers in [0, 1)). For synthetic data that must come
 * out the same for the same seed (the seed programs' bulk data, property checks that replay a failure) — never for
 * anything that must be unpredictable.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
