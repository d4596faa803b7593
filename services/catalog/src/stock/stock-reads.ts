import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { ProductJson } from '@shop/contracts';
import type { Model } from 'mongoose';
import { PRODUCT_PROJECTION } from '../products/product.mapper';
import { Product, type LeanProduct } from '../products/product.schema';
import { CatalogueReadModel } from '../read-model/catalogue-read-model';

/**
 * A product as the stock code reads it before it writes: what prices a line, names its variant and shows it. From
 * the read model it has no holds (a hold is the database's alone), its variants no units sold, and its images
 * public URLs already.
 */
export type StockProduct = Pick<
  LeanProduct,
  'name' | 'pricePence' | 'sku' | 'sizes' | 'colors' | 'images' | 'variants' | 'isPublished'
> & { _id: unknown; holds?: LeanProduct['holds'] };

/**
 * The published products a cart line, a hold or a sale names, read from the catalogue's read model (as of a catalog
 * version read after the call began, as every public read is) instead of the database; from the database while the
 * version cannot be read. Nothing decides stock on this read alone: every write it plans is conditional on what the
 * database holds (the variant's SKU at its place, the units there, the hold's absence), and a refusal planned from
 * it is made again from the database before the caller hears it (StockService).
 */
@Injectable()
export class StockReads {
  constructor(
    private readonly model: CatalogueReadModel,
    @InjectModel(Product.name) private readonly products: Model<Product>,
  ) {}

  /** The published products among `ids`, by id (lower-case hex). */
  async published(ids: readonly string[]): Promise<Map<string, StockProduct>> {
    const index = await this.model.current();
    if (!index) return this.fromDatabase(ids);
    const found = new Map<string, StockProduct>();
    const missing: string[] = [];
    for (const id of ids) {
      const entry = index.get(id);
      if (entry) found.set(id, fromJson(JSON.parse(entry.body.toString('utf8')) as ProductJson, entry.pricePence));
      else missing.push(id);
    }
    // Not published, or gone: the database says so (a product the read model has not heard of yet is found there).
    if (missing.length) for (const [id, product] of await this.fromDatabase(missing)) found.set(id, product);
    return found;
  }

  /** The same, from the database (published products only). */
  async fromDatabase(ids: readonly string[]): Promise<Map<string, StockProduct>> {
    const docs = await this.products
      .find({ _id: { $in: ids }, isPublished: true }, PRODUCT_PROJECTION)
      .lean<LeanProduct[]>()
      .exec();
    return new Map(docs.map((p) => [String(p._id), p]));
  }
}

function fromJson(json: ProductJson, pricePence: number | undefined): StockProduct {
  return {
    _id: json._id,
    name: json.name,
    pricePence: pricePence ?? Math.round(json.price * 100),
    sku: json.sku,
    sizes: json.sizes,
    colors: json.colors,
    images: json.images,
    variants: json.variants.map((v) => ({ ...v, soldCount: 0 })),
    isPublished: true,
  };
}
