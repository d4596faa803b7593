import { toPence, variantCells } from '@shop/contracts';
import type { Model } from 'mongoose';
import { Types } from 'mongoose';
import { isDuplicateKeyError } from '@shop/nest-common';
import type { Product } from '../products/product.schema';
import { VariantSku, VariantSkuSchema } from '../variants/variant-sku.schema';
import { defaultVariantSku, skuKey, stockOf, type StoredVariant } from '../variants/variants';
import { ART_VIEWS, renderArt, VIEW_NAMES, type ArtSpec } from './art';
import { SEED_PRODUCTS, type SeedProduct } from './products.data';
import { TEAMS } from './teams.data';

/** Seed art is served (drawn on request) under this path; the gateway proxies /uploads to catalog. */
export const SEED_ART_PATH = '/uploads/seed';

export function artSlug(p: SeedProduct): string {
  return p.sku.toLowerCase();
}

/** A stable shirt number for art that asks for none (10–98, from the SKU). */
function backNumber(sku: string): string {
  let h = 0;
  for (const c of sku) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return String(10 + (h % 89));
}

export function artSpecFor(p: SeedProduct): ArtSpec {
  const team = TEAMS[p.brand];
  const base = {
    kind: p.art.kind,
    wordmark: team.wordmark,
    abbr: team.abbr,
    number: p.art.number ?? backNumber(p.sku),
  };
  switch (p.art.style) {
    case 'away':
      return { ...base, body: '#F4F4F2', trim: team.primary, accent: team.secondary, text: team.primary };
    case 'alt':
      return { ...base, body: team.secondary, trim: team.primary, accent: team.accent, text: team.primary };
    case 'pink':
      return { ...base, body: '#F4A6C1', trim: team.primary, accent: '#FFFFFF', text: '#FFFFFF' };
    case 'gray':
      return { ...base, body: '#A3A9B1', trim: team.primary, accent: team.secondary, text: team.primary };
    case 'black':
      return { ...base, body: '#17191E', trim: team.primary, accent: team.accent, text: '#FFFFFF' };
    case 'denim':
      return { ...base, body: '#3B5B8C', trim: team.primary, accent: '#E8D9B0', text: '#FFFFFF' };
    default:
      return { ...base, body: team.primary, trim: team.secondary, accent: team.accent, text: '#FFFFFF' };
  }
}

export function seedImages(p: SeedProduct): Array<{ url: string; altText: string }> {
  return Array.from({ length: ART_VIEWS }, (_, i) => ({
    url: `${SEED_ART_PATH}/${artSlug(p)}-${i + 1}.svg`,
    altText: `${p.name}, ${VIEW_NAMES[i]}`,
  }));
}

let specs: Map<string, ArtSpec> | undefined;
const rendered = new Map<string, string>();

/** The SVG of a seed image file name such as `gb-beanie-pom-2.svg`, or undefined when there is none. */
export function seedArtSvg(file: string): string | undefined {
  const match = /^([a-z0-9-]+)-(\d)\.svg$/.exec(file);
  if (!match) return undefined;
  const view = Number(match[2]);
  if (view < 1 || view > ART_VIEWS) return undefined;
  specs ??= new Map(SEED_PRODUCTS.map((p) => [artSlug(p), artSpecFor(p)]));
  const spec = specs.get(match[1]);
  if (!spec) return undefined;
  let svg = rendered.get(file);
  if (!svg) {
    svg = renderArt(spec, view);
    rendered.set(file, svg);
  }
  return svg;
}

/** A stable number from text (FNV-1a), so the seed's stock is the same on every run. */
function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}

/** Middle sizes sell and are stocked most. */
const SIZE_WEIGHT: Record<string, number> = { XS: 0.5, S: 0.8, M: 1.3, L: 1.3, XL: 0.9, XXL: 0.5 };

/**
 * A seed product's variants with realistic, uneven stock: its countInStock spread over its sizes × colours by
 * size (M and L most) and colour (the first, the team's own, most), with a deterministic jitter; then about one
 * variant in seven sold out and one in seven down to its last 1–5 units. The first colour's M and L (and a product
 * without sizes) always keep at least 8, so every product can still be bought as the storefront shows it first.
 */
export function seedVariants(p: Pick<SeedProduct, 'sku' | 'sizes' | 'colors' | 'countInStock'>): StoredVariant[] {
  const cells = variantCells(p.sizes, p.colors);
  const weights = cells.map(
    (cell, i) =>
      (cell.size ? (SIZE_WEIGHT[cell.size] ?? 1) : 1) *
      (cell.color === (p.colors[0] ?? null) ? 1.5 : 1) *
      (0.6 + (hashOf(`${p.sku}|${i}`) % 80) / 100),
  );
  const total = weights.reduce((sum, w) => sum + w, 0);
  const shares = weights.map((w) => (p.countInStock * w) / total);
  const stock = shares.map(Math.floor);
  // Largest remainders take the units floor() left over, so the split adds up to countInStock.
  const order = shares.map((share, i) => ({ i, rest: share - Math.floor(share) })).sort((a, b) => b.rest - a.rest);
  for (let k = 0; k < p.countInStock - stock.reduce((sum, n) => sum + n, 0); k++) stock[order[k % order.length].i]++;
  return cells.map((cell, i) => {
    const kept = cell.color === (p.colors[0] ?? null) && (cell.size === null || cell.size === 'M' || cell.size === 'L');
    const roll = hashOf(`${p.sku}|${cell.size}|${cell.color}|stock`) % 100;
    const countInStock = kept ? Math.max(stock[i], 8) : roll < 14 ? 0 : roll < 28 ? 1 + (roll % 5) : stock[i];
    return { sku: defaultVariantSku(p.sku, cell), size: cell.size, color: cell.color, countInStock, soldCount: 0 };
  });
}

/** The seed products as documents, createdAt spread back from `now`. */
export function seedDocuments(now = Date.now()) {
  return SEED_PRODUCTS.map((p) => {
    const at = new Date(now - p.daysAgo * 86_400_000);
    const variants = seedVariants(p);
    return {
      _id: new Types.ObjectId(),
      name: p.name,
      description: p.description,
      pricePence: toPence(p.price),
      ...(p.originalPrice !== undefined ? { originalPricePence: toPence(p.originalPrice) } : {}),
      countInStock: stockOf(variants),
      variants,
      sku: p.sku,
      category: p.category,
      brand: p.brand,
      sizes: p.sizes,
      colors: p.colors,
      collections: p.collections,
      material: p.material,
      gender: p.gender,
      images: seedImages(p),
      // no reviews yet: ratings come from reviews buyers write (issue 27)
      rating: 0,
      numReviews: 0,
      isFeatured: p.isFeatured ?? false,
      isPublished: true,
      tags: p.tags ?? [],
      soldCount: 0,
      holds: {},
      hasHolds: false,
      returnedCheckouts: [],
      stockVersion: 0,
      createdAt: at,
      updatedAt: at,
    };
  });
}

/** The register of variant SKUs on the products' connection (see VariantSkus). */
export function variantSkuModel(products: Model<Product>): Model<VariantSku> {
  return (
    (products.db.models[VariantSku.name] as Model<VariantSku> | undefined) ??
    products.db.model(VariantSku.name, VariantSkuSchema)
  );
}

/** Claims the documents' variant SKUs in the register, as an admin create would (insertMany: one round trip a batch). */
export async function registerVariantSkus(
  products: Model<Product>,
  docs: ReadonlyArray<{ _id: Types.ObjectId; variants: StoredVariant[] }>,
): Promise<void> {
  const claimedAt = new Date();
  const claims = docs.flatMap((d) =>
    d.variants.map((v) => ({ _id: skuKey(v.sku), productId: d._id.toHexString(), sku: v.sku, claimedAt })),
  );
  if (!claims.length) return;
  try {
    await variantSkuModel(products).collection.insertMany(claims as never[], { ordered: false });
  } catch (err) {
    // A SKU left claimed by a product removed behind the service's back: taken over once found abandoned.
    if (!isDuplicateKeyError(err)) throw err;
  }
}

/**
 * Seeds the catalogue into an empty products collection; does nothing when any product exists.
 * Documents go through the model's validation first, so a bad data row fails loudly. Their variant SKUs are
 * claimed in the register before the products are stored.
 */
export async function seedCatalogue(products: Model<Product>): Promise<{ inserted: number }> {
  await products.init();
  if ((await products.estimatedDocumentCount()) > 0) return { inserted: 0 };
  const docs = seedDocuments();
  for (const doc of docs) await products.validate(doc);
  await registerVariantSkus(products, docs);
  await products.collection.insertMany(docs);
  return { inserted: docs.length };
}
