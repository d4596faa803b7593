import type { StoredCart } from '../cart.model';

/** Whose cart: a signed-in user's, or a guest's (the shared package's type). */
export type { CartOwner } from '../model';

/** Where one kind of cart lives. Writes are whole carts, by each store's compare-and-set (CartRepository.change). */
export interface CartStore {
  load(id: string): Promise<StoredCart | null>;
  remove(id: string): Promise<void>;
}
