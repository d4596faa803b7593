/**
 * Sets of slots (small whole numbers) as bits: one bit per product, so that "holds one of these values in each of
 * these fields" is a few thousand word operations at 100,000 products, however many products each value has.
 */
export type Bitset = Uint32Array;

/** Room for slots below `size`. */
export function emptyBits(size: number): Bitset {
  return new Uint32Array(Math.ceil(size / 32));
}

export function hasBit(bits: Bitset, slot: number): boolean {
  return (bits[slot >>> 5] & (1 << (slot & 31))) !== 0;
}

/** Sets a bit, in a copy grown to hold it if `bits` is too short (then the copy is returned). */
export function withBit(bits: Bitset, slot: number): Bitset {
  const word = slot >>> 5;
  let out = bits;
  if (word >= bits.length) {
    out = new Uint32Array(Math.max(word + 1, bits.length * 2));
    out.set(bits);
  }
  out[word] |= 1 << (slot & 31);
  return out;
}

export function clearBit(bits: Bitset, slot: number): void {
  const word = slot >>> 5;
  if (word < bits.length) bits[word] &= ~(1 << (slot & 31));
}

/** `into |= from`, over the words `into` has. */
export function orInto(into: Bitset, from: Bitset): void {
  const n = Math.min(into.length, from.length);
  for (let i = 0; i < n; i++) into[i] |= from[i];
}

/** `into &= from`; words `from` does not have are cleared. */
export function andInto(into: Bitset, from: Bitset): void {
  const n = Math.min(into.length, from.length);
  for (let i = 0; i < n; i++) into[i] &= from[i];
  into.fill(0, n);
}

/** How many bits are set. */
export function countBits(bits: Bitset): number {
  let count = 0;
  for (let word of bits) {
    word -= (word >>> 1) & 0x55555555;
    word = (word & 0x33333333) + ((word >>> 2) & 0x33333333);
    count += (((word + (word >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
  }
  return count;
}
