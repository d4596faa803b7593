/** Every error body the /api surface returns (docs/api.md#conventions). */
export interface ApiError {
  message: string;
  statusCode: number;
  /** Field errors, when a request body failed validation. */
  details?: Array<{ field: string; message: string }>;
}

/** How an error crosses RabbitMQ: the payload of an RpcException. */
export interface RpcErrorPayload {
  statusCode: number;
  message: string;
}

export const AUTH_MESSAGES = {
  noToken: 'Not authorized, no token',
  tokenFailed: 'Not authorized, token failed',
  notAdmin: 'Not authorized as an admin',
} as const;

/**
 * Text no request body may hold (refused with 400 before any validation): a UTF-16 surrogate without its partner
 * (`"\ud800"` is valid JSON but no text: it cannot be stored as UTF-8, and a MongoDB driver or FerretDB answers it
 * with an error), or a NUL (FerretDB refuses it in strings).
 */
// eslint-disable-next-line no-control-regex -- the NUL is exactly what this looks for
export const BROKEN_TEXT = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\u0000/;
