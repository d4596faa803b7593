import { plainGuestReadId } from '@shop/cart-model';
import type { CartOwner } from '../storage/cart-store';

/**
 * The guest lane's shortcut past the ValidationPipe (class-transformer + class-validator cost a sixth of a guest
 * add's CPU, profiled: docs/performance.md "Performance: cart"). Each function recognises only input that the pipe
 * would accept unchanged and cartOwner() would give to a guest, and returns what they would make of it; anything
 * else — every input the pipe or cartOwner would refuse, and some they would accept — is undefined, and the lane
 * then runs the pipe, so every error message stays the pipe's. well-formed.spec.ts holds each answer against the
 * pipe's. The add's is the shared package's (the gateway's guest adds use it too).
 */
export { wellFormedGuestAdd, type GuestAdd } from '@shop/cart-model';

/**
 * Whose cart a guest read's query names, when it is just a well-formed guestId (the shared package's test, which
 * the gateway's guest reads use too).
 */
export function wellFormedGuestRead(query: string): CartOwner | undefined {
  const guestId = plainGuestReadId(query);
  return guestId === undefined ? undefined : { kind: 'guest', id: guestId };
}
