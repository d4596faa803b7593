import { COLORS, EDIT_FORM_COLORS, FILTER_COLORS, toPence, toPounds } from './catalog';

describe('money conversion', () => {
  it.each([
    [39.99, 3999],
    [0.1 + 0.2, 30],
    [19.995, 2000],
    [1234.5, 123450],
  ])('%p pounds is %p pence', (pounds, pence) => {
    expect(toPence(pounds)).toBe(pence);
  });

  it('round-trips pence to two-decimal pounds', () => {
    expect(toPounds(3999)).toBe(39.99);
    expect(toPounds(toPence(0.1) + toPence(0.2))).toBe(0.3);
  });
});

describe('colours', () => {
  it('offers every filter and edit-form colour exactly once', () => {
    for (const c of [...FILTER_COLORS, ...EDIT_FORM_COLORS]) expect(COLORS).toContain(c);
    expect(new Set(COLORS).size).toBe(COLORS.length);
  });
});
