import { BadRequestException } from '@nestjs/common';
import {
  QueryError,
  parseProductListQuery as parseQuery,
  parseSuggestQuery as parseSuggest,
  type ProductListQuery,
} from '@shop/catalog-read-model';

/** A QueryError (a malformed query) as the 400 the service's error filter answers; anything else as it is. */
export function asHttpError(err: unknown): unknown {
  return err instanceof QueryError ? new BadRequestException(err.message) : err;
}

/**
 * Parses and validates the query of GET /api/products (the shared read model's parser). Throws BadRequestException
 * with a sentence for bad input.
 */
export function parseProductListQuery(raw: Record<string, unknown>): ProductListQuery {
  try {
    return parseQuery(raw);
  } catch (err) {
    throw asHttpError(err);
  }
}

/** The `q` of GET /api/products/suggest (undefined: too short to suggest anything); BadRequestException for bad input. */
export function parseSuggestQuery(raw: Record<string, unknown>): string | undefined {
  try {
    return parseSuggest(raw);
  } catch (err) {
    throw asHttpError(err);
  }
}
