import type { IncomingMessage } from 'node:http';
import type { Redis } from 'ioredis';
import {
  cartLockKey,
  GUEST_CART_COMPARE_AND_SET,
  guestCartKey,
  isRefusal,
  newCart,
  optionProblem,
  plainGuestAdd,
  plainStoredGuestCart,
  pricedCart,
  weakEtagOf,
  withLineAdded,
  type CartProduct,
  type CompareAndSetOutcome,
  type GuestAdd,
  type StoredCart,
} from '@shop/cart-model';
import type { CatalogueEntry, CatalogueIndex } from '@shop/catalog-read-model';
import type { GuestCartAnswer } from './cart-guest-reads';
import type { CartCatalogueProduct } from './cart-products';

/** A guest add carried out by the gateway: the cart service's answer to it (201 when it created the cart). */
export interface GuestAddAnswer extends GuestCartAnswer {
  status: 200 | 201;
}

export interface GuestCartAdds {
  /**
   * Whether this may carry out the request: a POST of exactly `/api/cart`, no token, a body of plain UTF-8 JSON of a
   * declared length up to 16 KB. Else the request is forwarded as it comes.
   */
  plainAdd(req: IncomingMessage): boolean;
  /**
   * The add, carried out here, and the cart service's answer to it; undefined when this cannot be sure of doing what
   * the cart service would — nothing was written then, and the request goes to the cart service. Rejects with
   * {@link AddOutcomeUnknown} when the write was sent but not answered (it may have been made).
   */
  answer(body: Buffer): Promise<GuestAddAnswer | undefined>;
}

/** The write of an add was sent to Redis and not answered: it may or may not have been made (a 503, never a retry). */
export class AddOutcomeUnknown extends Error {}

const ADD_PATH = '/api/cart';
/** A guest's add is a few hundred bytes (the cart service's guest lane takes up to this much too). */
const MAX_BODY = 16 * 1024;
/** The JSON bodies the cart service decodes as UTF-8 without asking iconv (anything else is forwarded). */
const JSON_UTF8 = /^application\/json\s*(;\s*charset="?utf-8"?\s*)?$/i;
/** Compare-and-set rounds lost to other writers of the same cart before this leaves the add to the cart service. */
const MAX_ROUNDS = 5;

type WithCompareAndSet = Redis & {
  guestCartCompareAndSet(cart: string, lock: string, expected: string, next: string, ttl: number): Promise<string>;
};

/**
 * A guest's add to cart carried out by the gateway, without the hop to the cart service — the add is the shop's most
 * frequent write, and that hop was half its cost (docs/performance.md "Performance: cart"). It writes exactly as the
 * cart service writes a guest cart, with the same shared pieces (`@shop/cart-model`): the body read as the cart's
 * pipe reads it (`plainGuestAdd`), the rules of a line (`optionProblem`, `withLineAdded`), the stored format and a
 * new cart's id, and the one compare-and-set script every writer of guest carts uses — so it and the cart service
 * (its other adds, changes, removals, merges) take turns on a cart and lose nothing, as two cart replicas do.
 *
 * It carries out only an add it is sure of, and leaves everything else to the cart service, so that every refusal,
 * error message and odd case stays the cart service's:
 * - the request and its body plainly a guest's add (no token, only the add's own fields, each plainly right);
 * - the catalogue copy current (as for guest reads) when the add is decided, its product and every product of the
 *   cart in it (a product not in the copy is not sold, or not known yet: the cart service's 404 or its pricing);
 * - the stored cart missing or plainly the cart service's own format;
 * - the rules refusing nothing (a size not offered, past the stock or 99, one line too many: the cart's 400 / 409);
 * - the compare-and-set saving it within a few rounds, with no merge holding the cart (the cart service waits).
 * Nothing is written unless all of that holds, and the answer — status, JSON and ETag — is the cart service's.
 */
export function createGuestCartAdds(
  redis: Redis,
  options: { namespace: string; ttlSeconds: number },
  catalogue: () => CatalogueIndex | undefined,
  productOf: (entry: CatalogueEntry | undefined) => CartCatalogueProduct | undefined,
  written: () => void,
): GuestCartAdds {
  const { namespace, ttlSeconds } = options;
  redis.defineCommand('guestCartCompareAndSet', { numberOfKeys: 2, lua: GUEST_CART_COMPARE_AND_SET });
  const scripted = redis as WithCompareAndSet;

  /** One round: read the cart, decide, write if unchanged. */
  const round = async (add: GuestAdd): Promise<GuestAddAnswer | 'changed' | undefined> => {
    const { owner, line } = add;
    const key = guestCartKey(namespace, owner.id);
    let raw: string | null;
    try {
      raw = await redis.get(key);
    } catch {
      return undefined;
    }
    const cart = plainStoredGuestCart(raw);
    if (cart === undefined) return undefined;
    // From here to the write nothing is awaited: the copy checked now is the copy decided and priced from.
    const index = catalogue();
    if (!index) return undefined;
    const lineKey = { productId: line.productId, size: line.size ?? '', color: line.color ?? '' };
    const product = productOf(index.get(lineKey.productId));
    if (!product || optionProblem(product.line, lineKey)) return undefined;
    const next = withLineAdded(cart ?? newCart(owner), lineKey, line.quantity, product.line);
    if (isRefusal(next)) return undefined;
    const priced = new Map<string, CartProduct>();
    for (const { productId } of next.lines) {
      const each = productOf(index.get(productId));
      if (!each) return undefined;
      priced.set(productId, each.priced);
    }
    const saved: StoredCart = { ...next, updatedAt: new Date().toISOString() };
    // The answer is made before the write, so that nothing can fail once the cart holds the add.
    const json = JSON.stringify(pricedCart(owner, saved, (id) => priced.get(id)));
    const answer: GuestAddAnswer = { status: raw === null ? 201 : 200, json, etag: weakEtagOf(json) };
    let outcome: CompareAndSetOutcome;
    try {
      outcome = (await scripted.guestCartCompareAndSet(
        key,
        cartLockKey(namespace, owner),
        raw ?? '',
        JSON.stringify(saved),
        ttlSeconds,
      )) as CompareAndSetOutcome;
    } catch (err) {
      throw new AddOutcomeUnknown(`guest cart write not answered: ${(err as Error).message}`);
    }
    if (outcome === 'changed') return 'changed';
    if (outcome !== 'saved') return undefined; // a merge holds the cart: the cart service waits for it
    written();
    return answer;
  };

  return {
    plainAdd(req) {
      if (req.method !== 'POST' || req.url !== ADD_PATH) return false;
      const h = req.headers;
      if (h.authorization !== undefined || h['transfer-encoding'] !== undefined || h['content-encoding'] !== undefined)
        return false;
      const length = Number(h['content-length']);
      return length > 0 && length <= MAX_BODY && JSON_UTF8.test(h['content-type'] ?? '');
    },

    // Every `undefined` leaves the add to the cart service, with nothing written.
    async answer(body) {
      if (!catalogue()) return undefined;
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        return undefined;
      }
      const add = plainGuestAdd(parsed);
      if (!add) return undefined;
      for (let rounds = 0; rounds < MAX_ROUNDS; rounds++) {
        const outcome = await round(add);
        if (outcome !== 'changed') return outcome;
      }
      return undefined;
    },
  };
}
