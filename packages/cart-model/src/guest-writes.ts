import { BROKEN_TEXT, GUEST_ID_PATTERN, MAX_CART_LINE_QUANTITY } from '@shop/contracts';
import type { CartOwner } from './stored-cart';

/** The Redis key of a cart's lock (a user cart's changes, a merge): the deployment's namespace, then this. */
export function cartLockKey(namespace: string, owner: CartOwner): string {
  return `${namespace}cart:lock:${owner.kind}:${owner.id}`;
}

/**
 * Writes a guest cart (KEYS[1]) with its expiry (ARGV[3] seconds) only if it still holds ARGV[1] ('' = no cart) and
 * nobody holds its lock (KEYS[2], taken by a merge): one script, so nothing can come between the check and the
 * write. Answers 'saved', 'changed' (read it again, change it again) or 'locked' (wait for the lock). Every writer of
 * guest carts writes with it: the cart service, and the gateway's guest adds.
 */
export const GUEST_CART_COMPARE_AND_SET = `
if redis.call('exists', KEYS[2]) == 1 then return 'locked' end
if (redis.call('get', KEYS[1]) or '') ~= ARGV[1] then return 'changed' end
redis.call('set', KEYS[1], ARGV[2], 'EX', ARGV[3])
return 'saved'`;

/** What a guest cart's compare-and-set did. */
export type CompareAndSetOutcome = 'saved' | 'changed' | 'locked';

/** A guest's add as the cart's ValidationPipe and owner rules give it. */
export interface GuestAdd {
  owner: CartOwner;
  line: { productId: string; quantity: number; size?: string; color?: string };
}

/** ProductIdField, after its trim and lower-casing. */
const PRODUCT_ID = /^[0-9a-f]{24}$/;
/** OptionField's MaxLength: a string this many UTF-16 units long or shorter passes it whatever it holds. */
const MAX_OPTION_LENGTH = 50;

/** An option (size, colour) as OptionField gives it: absent, or trimmed text of at most 50 units. */
function option(value: unknown): string | undefined | null {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed.length <= MAX_OPTION_LENGTH ? trimmed : null;
}

/**
 * A guest add's parsed body (after the cart's JSON body checks) as AddToCartDto and cartOwner() would give it, when
 * every field is plainly right: productId a 24-hex id (any case, spaces around), quantity an integer 1–99, size and
 * colour absent or short text, a well-formed guestId, no userId (or the null / '' that Rabbit-family clients send).
 * Other fields are ignored, as the pipe's whitelist strips them. Undefined for anything else, which the pipe then
 * answers. services/cart/src/cart/dto/well-formed.spec.ts holds each answer against the pipe's.
 */
export function wellFormedGuestAdd(body: unknown): GuestAdd | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { productId, quantity, size, color, guestId, userId } = body as Record<string, unknown>;
  if (typeof productId !== 'string' || typeof guestId !== 'string') return undefined;
  if (!(userId === undefined || userId === null || userId === '')) return undefined;
  if (typeof quantity !== 'number' || !Number.isInteger(quantity)) return undefined;
  if (quantity < 1 || quantity > MAX_CART_LINE_QUANTITY) return undefined;
  const id = productId.trim().toLowerCase();
  if (!PRODUCT_ID.test(id) || !GUEST_ID_PATTERN.test(guestId)) return undefined;
  const sizeText = option(size);
  const colorText = option(color);
  if (sizeText === null || colorText === null) return undefined;
  return {
    owner: { kind: 'guest', id: guestId },
    line: {
      productId: id,
      quantity,
      ...(sizeText === undefined ? {} : { size: sizeText }),
      ...(colorText === undefined ? {} : { color: colorText }),
    },
  };
}

/** The fields of an add's body (AddToCartDto, and the owner ids). */
const ADD_FIELDS = new Set(['productId', 'quantity', 'size', 'color', 'guestId', 'userId']);

/**
 * A guest add that a writer other than the cart service (the gateway) may carry out itself: a JSON object of only
 * the add's own fields, each plainly right (wellFormedGuestAdd), its size and colour free of the broken text the
 * cart's body check refuses. Then the cart's checks before its rules would pass it unchanged; anything else is
 * undefined, and goes to the cart service, whose answer it is.
 */
export function plainGuestAdd(body: unknown): GuestAdd | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  for (const key of Object.keys(body)) if (!ADD_FIELDS.has(key)) return undefined;
  const { size, color } = body as { size?: unknown; color?: unknown };
  if ((typeof size === 'string' && BROKEN_TEXT.test(size)) || (typeof color === 'string' && BROKEN_TEXT.test(color)))
    return undefined;
  return wellFormedGuestAdd(body);
}
