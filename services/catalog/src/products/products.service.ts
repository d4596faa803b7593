import {
  BadRequestException,
  ConflictException,
  Injectable,
  NotFoundException,
  ServiceUnavailableException,
} from '@nestjs/common';
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
import {
  EVENTS,
  toPence,
  type LowStockJson,
  type LowStockVariantJson,
  type ProductChangedEvent,
  type ProductDeletedEvent,
  type ProductJson,
} from '@shop/contracts';
import { EventBus, isDuplicateKeyError } from '@shop/nest-common';
import { Error as MongooseError, Types, type Model } from 'mongoose';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { CatalogCache } from '../cache/catalog-cache';
import { assetUrlsOf, type AssetUrls } from '../config/asset-urls';
import { CatalogConfig } from '../config/catalog.config';
import { planVariants } from '../variants/variant-plan';
import { VariantSkus } from '../variants/variant-skus';
import { keyString, skuKey, stockOf, variantLabel, variantsOf, type StoredVariant } from '../variants/variants';
import { FOREIGN_IMAGE } from './dto/product-fields';
import { CreateProductDto, UpdateProductDto } from './dto/product.dto';
import { PRODUCT_PROJECTION, toProductJson } from './product.mapper';
import { ProductLocks } from './product-locks';
import { Product, type LeanProduct } from './product.schema';

export const PRODUCT_NOT_FOUND = 'Product not found';
export const SKU_EXISTS = 'SKU already exists';
export const NO_BEST_SELLER = 'No best seller found';

type ProductFields = Omit<CreateProductDto, 'price' | 'originalPrice' | 'variants' | 'countInStock'> & {
  pricePence?: number;
  originalPricePence?: number | null;
};

/** How often an admin edit of the variants is planned again when a sale changed the stock under it. */
const STOCK_EDIT_ATTEMPTS = 20;

/**
 * The writable fields of a DTO but stock, in storage form (pence, relative image URLs), leaving out what was not
 * sent; 400 for an image that is not the shop's own (AssetUrls.isShopImage). Stock (`variants`, a bare
 * `countInStock`) goes through planVariants.
 */
function toStored(dto: CreateProductDto | UpdateProductDto, assets: AssetUrls): ProductFields {
  const { price, originalPrice, variants, countInStock, ...rest } = dto;
  const out: ProductFields = {} as ProductFields;
  for (const [key, value] of Object.entries(rest)) {
    if (value !== undefined && value !== null) (out as Record<string, unknown>)[key] = value;
  }
  if (typeof price === 'number') out.pricePence = toPence(price);
  if (typeof originalPrice === 'number') out.originalPricePence = toPence(originalPrice);
  else if (originalPrice === null) out.originalPricePence = null;
  if (out.images) out.images = out.images.map((image) => ({ ...image, url: assets.toStored(image.url) }));
  if (out.images?.some((image) => !assets.isShopImage(image.url))) throw new BadRequestException(FOREIGN_IMAGE);
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
    private readonly skus: VariantSkus,
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

  /**
   * Creates a product with one variant per size × colour: stock from `variants` (0 for cells left out) or, for a
   * product with one variant, a bare countInStock. Its variant SKUs are claimed in the register first (400 naming a
   * SKU another product has), under the new product's lock.
   */
  async create(dto: CreateProductDto): Promise<ProductJson> {
    const fields = toStored(dto, this.assets);
    const explicitSku = fields.sku !== undefined;
    for (let attempt = 1; ; attempt++) {
      const sku = fields.sku ?? `NFL-${randomBytes(4).toString('hex').toUpperCase()}`;
      const plan = planVariants({
        productSku: sku,
        sizes: fields.sizes ?? [],
        colors: fields.colors ?? [],
        current: [],
        variants: dto.variants,
        countInStock: dto.countInStock,
      });
      if (await this.products.exists({ sku }).exec()) {
        if (explicitSku || attempt >= 5) throw new BadRequestException(SKU_EXISTS);
        continue;
      }
      const _id = new Types.ObjectId();
      const id = _id.toHexString();
      const created = await this.locks.withProduct(id, async () => {
        const claimed = await this.skus.claim(
          id,
          plan.variants.map((v) => v.sku),
        );
        try {
          await this.products.create({
            ...fields,
            _id,
            sku,
            variants: plan.variants,
            countInStock: stockOf(plan.variants),
          });
          return true;
        } catch (err) {
          await this.skus.release(id, claimed);
          if (!isDuplicateKeyError(err)) throw err;
          return false;
        }
      });
      if (created) {
        await this.changed(id);
        return this.findAny(id);
      }
      // Only the sku is unique; a generated one that collided is simply drawn again.
      if (explicitSku || attempt >= 5) throw new BadRequestException(SKU_EXISTS);
    }
  }

  /**
   * Any subset of the fields. Variants follow the sizes and colours: a new cell starts at 0, a cell no longer
   * offered is removed — refused (409) while a checkout holds units of it. Stock is set per variant (`variants`),
   * or with a bare countInStock for a product with one variant (400 for one with several).
   */
  async update(id: string, dto: UpdateProductDto): Promise<ProductJson> {
    const fields = toStored(dto, this.assets);
    // Under the product's lock (admin edits take turns: the SKU register is claimed and released around the write),
    // but holds and sales take no lock: the write applies only over the stock it read, else it is planned again.
    await this.locks.withProduct(id, async () => {
      for (let attempt = 1; !(await this.updateOnce(id, fields, dto)); attempt++) {
        if (attempt >= STOCK_EDIT_ATTEMPTS) throw new ServiceUnavailableException('The product is changing: try again');
        await sleep(Math.min(50, 5 * 2 ** attempt) * (0.5 + Math.random()));
      }
    });
    await this.changed(id);
    return this.findAny(id);
  }

  /** One try of update: false when the stock changed between its read and its write (nothing was written). */
  private async updateOnce(id: string, fields: ProductFields, dto: UpdateProductDto): Promise<boolean> {
    const doc = await this.products.findById(id).exec();
    if (!doc) throw new NotFoundException(PRODUCT_NOT_FOUND);
    const current = doc.toObject() as LeanProduct;
    const before = variantsOf(current);
    const plan = planVariants({
      productSku: fields.sku ?? current.sku,
      sizes: fields.sizes ?? current.sizes ?? [],
      colors: fields.colors ?? current.colors ?? [],
      current: before,
      variants: dto.variants,
      countInStock: dto.countInStock,
    });
    if (plan.removed.length) this.refuseRemovingHeld(current, plan.removed);
    if (fields.sku !== undefined && fields.sku !== current.sku) {
      if (await this.products.exists({ sku: fields.sku, _id: { $ne: current._id } }).exec())
        throw new BadRequestException(SKU_EXISTS);
    }
    const claimed = await this.skus.claim(
      id,
      plan.variants.map((v) => v.sku),
    );
    const { originalPricePence, ...rest } = fields;
    doc.set(rest);
    if (originalPricePence === null) doc.set('originalPricePence', undefined);
    else if (originalPricePence !== undefined) doc.set('originalPricePence', originalPricePence);
    doc.set('variants', plan.variants);
    doc.set('countInStock', stockOf(plan.variants));
    if (doc.isModified('variants') || doc.isModified('countInStock')) {
      // The variants are written whole, from this read: only over the same stock.
      doc.set('stockVersion', (current.stockVersion ?? 0) + 1);
      doc.$where = { stockVersion: current.stockVersion ?? null };
    }
    try {
      await doc.save();
    } catch (err) {
      await this.skus.release(id, claimed);
      if (err instanceof MongooseError.DocumentNotFoundError) return false;
      if (isDuplicateKeyError(err)) throw new BadRequestException(SKU_EXISTS);
      throw err;
    }
    const kept = new Set(plan.variants.map((v) => skuKey(v.sku)));
    await this.skus.release(
      id,
      before.map((v) => v.sku).filter((sku) => !kept.has(skuKey(sku))),
    );
    return true;
  }

  async remove(id: string): Promise<void> {
    await this.locks.withProduct(id, async () => {
      const result = await this.products.deleteOne({ _id: id }).exec();
      if (result.deletedCount === 0) throw new NotFoundException(PRODUCT_NOT_FOUND);
      await this.skus.releaseAll(id);
    });
    await this.cache.productsEdited([id]);
    this.events.notify<ProductDeletedEvent>(EVENTS.catalog.productDeleted, { productId: id });
  }

  /** Every variant, published or not, with stock at or below the threshold: lowest first (the admin dashboard). */
  async lowStock(threshold: number): Promise<LowStockJson> {
    const low: Array<LowStockVariantJson & { order: number }> = [];
    const cursor = this.products
      .find({}, { name: 1, sku: 1, sizes: 1, colors: 1, countInStock: 1, soldCount: 1, variants: 1 })
      .sort({ name: 1, _id: 1 })
      .lean<LeanProduct>()
      .cursor({ batchSize: 1000 });
    for await (const doc of cursor) {
      const p = doc as LeanProduct;
      for (const v of variantsOf(p)) {
        if (v.countInStock > threshold) continue;
        low.push({
          productId: String(p._id),
          name: p.name,
          sku: v.sku,
          size: v.size,
          color: v.color,
          countInStock: v.countInStock,
          order: low.length,
        });
      }
    }
    low.sort((a, b) => a.countInStock - b.countInStock || a.order - b.order);
    return { threshold, variants: low.map(({ order: _order, ...v }) => v) };
  }

  /** 409 when a checkout holds units of a variant the write would remove (as read: the write is conditional on it). */
  private refuseRemovingHeld(product: LeanProduct, removed: StoredVariant[]): void {
    const held = new Map<string, number>();
    for (const hold of Object.values(product.holds ?? {})) {
      for (const line of hold.lines ?? []) {
        held.set(keyString(line), (held.get(keyString(line)) ?? 0) + line.quantity);
      }
    }
    for (const variant of removed) {
      const units = held.get(keyString(variant)) ?? 0;
      if (units > 0)
        throw new ConflictException(
          `${variantLabel(product.name, variant)} cannot be removed: ${units} ${units === 1 ? 'unit is' : 'units are'} held by a checkout in progress. Try again once it is paid or has expired`,
        );
    }
  }

  /** After an admin write: every replica's read model reloads the product, and other services hear of it. */
  private async changed(productId: string): Promise<void> {
    await this.cache.productsEdited([productId]);
    this.events.notify<ProductChangedEvent>(EVENTS.catalog.productChanged, { productId });
  }
}
