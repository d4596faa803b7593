import { Injectable, NotFoundException } from '@nestjs/common';
import type { ProductListQuery } from '../products/product-query';
import { NO_BEST_SELLER, PRODUCT_NOT_FOUND, ProductsService } from '../products/products.service';
import { selectBestSeller, selectList, selectNewArrivals, selectSimilar } from './catalogue-queries';
import { CatalogueReadModel } from './catalogue-read-model';
import { listResponse, productBytesOf, productResponse, type PublicResponse } from './public-response';

/**
 * The public catalogue reads (published products only), as bytes ready to send: from the read model, or from the
 * database while the catalog version cannot be read. Popularity lists, similar products and the best seller
 * depend on units sold, which their surrogate keys say.
 */
@Injectable()
export class PublicReads {
  constructor(
    private readonly model: CatalogueReadModel,
    private readonly database: ProductsService,
  ) {}

  async list(q: ProductListQuery): Promise<PublicResponse> {
    const bySales = q.sortBy === 'popularity';
    const index = await this.model.current();
    if (!index) return listResponse((await this.database.list(q)).map(productBytesOf), bySales);
    return listResponse(selectList(index, q), bySales);
  }

  async product(id: string): Promise<PublicResponse> {
    const index = await this.model.current();
    if (!index) return productResponse(productBytesOf(await this.database.findPublished(id)));
    const entry = index.get(id.toLowerCase());
    if (!entry) throw new NotFoundException(PRODUCT_NOT_FOUND);
    return productResponse(entry);
  }

  async similar(id: string): Promise<PublicResponse> {
    const index = await this.model.current();
    if (!index) return listResponse((await this.database.similar(id)).map(productBytesOf), true);
    const similar = selectSimilar(index, id.toLowerCase());
    if (!similar) throw new NotFoundException(PRODUCT_NOT_FOUND);
    return listResponse(similar, true);
  }

  async newArrivals(): Promise<PublicResponse> {
    const index = await this.model.current();
    if (!index) return listResponse((await this.database.newArrivals()).map(productBytesOf));
    return listResponse(selectNewArrivals(index));
  }

  async bestSeller(): Promise<PublicResponse> {
    const index = await this.model.current();
    if (!index) return productResponse(productBytesOf(await this.database.bestSeller()), true);
    const best = selectBestSeller(index);
    if (!best) throw new NotFoundException(NO_BEST_SELLER);
    return productResponse(best, true);
  }
}
