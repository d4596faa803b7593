import type { IncomingMessage } from 'node:http';
import type { Redis } from 'ioredis';
import {
  guestCartKey,
  plainGuestReadId,
  plainStoredGuestCart,
  pricedCart,
  weakEtagOf,
  type CartProduct,
} from '@shop/cart-model';
import type { CatalogueEntry, CatalogueIndex } from '@shop/catalog-read-model';
import type { CartCatalogueProduct } from './cart-products';

/** A guest cart answer the gateway made itself: the JSON and its ETag, as the cart service would send them. */
export interface GuestCartAnswer {
  json: string;
  etag: string;
}

export interface GuestCartReads {
  /**
   * The guest id of a request this may answer: a GET of exactly `/api/cart?guestId=<well-formed id>`, no token, not
   * conditional, no body. Else undefined (the request is proxied).
   */
  plainRead(req: IncomingMessage): string | undefined;
  /** The cart service's answer to that read, made here; undefined whenever this cannot be sure of it (proxy then). */
  answer(guestId: string): Promise<GuestCartAnswer | undefined>;
}

const READ_PATH = '/api/cart?';

/**
 * An answer made, kept for the next read of the same cart (a shopper's cart is read on every page, and changes far
 * less often): the same answer while the stored string is the same and each line's product is the same catalogue
 * entry with the same bytes (a price change makes a new entry, a stock write new bytes) — all that pricing reads.
 */
interface KeptAnswer {
  raw: string | null;
  entries: CatalogueEntry[];
  bodies: Buffer[];
  answer: GuestCartAnswer;
}
/** At most this many kept answers (about 1.5 KB each). */
const KEPT_ANSWERS = 10_000;

/**
 * A guest's cart read answered by the gateway, without the hop to the cart service: one Redis GET of the guest's
 * cart (the cart service's read is that GET, and it writes nothing unless a product is gone) and pricing from the
 * gateway's copy of the catalogue, with the cart service's own pricing and stored format (`@shop/cart-model`).
 *
 * It answers only when it is sure of giving the cart service's answer, and passes everything else on to it:
 * - the request: a GET of exactly `/api/cart?guestId=<well-formed guest id>`, no Authorization (a token's cart is the
 *   cart's business, and a bad token its 401), no If-None-Match / If-Modified-Since (its 304), no body;
 * - the catalogue copy current — at exactly the version the gateway follows, no catalogue write through this gateway
 *   unseen — both before the GET and when pricing (the pricing then runs without awaiting anything);
 * - the stored cart missing or plainly the cart's own format (`isPlainGuestCart`); a Redis error, an odd value: pass;
 * - every line's product in the copy, with a plain name, image and price in pence. A product the copy lacks (deleted,
 *   unpublished, unknown) makes the cart drop the line with a write: the cart's to do.
 * The answer's bytes are then `JSON.stringify` of `pricedCart` and its ETag Express's weak one, as the cart sends.
 */
export function createGuestCartReads(
  redis: Redis,
  namespace: string,
  catalogue: () => CatalogueIndex | undefined,
  productOf: (entry: CatalogueEntry | undefined) => CartCatalogueProduct | undefined,
): GuestCartReads {
  /** The answers made, by guest id, least recently used first. */
  const answers = new Map<string, KeptAnswer>();
  /** Whether every line's product is still the catalogue entry, with the same bytes, that the answer priced. */
  const stillPriced = (kept: KeptAnswer, index: CatalogueIndex): boolean =>
    kept.entries.every((entry, n) => index.get(entry._id) === entry && entry.body === kept.bodies[n]);
  return {
    plainRead(req) {
      const url = req.url ?? '';
      if (req.method !== 'GET' || !url.startsWith(READ_PATH)) return undefined;
      const h = req.headers;
      if (h.authorization !== undefined || h['if-none-match'] !== undefined || h['if-modified-since'] !== undefined)
        return undefined;
      if (h['transfer-encoding'] !== undefined || !(h['content-length'] === undefined || h['content-length'] === '0'))
        return undefined;
      return plainGuestReadId(url.slice(READ_PATH.length));
    },

    // Every `undefined` leaves the read to the cart service.
    async answer(guestId) {
      if (!catalogue()) return undefined;
      let raw: string | null;
      try {
        raw = await redis.get(guestCartKey(namespace, guestId));
      } catch {
        return undefined;
      }
      // From here on nothing is awaited: the copy checked now is the copy priced from.
      const index = catalogue();
      if (!index) return undefined;
      const kept = answers.get(guestId);
      if (kept && kept.raw === raw && stillPriced(kept, index)) {
        answers.delete(guestId); // the most recently used last
        answers.set(guestId, kept);
        return kept.answer;
      }
      const cart = plainStoredGuestCart(raw);
      if (cart === undefined) return undefined;
      const priced = new Map<string, CartProduct>();
      const entries: CatalogueEntry[] = [];
      for (const line of cart?.lines ?? []) {
        const entry = index.get(line.productId);
        const product = productOf(entry);
        if (!product) return undefined;
        priced.set(line.productId, product.priced);
        entries.push(entry!);
      }
      const json = JSON.stringify(pricedCart({ kind: 'guest', id: guestId }, cart, (id) => priced.get(id)));
      const answer = { json, etag: weakEtagOf(json) };
      answers.delete(guestId);
      answers.set(guestId, { raw, entries, bodies: entries.map((e) => e.body), answer });
      if (answers.size > KEPT_ANSWERS) answers.delete(answers.keys().next().value!);
      return answer;
    },
  };
}
