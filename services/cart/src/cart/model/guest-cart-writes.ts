import type { CartOwner } from './stored-cart';

/** The Redis key of a cart's lock (a user cart's changes, a merge): the deployment's namespace, then this. */
export function cartLockKey(namespace: string, owner: CartOwner): string {
  return `${namespace}cart:lock:${owner.kind}:${owner.id}`;
}

/**
 * Writes a guest cart (KEYS[1]) with its expiry (ARGV[3] seconds) only if it still holds ARGV[1] ('' = no cart) and
 * nobody holds its lock (KEYS[2], taken by a merge): one script, so nothing can come between the check and the
 * write. Answers 'saved', 'changed' (read it again, change it again) or 'locked' (wait for the lock): two cart
 * replicas changing one guest cart take turns.
 */
export const GUEST_CART_COMPARE_AND_SET = `
if redis.call('exists', KEYS[2]) == 1 then return 'locked' end
if (redis.call('get', KEYS[1]) or '') ~= ARGV[1] then return 'changed' end
redis.call('set', KEYS[1], ARGV[2], 'EX', ARGV[3])
return 'saved'`;

/** What a guest cart's compare-and-set did. */
export type CompareAndSetOutcome = 'saved' | 'changed' | 'locked';
