import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import { isDuplicateKeyError } from '@shop/nest-common';
import { randomUUID } from 'node:crypto';
import type { Connection, Model } from 'mongoose';
import { CatalogCache } from '../cache/catalog-cache';
import { Product } from '../products/product.schema';
import { HOLDS_MIGRATION, MigrationRecord } from '../variants/migration.schema';
import { splitEvenly, variantsOf } from '../variants/variants';
import { holdPath, type HoldLine } from './stock-hold';

export { HOLDS_MIGRATION };

/** A record of the `reservations` collection this migration empties (the stock code before holds lived in products). */
interface LegacyReservation {
  _id: unknown;
  checkoutId: string;
  productId: string;
  quantity: number;
  lines?: HoldLine[];
  status: 'pending' | 'held' | 'released' | 'committed' | 'returned';
  generation: number;
  expiresAt: Date;
}

/**
 * Moves what the `reservations` collection says into the products, once per database, at start: a held
 * reservation (or a pending one whose hold reached its product's stock journal) becomes the product's hold for its
 * checkout, its units already off the shelf; a returned one puts its checkout in `returnedCheckouts`; sold and
 * released ones need nothing. Each record is claimed by deleting it before its hold is written, so replicas running
 * this at once never write one twice (a crash in between loses that hold: its units stay off the shelf, never sold
 * twice). Then the products' stock journals go.
 */
@Injectable()
export class HoldsMigration implements OnModuleInit {
  private readonly logger = new Logger(HoldsMigration.name);

  constructor(
    @InjectModel(Product.name) private readonly products: Model<Product>,
    @InjectModel(MigrationRecord.name) private readonly migrations: Model<MigrationRecord>,
    @InjectConnection() private readonly connection: Connection,
    private readonly cache: CatalogCache,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.run();
  }

  /** Runs the migration unless it ran before; the number of holds and returns it moved. */
  async run(): Promise<number> {
    if (await this.migrations.exists({ _id: HOLDS_MIGRATION }).exec()) return 0;
    const reservations = this.connection.collection<LegacyReservation>('reservations');
    let changed = 0;
    for (;;) {
      const res = await reservations.findOneAndDelete({});
      if (!res) break;
      if (await this.moveOne(res)) changed++;
    }
    // The schema no longer names the journal, so mongoose would drop it from the update: the driver's own call.
    await this.products.collection.updateMany({ stockJournal: { $exists: true } }, { $unset: { stockJournal: '' } });
    try {
      await this.migrations.create({ _id: HOLDS_MIGRATION, ranAt: new Date(), changed });
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err; // another replica finished it at the same moment
    }
    if (changed) {
      this.logger.log(`${HOLDS_MIGRATION}: ${changed} reservation(s) moved into their products`);
      await this.cache.invalidate();
    }
    return changed;
  }

  private async moveOne(res: LegacyReservation): Promise<boolean> {
    const product = await this.products.findById(res.productId).lean<Product & { stockJournal?: string[] }>().exec();
    if (!product) return false;
    if (res.status === 'returned') {
      await this.products
        .updateOne({ _id: res.productId }, { $addToSet: { returnedCheckouts: res.checkoutId } }, { timestamps: false })
        .exec();
      return true;
    }
    const held =
      res.status === 'held' ||
      (res.status === 'pending' && !!product.stockJournal?.includes(`${String(res._id)}:${res.generation}:hold`));
    if (!held) return false;
    const path = holdPath(res.checkoutId);
    const { modifiedCount } = await this.products
      .updateOne(
        { _id: res.productId, [path]: { $exists: false } },
        {
          $set: {
            [path]: { ref: randomUUID(), lines: legacyLines(res, product), expiresAt: res.expiresAt },
            hasHolds: true,
          },
        },
        { timestamps: false },
      )
      .exec();
    return modifiedCount === 1;
  }
}

/**
 * A reservation's lines. One made before variants existed has none: its units are read as the variants migration
 * split the product's stock — all on the one variant, or spread evenly over the variants in order.
 */
function legacyLines(res: LegacyReservation, product: Product): HoldLine[] {
  if (Array.isArray(res.lines)) return res.lines.filter((l) => l.quantity > 0);
  const variants = variantsOf(product);
  if (!variants.length || res.quantity <= 0) return [];
  const parts = splitEvenly(res.quantity, variants.length);
  return variants
    .map((v, i) => ({ size: v.size, color: v.color, sku: v.sku, quantity: parts[i] }))
    .filter((l) => l.quantity > 0);
}
