import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isDuplicateKeyError } from '@shop/nest-common';
import type { Model } from 'mongoose';
import { CatalogCache } from '../cache/catalog-cache';
import { Product } from '../products/product.schema';
import { MigrationRecord, RATINGS_MIGRATION } from '../variants/migration.schema';
import { ReviewsService } from './reviews.service';

export { RATINGS_MIGRATION };

/**
 * Drops the ratings the seed used to invent (issue 27), once per database, at start: every product that claims a
 * rating or reviews gets the average and count of its visible reviews instead (0 / 0 with none). Each product is
 * recounted under its lock, as any review would, so replicas starting at once, or a review posted meanwhile, leave the
 * exact figures; the record of the run is written at the end.
 */
@Injectable()
export class RatingsMigration implements OnModuleInit {
  private readonly logger = new Logger(RatingsMigration.name);

  constructor(
    @InjectModel(Product.name) private readonly products: Model<Product>,
    @InjectModel(MigrationRecord.name) private readonly migrations: Model<MigrationRecord>,
    private readonly reviews: ReviewsService,
    private readonly cache: CatalogCache,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.run();
  }

  /** Runs the migration unless it ran before; the number of products recounted. */
  async run(): Promise<number> {
    if (await this.migrations.exists({ _id: RATINGS_MIGRATION }).exec()) return 0;
    let changed = 0;
    const cursor = this.products
      .find({ $or: [{ rating: { $ne: 0 } }, { numReviews: { $ne: 0 } }] }, { _id: 1 })
      .lean<Array<{ _id: unknown }>>()
      .cursor({ batchSize: 500 });
    for await (const { _id } of cursor) {
      if (await this.reviews.recountQuietly(String(_id))) changed++;
    }
    try {
      await this.migrations.create({ _id: RATINGS_MIGRATION, ranAt: new Date(), changed });
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err; // another replica finished it at the same moment
    }
    if (changed) {
      this.logger.log(`${RATINGS_MIGRATION}: ${changed} product(s) given the rating of their reviews`);
      await this.cache.invalidate();
    }
    return changed;
  }
}
