import type { ProductJson } from '@shop/contracts';
import { BackInStockForm } from '@/features/stock-alerts/BackInStockForm';
import WishlistButton from '@/features/wishlist/WishlistButton';

/**
 * What the product page adds under Add to cart once it has shown (its own chunk, issue 27's budget): the heart, and
 * "Email me when it's back" for a product with a sold-out size and colour.
 */
export default function ProductExtras({ product, size, color }: { product: ProductJson; size: string; color: string }) {
  return (
    <>
      <WishlistButton productId={product._id} productName={product.name} variant="labelled" className="-mt-4 mb-8" />
      <BackInStockForm product={product} size={size} color={color} />
    </>
  );
}
