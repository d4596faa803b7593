import { planVariants } from './variant-plan';
import { defaultVariantSku, legacyVariants, splitEvenly, variantLabel, variantsOf } from './variants';

describe('variants', () => {
  it('splits stock evenly, the first variants taking the remainder', () => {
    expect(splitEvenly(10, 3)).toEqual([4, 3, 3]);
    expect(splitEvenly(2, 4)).toEqual([1, 1, 0, 0]);
    expect(splitEvenly(0, 2)).toEqual([0, 0]);
    expect(splitEvenly(-3, 2)).toEqual([0, 0]);
  });

  it('names default SKUs from the parts present, upper-case', () => {
    expect(defaultVariantSku('nfl-1', { size: 'XL', color: 'Navy' })).toBe('NFL-1-XL-NAVY');
    expect(defaultVariantSku('Ball', { size: null, color: null })).toBe('BALL');
    expect(defaultVariantSku('cap', { size: null, color: 'Red' })).toBe('CAP-RED');
    expect(variantLabel('Cap', { size: null, color: 'Red' })).toBe('Cap (Red)');
    expect(variantLabel('Ball', { size: null, color: null })).toBe('Ball');
  });

  it('reads a product stored before variants as the migration will store it', () => {
    const old = { sku: 'J', sizes: ['S', 'M'], colors: ['Red'], countInStock: 3, soldCount: 5 };
    expect(legacyVariants(old)).toEqual([
      { sku: 'J-S-RED', size: 'S', color: 'Red', countInStock: 2, soldCount: 3 },
      { sku: 'J-M-RED', size: 'M', color: 'Red', countInStock: 1, soldCount: 2 },
    ]);
    expect(variantsOf({ ...old, variants: [] })).toEqual(legacyVariants(old));
  });

  describe('planVariants', () => {
    const current = legacyVariants({ sku: 'P', sizes: ['M', 'L'], colors: ['Red'], countInStock: 4 });

    it('keeps cells, adds new ones at 0 and lists the removed ones', () => {
      const plan = planVariants({ productSku: 'P', sizes: ['L', 'XL'], colors: ['Red'], current });
      expect(plan.variants.map((v) => [v.sku, v.countInStock])).toEqual([
        ['P-L-RED', 2],
        ['P-XL-RED', 0],
      ]);
      expect(plan.removed.map((v) => v.sku)).toEqual(['P-M-RED']);
    });

    it('sets the stock and SKUs of the cells sent, and a bare countInStock of a one-variant product only', () => {
      const plan = planVariants({
        productSku: 'P',
        sizes: ['M', 'L'],
        colors: ['Red'],
        current,
        variants: [{ size: 'L', color: 'Red', countInStock: 9, sku: ' P-LARGE ' }],
        countInStock: 100,
      });
      expect(plan.variants.map((v) => [v.sku, v.countInStock])).toEqual([
        ['P-M-RED', 2],
        ['P-LARGE', 9],
      ]);
      expect(() =>
        planVariants({ productSku: 'P', sizes: ['M', 'L'], colors: ['Red'], current, countInStock: 1 }),
      ).toThrow(/This product has 2 variants/);
      expect(planVariants({ productSku: 'Q', sizes: [], colors: [], current: [], countInStock: 7 }).variants).toEqual([
        { sku: 'Q', size: null, color: null, countInStock: 7, soldCount: 0 },
      ]);
    });
  });
});
