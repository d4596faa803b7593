import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';
import { DEFAULT_LOW_STOCK_THRESHOLD } from '@shop/contracts';
import { ServiceConfig } from '@shop/nest-common';
import fs from 'node:fs';
import path from 'node:path';

/** The repository root: the nearest folder above this file whose package.json declares workspaces. */
export function repoRoot(from = __dirname): string {
  let dir = from;
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg)) {
      try {
        if (JSON.parse(fs.readFileSync(pkg, 'utf8')).workspaces) return dir;
      } catch {
        // not JSON: keep looking
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}

export class CatalogConfig extends ServiceConfig {
  /** Where uploaded images are stored (created at boot). Default: <repo>/.data/uploads. */
  @IsString()
  @MinLength(1)
  UPLOAD_DIR = path.join(repoRoot(), '.data', 'uploads');

  /**
   * Base of the imageUrl an upload answers with. This service serves GET /uploads/* and the gateway
   * proxies /uploads, so the default is a path the browser loads through the gateway; a CDN in front
   * of /uploads would put its absolute URL here.
   */
  @Matches(/^(\/|https?:\/\/)\S*[^/]$/, {
    message: 'UPLOADS_PUBLIC_URL must be a path like /uploads or an http(s) URL, without a trailing slash',
  })
  UPLOADS_PUBLIC_URL = '/uploads';

  /**
   * Put before stored image paths (`/uploads/...`) in every answer, so that clients on other origins can load
   * them: the shop's public origin, e.g. https://shop.example.com. `relative` leaves them as paths. Unset: the
   * gateway's address in development, relative otherwise (see asset-urls.ts).
   */
  @IsOptional()
  @Matches(/^(relative|https?:\/\/[^\s/]+(\/\S*[^/])?)$/, {
    message: 'ASSET_URL_PREFIX must be `relative` or an http(s) URL without a trailing slash',
  })
  ASSET_URL_PREFIX?: string;

  /** Largest accepted upload, in bytes (5 MB: docs/api.md#uploads). */
  @Type(() => Number)
  @IsInt()
  @Min(1024)
  UPLOAD_MAX_BYTES = 5 * 1024 * 1024;

  /** How long a checkout's stock reservation holds its units before they return to the shelf. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(24 * 3600)
  RESERVATION_TTL_SECONDS = 15 * 60;

  /**
   * An expired hold whose checkout is paid (its order not placed yet) is kept this much longer before the sweeper asks
   * checkout again (seconds).
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(7 * 24 * 3600)
  PAID_HOLD_SECONDS = 24 * 3600;

  /** GET /api/admin/products/low-stock without ?threshold: variants with this many units or fewer. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  LOW_STOCK_THRESHOLD = DEFAULT_LOW_STOCK_THRESHOLD;

  /** How often this replica looks for expired reservations (ms). */
  @Type(() => Number)
  @IsInt()
  @Min(50)
  RESERVATION_SWEEP_MS = 5000;

  /**
   * How often this replica runs the back-in-stock sweep (ms): requests whose size and colour is in stock again are
   * triggered (a change event missed), triggered events the broker did not confirm are published again, lapsed
   * requests are deleted (where the database has no TTL index).
   */
  @Type(() => Number)
  @IsInt()
  @Min(50)
  STOCK_ALERT_SWEEP_MS = 60_000;

  /** Back-in-stock requests one address may make per hour (then 429). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  STOCK_ALERTS_PER_HOUR = 10;
}
