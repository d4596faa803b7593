import { HttpException, HttpStatus } from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import type { ApiError } from '@shop/contracts';

const GENERIC_MESSAGES: Record<number, string> = {
  400: 'Bad request',
  401: 'Not authorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  413: 'Request body is too large',
  415: 'Unsupported media type',
  429: 'Too many requests, please try again later',
  503: 'Service unavailable',
};

export const DEPENDENCY_UNAVAILABLE = 'The shop is temporarily unavailable, please try again';

/**
 * The MongoDB driver's errors for a server away or hung. `PoolClearedOnNetworkError` (no `Mongo` prefix) is what an
 * operation in flight gets when the server monitor's heartbeat times out first and interrupts the pool's connections:
 * whether a request meets it or the network timeout depends on where the heartbeat falls, so missing it made a hung
 * MongoDB answer 500 now and then.
 */
const MONGO_UNAVAILABLE =
  /^(Mongo(ose)?(ServerSelection|Network|NetworkTimeout|PoolCleared|PoolClosed|WaitQueueTimeout|ServerClosed|TopologyClosed|NotConnected|OperationTimeout)Error|PoolClearedOnNetworkError)$/;

/**
 * The database or Redis cannot be reached or does not answer: the request may succeed on a retry, so it is a
 * 503, never a 500. Matched by name and message, so this package needs neither driver's classes.
 */
function isDependencyUnavailable(err: { name?: unknown; message?: unknown }): boolean {
  const name = typeof err.name === 'string' ? err.name : '';
  const message = typeof err.message === 'string' ? err.message : '';
  return (
    MONGO_UNAVAILABLE.test(name) ||
    /buffering timed out|Connection is closed|Command timed out|Stream isn't writeable|Reached the max retries/.test(
      message,
    ) ||
    name === 'MaxRetriesPerRequestError'
  );
}

/**
 * Turns anything thrown into the one error shape of the API: `{ message, statusCode, details? }`
 * with `message` always a string. Unknown errors are 500 with a generic message (the caller
 * logs the real one); they never leak a stack.
 */
export function toApiError(exception: unknown): ApiError {
  if (exception instanceof HttpException) {
    const statusCode = exception.getStatus();
    const response = exception.getResponse();
    if (typeof response === 'string') return { statusCode, message: response };
    const body = response as { message?: unknown; details?: ApiError['details'] };
    let message: string;
    if (typeof body.message === 'string') message = body.message;
    else if (Array.isArray(body.message) && body.message.length) message = String(body.message[0]);
    else message = GENERIC_MESSAGES[statusCode] ?? exception.message;
    return body.details ? { statusCode, message, details: body.details } : { statusCode, message };
  }
  if (exception instanceof RpcException) return toApiError(exception.getError());
  if (exception && typeof exception === 'object') {
    if (isDependencyUnavailable(exception as Error))
      return { statusCode: HttpStatus.SERVICE_UNAVAILABLE, message: DEPENDENCY_UNAVAILABLE };
    // An error that crossed RabbitMQ as { statusCode, message }.
    const rpc = exception as { statusCode?: unknown; message?: unknown };
    if (
      typeof rpc.statusCode === 'number' &&
      typeof rpc.message === 'string' &&
      rpc.statusCode >= 400 &&
      rpc.statusCode < 600
    ) {
      return { statusCode: rpc.statusCode, message: rpc.message };
    }
  }
  return { statusCode: HttpStatus.INTERNAL_SERVER_ERROR, message: 'Internal server error' };
}
