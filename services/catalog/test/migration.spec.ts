import { getModelToken } from '@nestjs/mongoose';
import type { ProductJson } from '@shop/contracts';
import { request, type TestService } from '@shop/nest-common/testing';
import type { Model } from 'mongoose';
import { MigrationRecord } from '../src/variants/migration.schema';
import { VariantSku } from '../src/variants/variant-sku.schema';
import { VARIANTS_MIGRATION, VariantsMigration } from '../src/variants/variants.migration';
import { insertProducts, productModel, startCatalog, type ProductFixture } from './catalog.fixtures';

const legacy = (sku: string, extra: Partial<ProductFixture>): ProductFixture => ({
  sku,
  name: `Old ${sku}`,
  price: 30,
  category: 'Top Wear',
  gender: 'Men',
  brand: 'Baltimore Ravens',
  legacy: true,
  ...extra,
});

describe('catalog: the variants migration (product-variants-v1)', () => {
  let svc: TestService;
  const migrations = () => svc.app.get<Model<MigrationRecord>>(getModelToken(MigrationRecord.name));
  const register = () => svc.app.get<Model<VariantSku>>(getModelToken(VariantSku.name));
  const stored = async (ids: string[]) =>
    (await productModel(svc)
      .find({ _id: { $in: ids } }, { sku: 1, countInStock: 1, soldCount: 1, variants: 1 })
      .sort({ sku: 1 })
      .lean()) as unknown[];

  beforeAll(async () => {
    svc = await startCatalog();
  }, 60_000);
  afterAll(() => svc.close());

  it('has run once at start on an empty catalogue, and says so', async () => {
    expect(await migrations().findById(VARIANTS_MIGRATION).lean()).toEqual(
      expect.objectContaining({ _id: VARIANTS_MIGRATION, changed: 0 }),
    );
    // A second run finds the record and reads nothing else.
    expect(await svc.app.get(VariantsMigration).run()).toBe(0);
  });

  it('gives stored products their variants once: the stock split deterministically, the same on a second run', async () => {
    // Stored before variants: one stock number. One default variant SKU is another product's already.
    await register().create({
      _id: 'MIG-JERSEY-M-RED',
      productId: '64b7f9f9f9f9f9f9f9f9f9f1',
      sku: 'MIG-JERSEY-M-RED',
      claimedAt: new Date(),
    });
    const ids = await insertProducts(svc, [
      legacy('MIG-JERSEY', { sizes: ['S', 'M', 'L'], colors: ['Red', 'White'], countInStock: 10, soldCount: 7 }),
      legacy('MIG-CAP', { sizes: [], colors: ['Black'], countInStock: 3, soldCount: 1 }),
      legacy('MIG-BALL', { sizes: [], colors: [], countInStock: 9, soldCount: 0 }),
      legacy('MIG-NONE', { sizes: ['M', 'L'], colors: [], countInStock: 0, soldCount: 0 }),
    ]);
    const jersey = ids.get('MIG-JERSEY')!;
    // Before the migration, reads already show the variants the product will get.
    const before = (await request<ProductJson>(`${svc.url}/api/products/${jersey}`)).body;
    expect(before.variants.map((v) => v.countInStock)).toEqual([2, 2, 2, 2, 1, 1]);

    await migrations().deleteOne({ _id: VARIANTS_MIGRATION }); // as on a database stored before the release
    // Two replicas starting at once: each product is migrated once, whoever gets there first.
    const [a, b] = await Promise.all([svc.app.get(VariantsMigration).run(), svc.app.get(VariantsMigration).run()]);
    expect(a + b).toBeGreaterThanOrEqual(4);
    expect(await migrations().countDocuments({ _id: VARIANTS_MIGRATION })).toBe(1);

    const migrated = await stored([...ids.values()]);
    expect(migrated).toEqual([
      expect.objectContaining({
        sku: 'MIG-BALL',
        countInStock: 9,
        soldCount: 0,
        variants: [{ sku: 'MIG-BALL', size: null, color: null, countInStock: 9, soldCount: 0 }],
      }),
      expect.objectContaining({
        sku: 'MIG-CAP',
        countInStock: 3,
        soldCount: 1,
        variants: [{ sku: 'MIG-CAP-BLACK', size: null, color: 'Black', countInStock: 3, soldCount: 1 }],
      }),
      expect.objectContaining({
        sku: 'MIG-JERSEY',
        countInStock: 10,
        soldCount: 7,
        variants: [
          { sku: 'MIG-JERSEY-S-RED', size: 'S', color: 'Red', countInStock: 2, soldCount: 2 },
          { sku: 'MIG-JERSEY-S-WHITE', size: 'S', color: 'White', countInStock: 2, soldCount: 1 },
          // Its default SKU was taken: the next free one.
          { sku: 'MIG-JERSEY-M-RED-2', size: 'M', color: 'Red', countInStock: 2, soldCount: 1 },
          { sku: 'MIG-JERSEY-M-WHITE', size: 'M', color: 'White', countInStock: 2, soldCount: 1 },
          { sku: 'MIG-JERSEY-L-RED', size: 'L', color: 'Red', countInStock: 1, soldCount: 1 },
          { sku: 'MIG-JERSEY-L-WHITE', size: 'L', color: 'White', countInStock: 1, soldCount: 1 },
        ],
      }),
      expect.objectContaining({
        sku: 'MIG-NONE',
        countInStock: 0,
        variants: [
          { sku: 'MIG-NONE-M', size: 'M', color: null, countInStock: 0, soldCount: 0 },
          { sku: 'MIG-NONE-L', size: 'L', color: null, countInStock: 0, soldCount: 0 },
        ],
      }),
    ]);
    // Their SKUs are in the register, each for its product.
    const claims = await register().find({ productId: jersey }).sort({ _id: 1 }).lean();
    expect(claims.map((c) => c._id)).toEqual([
      'MIG-JERSEY-L-RED',
      'MIG-JERSEY-L-WHITE',
      'MIG-JERSEY-M-RED-2',
      'MIG-JERSEY-M-WHITE',
      'MIG-JERSEY-S-RED',
      'MIG-JERSEY-S-WHITE',
    ]);

    // A second run (the record kept): nothing. A run without the record (stopped before it was written): nothing
    // changes either — the products have their variants.
    expect(await svc.app.get(VariantsMigration).run()).toBe(0);
    await migrations().deleteOne({ _id: VARIANTS_MIGRATION });
    expect(await svc.app.get(VariantsMigration).run()).toBe(0);
    expect(await stored([...ids.values()])).toEqual(migrated);

    // A replica starting on this database changes nothing.
    const replica = await startCatalog({ MONGO_URI: svc.config.MONGO_URI }, { namespace: svc.namespace });
    try {
      expect(await stored([...ids.values()])).toEqual(migrated);
      const after = (await request<ProductJson>(`${replica.url}/api/products/${jersey}`)).body;
      expect(after.variants.map((v) => [v.sku, v.countInStock])).toEqual(
        before.variants.map((v) => [v.sku === 'MIG-JERSEY-M-RED' ? 'MIG-JERSEY-M-RED-2' : v.sku, v.countInStock]),
      );
    } finally {
      await replica.app.close();
    }
  }, 60_000);
});
