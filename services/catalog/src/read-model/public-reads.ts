import { Injectable, NotFoundException } from '@nestjs/common';
import { indexReads, SUGGESTIONS_MAX, type ProductListQuery } from '@shop/catalog-read-model';
import { NO_BEST_SELLER, PRODUCT_NOT_FOUND, ProductsService } from '../products/products.service';
import { CatalogueReadModel } from './catalogue-read-model';
import { listResponse, productBytesOf, productResponse, suggestResponse, type PublicResponse } from './public-response';

function found(response: PublicResponse | undefined, notFound: string): PublicResponse {
  if (!response) throw new NotFoundException(notFound);
  return response;
}

/**
 * The public catalogue reads (published products only), as bytes ready to send: from the read model (the shared
 * `indexReads`), or from the database while the catalog version cannot be read. Popularity lists, similar products
 * and the best seller depend on units sold, which their surrogate keys say.
 */
@Injectable()
export class PublicReads {
  constructor(
    private readonly model: CatalogueReadModel,
    private readonly database: ProductsService,
  ) {}

  async list(q: ProductListQuery): Promise<PublicResponse> {
    const index = await this.model.current();
    if (!index) return listResponse((await this.database.list(q)).map(productBytesOf), q.sortBy === 'popularity');
    return indexReads(index).list(q)!;
  }

  async product(id: string): Promise<PublicResponse> {
    const index = await this.model.current();
    if (!index) return productResponse(productBytesOf(await this.database.findPublished(id)));
    return found(indexReads(index).product(id), PRODUCT_NOT_FOUND);
  }

  async similar(id: string): Promise<PublicResponse> {
    const index = await this.model.current();
    if (!index) return listResponse((await this.database.similar(id)).map(productBytesOf), true);
    return found(indexReads(index).similar(id), PRODUCT_NOT_FOUND);
  }

  async newArrivals(): Promise<PublicResponse> {
    const index = await this.model.current();
    if (!index) return listResponse((await this.database.newArrivals()).map(productBytesOf));
    return indexReads(index).newArrivals()!;
  }

  /**
   * Suggestions for a parsed suggest query (undefined: too short, none). Without the read model, the database's
   * substring search, newest first, stands in: no typos, no "did you mean".
   */
  async suggest(text: string | undefined): Promise<PublicResponse> {
    if (text === undefined) return suggestResponse([]);
    const index = await this.model.current();
    if (!index) {
      const found = await this.database.list({ search: text, sortBy: 'newest', limit: SUGGESTIONS_MAX });
      return suggestResponse(found.map(productBytesOf));
    }
    return indexReads(index).suggest(text)!;
  }

  async bestSeller(): Promise<PublicResponse> {
    const index = await this.model.current();
    if (!index) return productResponse(productBytesOf(await this.database.bestSeller()), true);
    return found(indexReads(index).bestSeller(), NO_BEST_SELLER);
  }
}
