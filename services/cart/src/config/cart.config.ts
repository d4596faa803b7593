import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { ServiceConfig } from '@shop/nest-common';

export class CartConfig extends ServiceConfig {
  /** A guest cart expires after this long without a write (sliding: every write starts it again). */
  @Type(() => Number)
  @IsInt()
  @Min(60)
  @Max(365 * 24 * 3600)
  GUEST_CART_TTL_SECONDS = 30 * 24 * 3600;

  /**
   * The longest this replica prices from its in-memory copy of a product. Catalog's change events drop a
   * copy at once; this bounds staleness if one is missed. 0 asks the catalog on every request.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  PRODUCT_CACHE_TTL_MS = 30_000;
}
