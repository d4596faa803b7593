import type { StoredCart } from '../cart.model';

/** Whose cart: a signed-in user's, or a guest's (the shared package's type). */
export type { CartOwner } from '../model';

/** Where one kind of cart lives. Writes are whole carts: the repository serialises them per cart. */
export interface CartStore {
  load(id: string): Promise<StoredCart | null>;
  /** Writes the cart and returns it as stored (with its id and times). */
  save(id: string, cart: StoredCart): Promise<StoredCart>;
  remove(id: string): Promise<void>;
}
