import { Injectable } from '@nestjs/common';
import { PATTERNS, type CountProductsResponse } from '@shop/contracts';
import { RpcClient } from '@shop/nest-common';

/** What orders asks of the catalog. */
@Injectable()
export class CatalogProducts {
  constructor(private readonly catalog: RpcClient) {}

  /** Every product, published or not; 503 when the catalog does not answer within RPC_TIMEOUT_MS. */
  async count(): Promise<number> {
    return (await this.catalog.send<CountProductsResponse>(PATTERNS.catalog.countProducts, {})).products;
  }
}
