import { toPence } from '@shop/contracts';
import type { Model } from 'mongoose';
import { Types } from 'mongoose';
import type { Product } from '../products/product.schema';
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

/** The seed products as documents, createdAt spread back from `now`. */
export function seedDocuments(now = Date.now()) {
  return SEED_PRODUCTS.map((p) => {
    const at = new Date(now - p.daysAgo * 86_400_000);
    return {
      _id: new Types.ObjectId(),
      name: p.name,
      description: p.description,
      pricePence: toPence(p.price),
      ...(p.originalPrice !== undefined ? { originalPricePence: toPence(p.originalPrice) } : {}),
      countInStock: p.countInStock,
      sku: p.sku,
      category: p.category,
      brand: p.brand,
      sizes: p.sizes,
      colors: p.colors,
      collections: p.collections,
      material: p.material,
      gender: p.gender,
      images: seedImages(p),
      rating: p.rating,
      numReviews: p.numReviews,
      isFeatured: p.isFeatured ?? false,
      isPublished: true,
      tags: p.tags ?? [],
      soldCount: 0,
      stockJournal: [],
      createdAt: at,
      updatedAt: at,
    };
  });
}

/**
 * Seeds the catalogue into an empty products collection; does nothing when any product exists.
 * Documents go through the model's validation first, so a bad data row fails loudly.
 */
export async function seedCatalogue(products: Model<Product>): Promise<{ inserted: number }> {
  await products.init();
  if ((await products.estimatedDocumentCount()) > 0) return { inserted: 0 };
  const docs = seedDocuments();
  for (const doc of docs) await products.validate(doc);
  await products.collection.insertMany(docs);
  return { inserted: docs.length };
}
