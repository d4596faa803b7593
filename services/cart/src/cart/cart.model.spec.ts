import { lineCap, mergeLines, remember, subtractOrder, MARKERS_KEPT, type StoredLine } from './cart.model';

const l = (productId: string, quantity: number, size = 'M', color = 'Red'): StoredLine => ({
  productId,
  size,
  color,
  quantity,
});

describe('cart arithmetic', () => {
  it('merges guest lines: the same line adds up, capped by stock, other sizes stay apart, unsold products are left out', () => {
    const caps: Record<string, number> = { a: 5, b: 99, c: 0 };
    const merged = mergeLines(
      [l('a', 3), l('b', 1)],
      [l('a', 4), l('b', 2, 'L'), l('c', 1), l('gone', 2)],
      ({ productId }) => (productId in caps ? lineCap(caps[productId]) : undefined),
    );
    expect(merged).toEqual([l('a', 5), l('b', 1), l('b', 2, 'L')]);
  });

  it('caps each line by its own variant’s stock', () => {
    const caps: Record<string, number> = { M: 1, L: 0, S: 4 };
    const merged = mergeLines([], [l('a', 3, 'M'), l('a', 2, 'L'), l('a', 2, 'S')], ({ size }) => lineCap(caps[size]));
    expect(merged).toEqual([l('a', 1, 'M'), l('a', 2, 'S')]);
  });

  it('never lowers a line the user already had above a stock that fell since', () => {
    expect(mergeLines([l('a', 8)], [l('a', 1)], () => 5)).toEqual([l('a', 8)]);
  });

  it('caps a line at 99 whatever the stock', () => {
    expect(lineCap(500)).toBe(99);
    expect(lineCap(-3)).toBe(0);
  });

  it('takes an order out of a cart: the ordered lines go, lines added since stay', () => {
    const left = subtractOrder(
      [l('a', 2), l('b', 3), l('c', 1)],
      [
        { productId: 'a', quantity: 2, size: 'M', color: 'Red' },
        { productId: 'b', quantity: 1, size: 'M', color: 'Red' },
        { productId: 'z', quantity: 1 },
      ],
    );
    expect(left).toEqual([l('b', 2), l('c', 1)]);
  });

  it('remembers markers once each, newest last, at most MARKERS_KEPT', () => {
    let markers: string[] = [];
    for (let i = 0; i < MARKERS_KEPT + 5; i++) markers = remember(markers, `m${i}`);
    markers = remember(markers, 'm10');
    expect(markers).toHaveLength(MARKERS_KEPT);
    expect(markers.at(-1)).toBe('m10');
    expect(markers.filter((m) => m === 'm10')).toHaveLength(1);
  });
});
