import { BadRequestException, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isDuplicateKeyError } from '@shop/nest-common';
import type { Model } from 'mongoose';
import { Product, type LeanProduct } from '../products/product.schema';
import { VariantSku, type LeanVariantSku } from './variant-sku.schema';
import { skuKey, variantsOf } from './variants';

/**
 * A claim older than this whose product does not carry the SKU was left by a writer that stopped between claiming
 * and writing its product (a crash, a lock that expired): it may be taken over.
 */
const ABANDONED_CLAIM_MS = 60_000;

export function skuExistsMessage(sku: string): string {
  return `SKU ${sku} already exists`;
}

/**
 * Keeps variant SKUs unique across the catalogue through the `variant_skus` register (see VariantSku). A writer
 * claims the SKUs its product will carry before writing the product and gives back those it no longer carries
 * after; all of it under the product's lock, so a product's claims change one writer at a time. A claim left by a
 * writer that stopped half-way blocks its SKU only until it is found abandoned.
 */
@Injectable()
export class VariantSkus {
  constructor(
    @InjectModel(VariantSku.name) private readonly register: Model<VariantSku>,
    @InjectModel(Product.name) private readonly products: Model<Product>,
  ) {}

  /**
   * Claims every SKU for the product (those it holds already are kept), answering the SKUs this call claimed (to
   * give back if the product's write fails). When one is another product's, nothing this call claimed is kept and
   * the answer is 400 `SKU <sku> already exists`.
   */
  async claim(productId: string, skus: readonly string[]): Promise<string[]> {
    const wanted = new Map(skus.map((sku) => [skuKey(sku), sku]));
    const held = await this.register
      .find({ _id: { $in: [...wanted.keys()] } }, { _id: 1, productId: 1 })
      .lean<Array<Pick<LeanVariantSku, '_id' | 'productId'>>>()
      .exec();
    const mine = new Set(held.filter((h) => h.productId === productId).map((h) => h._id));
    const fresh = [...wanted].filter(([key]) => !mine.has(key)).map(([, sku]) => sku);
    // A product written behind the register's back (before it existed, or by a tool) may carry a SKU it lacks.
    if (fresh.length) {
      const carrier = await this.products
        .findOne({ 'variants.sku': { $in: fresh }, _id: { $ne: productId } }, { variants: 1 })
        .lean<LeanProduct>()
        .exec();
      const clash = carrier && fresh.find((sku) => carrier.variants?.some((v) => skuKey(v.sku) === skuKey(sku)));
      if (clash) throw new BadRequestException(skuExistsMessage(clash));
    }
    const made: string[] = [];
    for (const [key, sku] of wanted) {
      if (mine.has(key)) continue;
      if (!(await this.tryClaim(productId, key, sku))) {
        await this.releaseKeys(productId, made);
        throw new BadRequestException(skuExistsMessage(sku));
      }
      made.push(key);
    }
    return made;
  }

  /** The SKU, or the first of `<sku>-2`, `<sku>-3`… that is free, claimed for the product (the migration's way). */
  async claimFree(productId: string, sku: string): Promise<string> {
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? sku : `${sku}-${n}`;
      if (await this.tryClaim(productId, skuKey(candidate), candidate)) return candidate;
    }
  }

  /** Gives back these SKUs of the product (a SKU another product holds is left alone). */
  release(productId: string, skus: readonly string[]): Promise<void> {
    return this.releaseKeys(productId, skus.map(skuKey));
  }

  async releaseAll(productId: string): Promise<void> {
    await this.register.deleteMany({ productId }).exec();
  }

  private async releaseKeys(productId: string, keys: string[]): Promise<void> {
    if (keys.length) await this.register.deleteMany({ _id: { $in: keys }, productId }).exec();
  }

  /** True when the product holds the SKU now (claimed by this call, or before). */
  private async tryClaim(productId: string, key: string, sku: string): Promise<boolean> {
    for (let attempt = 1; attempt <= 3; attempt++) {
      try {
        await this.register.create({ _id: key, productId, sku, claimedAt: new Date() });
        return true;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
      const holder = await this.register.findById(key).lean<LeanVariantSku>().exec();
      if (!holder) continue; // given back meanwhile: try again
      if (holder.productId === productId) return true;
      if (!(await this.abandoned(holder))) return false;
      await this.register.deleteOne({ _id: key, productId: holder.productId, claimedAt: holder.claimedAt }).exec();
    }
    return false;
  }

  private async abandoned(claim: LeanVariantSku): Promise<boolean> {
    if (Date.now() - new Date(claim.claimedAt).getTime() < ABANDONED_CLAIM_MS) return false;
    const owner = await this.products
      .findById(claim.productId, { sku: 1, sizes: 1, colors: 1, variants: 1 })
      .lean<LeanProduct>()
      .exec()
      .catch(() => null);
    return !owner || !variantsOf(owner).some((v) => skuKey(v.sku) === claim._id);
  }
}
