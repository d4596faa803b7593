import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  BEST_SELLER_ORDER,
  NEW_ARRIVALS_COUNT,
  NEWEST_FIRST,
  SIMILAR_COUNT,
  SIMILAR_ORDER,
  toMongoFilter,
  toMongoSort,
  type ProductListQuery,
} from '@shop/catalog-read-model';
import { EVENTS, toPence, type ProductChangedEvent, type ProductDeletedEvent, type ProductJson } from '@shop/contracts';
import { EventBus, isDuplicateKeyError } from '@shop/nest-common';
import type { Model } from 'mongoose';
import { randomBytes } from 'node:crypto';
import { CatalogCache } from '../cache/catalog-cache';
import { assetUrlsOf, type AssetUrls } from '../config/asset-urls';
import { CatalogConfig } from '../config/catalog.config';
import { CreateProductDto, UpdateProductDto } from './dto/product.dto';
import { PRODUCT_PROJECTION, toProductJson } from './product.mapper';
import { ProductLocks } from './product-locks';
import { Product, type LeanProduct } from './product.schema';

export const PRODUCT_NOT_FOUND = 'Product not found';
export const SKU_EXISTS = 'SKU already exists';
export const NO_BEST_SELLER = 'No best seller found';

type ProductFields = Omit<CreateProductDto, 'price' | 'originalPrice'> & {
  pricePence?: number;
  originalPricePence?: number | null;
};

/** The writable fields of a DTO, in storage form (pence, relative image URLs), leaving out what was not sent. */
function toStored(dto: CreateProductDto | UpdateProductDto, assets: AssetUrls): ProductFields {
  const { price, originalPrice, ...rest } = dto;
  const out: ProductFields = {} as ProductFields;
  for (const [key, value] of Object.entries(rest)) {
    if (value !== undefined && value !== null) (out as Record<string, unknown>)[key] = value;
  }
  if (typeof price === 'number') out.pricePence = toPence(price);
  if (typeof originalPrice === 'number') out.originalPricePence = toPence(originalPrice);
  else if (originalPrice === null) out.originalPricePence = null;
  if (out.images) out.images = out.images.map((image) => ({ ...image, url: assets.toStored(image.url) }));
  return out;
}

/** Reads and admin writes of products. Stock moves through StockService, under the same per-product lock. */
@Injectable()
export class ProductsService {
  private readonly assets: AssetUrls;
  private readonly toJson: (p: LeanProduct) => ProductJson;

  constructor(
    @InjectModel(Product.name) private readonly products: Model<Product>,
    private readonly locks: ProductLocks,
    private readonly cache: CatalogCache,
    private readonly events: EventBus,
    config: CatalogConfig,
  ) {
    this.assets = assetUrlsOf(config);
    this.toJson = (p) => toProductJson(p, this.assets.toPublic);
  }

  // ---------------------------------------- public reads from the database (published only): the read model
  // answers them (read-model/); these run while Redis is away, and are what the read model is tested against.

  async list(q: ProductListQuery): Promise<ProductJson[]> {
    let query = this.products.find(toMongoFilter(q), PRODUCT_PROJECTION).sort(toMongoSort(q.sortBy));
    if (q.limit > 0) query = query.limit(q.limit);
    return (await query.lean<LeanProduct[]>().exec()).map(this.toJson);
  }

  async newArrivals(): Promise<ProductJson[]> {
    const docs = await this.products
      .find({ isPublished: true }, PRODUCT_PROJECTION)
      .sort(NEWEST_FIRST)
      .limit(NEW_ARRIVALS_COUNT)
      .lean<LeanProduct[]>()
      .exec();
    return docs.map(this.toJson);
  }

  /** Most units sold by placed orders; rating (then reviews) breaks ties and decides while nothing is sold. */
  async bestSeller(): Promise<ProductJson> {
    const doc = await this.products
      .findOne({ isPublished: true }, PRODUCT_PROJECTION)
      .sort(BEST_SELLER_ORDER)
      .lean<LeanProduct>()
      .exec();
    if (!doc) throw new NotFoundException(NO_BEST_SELLER);
    return this.toJson(doc);
  }

  async similar(id: string): Promise<ProductJson[]> {
    const product = await this.products
      .findOne({ _id: id, isPublished: true }, { gender: 1, category: 1 })
      .lean()
      .exec();
    if (!product) throw new NotFoundException(PRODUCT_NOT_FOUND);
    const docs = await this.products
      .find(
        { isPublished: true, gender: product.gender, category: product.category, _id: { $ne: product._id } },
        PRODUCT_PROJECTION,
      )
      .sort(SIMILAR_ORDER)
      .limit(SIMILAR_COUNT)
      .lean<LeanProduct[]>()
      .exec();
    return docs.map(this.toJson);
  }

  async findPublished(id: string): Promise<ProductJson> {
    const doc = await this.products
      .findOne({ _id: id, isPublished: true }, PRODUCT_PROJECTION)
      .lean<LeanProduct>()
      .exec();
    if (!doc) throw new NotFoundException(PRODUCT_NOT_FOUND);
    return this.toJson(doc);
  }

  // ------------------------------------------------------------------ admin

  async listAll(): Promise<ProductJson[]> {
    const docs = await this.products.find({}, PRODUCT_PROJECTION).sort(NEWEST_FIRST).lean<LeanProduct[]>().exec();
    return docs.map(this.toJson);
  }

  /** Every product, published or not (the admin dashboard's count). */
  async count(): Promise<number> {
    return this.products.estimatedDocumentCount().exec();
  }

  async findAny(id: string): Promise<ProductJson> {
    const doc = await this.products.findById(id, PRODUCT_PROJECTION).lean<LeanProduct>().exec();
    if (!doc) throw new NotFoundException(PRODUCT_NOT_FOUND);
    return this.toJson(doc);
  }

  async create(dto: CreateProductDto): Promise<ProductJson> {
    const fields = toStored(dto, this.assets);
    const explicitSku = fields.sku !== undefined;
    for (let attempt = 1; ; attempt++) {
      const sku = fields.sku ?? `NFL-${randomBytes(4).toString('hex').toUpperCase()}`;
      try {
        const doc = await this.products.create({ ...fields, sku });
        await this.changed(String(doc._id));
        return this.findAny(String(doc._id));
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        // Only the sku is unique; a generated one that collided is simply drawn again.
        if (explicitSku || attempt >= 5) throw new BadRequestException(SKU_EXISTS);
      }
    }
  }

  async update(id: string, dto: UpdateProductDto): Promise<ProductJson> {
    const fields = toStored(dto, this.assets);
    await this.locks.withProduct(id, async () => {
      const doc = await this.products.findById(id).exec();
      if (!doc) throw new NotFoundException(PRODUCT_NOT_FOUND);
      const { originalPricePence, ...rest } = fields;
      doc.set(rest);
      if (originalPricePence === null) doc.set('originalPricePence', undefined);
      else if (originalPricePence !== undefined) doc.set('originalPricePence', originalPricePence);
      try {
        await doc.save();
      } catch (err) {
        if (isDuplicateKeyError(err)) throw new BadRequestException(SKU_EXISTS);
        throw err;
      }
    });
    await this.changed(id);
    return this.findAny(id);
  }

  async remove(id: string): Promise<void> {
    await this.locks.withProduct(id, async () => {
      const result = await this.products.deleteOne({ _id: id }).exec();
      if (result.deletedCount === 0) throw new NotFoundException(PRODUCT_NOT_FOUND);
    });
    await this.cache.productsEdited([id]);
    this.events.notify<ProductDeletedEvent>(EVENTS.catalog.productDeleted, { productId: id });
  }

  /** After an admin write: every replica's read model reloads the product, and other services hear of it. */
  private async changed(productId: string): Promise<void> {
    await this.cache.productsEdited([productId]);
    this.events.notify<ProductChangedEvent>(EVENTS.catalog.productChanged, { productId });
  }
}
