import { applyDecorators } from '@nestjs/common';
import { ApiParam, ApiResponse } from '@nestjs/swagger';
import { ApiErrorBody } from './schemas';

/** The name of the bearer scheme in every document (components.securitySchemes). */
export const BEARER_SCHEME = 'bearerAuth';

/** What each error status means on the /api surface (docs/api.md); a route may say more with its own description. */
export const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input (`message` says what)',
  401: 'Not authorized, no token / Not authorized, token failed',
  402: 'Payment could not be verified',
  403: 'Not authorized as an admin',
  404: 'Not found (also for what belongs to someone else)',
  409: 'Conflict (stock, price or a payment already used)',
  413: 'Request body is too large',
  429: 'Too many requests, please try again later',
  503: 'A dependency is unavailable, please try again',
};

/** Error responses, each the one error shape `{message, statusCode}`: `@ApiErrors(400, 404)` or `@ApiErrors({404: 'Product not found'})`. */
export function ApiErrors(...codes: Array<number | Record<number, string>>): MethodDecorator & ClassDecorator {
  const entries = codes.flatMap((code) =>
    typeof code === 'number'
      ? [[code, ERROR_DESCRIPTIONS[code] ?? 'Error'] as const]
      : Object.entries(code).map(([status, text]) => [Number(status), text] as const),
  );
  return applyDecorators(
    ...entries.map(([status, description]) => ApiResponse({ status, description, type: ApiErrorBody })),
  );
}

/** A path parameter holding an ObjectId; the route lists 400 among its errors (`Invalid <thing> id`). */
export function ApiObjectIdParam(thing: string, name = 'id'): MethodDecorator & ClassDecorator {
  return ApiParam({
    name,
    description: `The ${thing}'s id (a MongoDB ObjectId; anything else answers 400 \`Invalid ${thing} id\`)`,
    schema: { type: 'string', pattern: '^[0-9a-fA-F]{24}$' },
  });
}
