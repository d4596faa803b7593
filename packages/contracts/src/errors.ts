/** Every error body the /api surface returns (API.md "Conventions"). */
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
