// Local storage (docs/product.md#entities): userInfo, userToken, guestId (guest_<timestamp>), cart.
import type { CartJson, PublicUser } from '@shop/contracts';
import { GUEST_ID_PATTERN } from '@shop/contracts';

export const STORAGE_KEYS = {
  user: 'userInfo',
  token: 'userToken',
  guestId: 'guestId',
  cart: 'cart',
} as const;

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null; // storage disabled (private mode, a sandboxed frame): the shop still works for this page
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // full or disabled storage: keep going with what is in memory
  }
}

function readJson<T>(key: string, valid: (v: unknown) => v is T): T | null {
  const raw = read(key);
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return valid(value) ? value : null;
  } catch {
    return null;
  }
}

const isUser = (v: unknown): v is PublicUser =>
  typeof v === 'object' && v !== null && typeof (v as PublicUser)._id === 'string' && 'role' in v;

const isCart = (v: unknown): v is CartJson =>
  typeof v === 'object' && v !== null && Array.isArray((v as CartJson).products);

/** A new guest id: `guest_` followed by the time in milliseconds (docs/product.md#entities). */
export function newGuestId(now: number = Date.now()): string {
  return `guest_${now}`;
}

export const storage = {
  user: () => readJson(STORAGE_KEYS.user, isUser),
  token: () => read(STORAGE_KEYS.token),
  cart: () => readJson(STORAGE_KEYS.cart, isCart),
  /** The stored guest id, or a new one (stored at once) when there is none or it is malformed. */
  guestId: (): string => {
    const stored = read(STORAGE_KEYS.guestId);
    if (stored && GUEST_ID_PATTERN.test(stored)) return stored;
    const fresh = newGuestId();
    write(STORAGE_KEYS.guestId, fresh);
    return fresh;
  },
  setSession: (user: PublicUser | null, token: string | null) => {
    write(STORAGE_KEYS.user, user ? JSON.stringify(user) : null);
    write(STORAGE_KEYS.token, token);
  },
  setGuestId: (guestId: string) => write(STORAGE_KEYS.guestId, guestId),
  setCart: (cart: CartJson | null) => write(STORAGE_KEYS.cart, cart ? JSON.stringify(cart) : null),
};
