import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { throwError } from 'rxjs';
import { acknowledgeRpc } from '../rpc/rpc-ack';
import { toApiError } from './error-body';

/**
 * The one error filter of every service. Over HTTP it writes `{message, statusCode}`;
 * over RabbitMQ it returns the same object as the error payload, which the caller's
 * RpcClient turns back into the same HTTP status.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost) {
    const body = toApiError(exception);
    if (body.statusCode >= 500) {
      this.logger.error(
        exception instanceof Error ? exception.message : JSON.stringify(exception),
        exception instanceof Error ? exception.stack : undefined,
      );
    }
    if (host.getType() === 'rpc') {
      acknowledgeRpc(host.switchToRpc().getContext());
      return throwError(() => body);
    }
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    if (reply.sent) return;
    // JSON whatever the route had set before it threw (Fastify would refuse an object under another type).
    void reply.status(body.statusCode).type('application/json; charset=utf-8').send(body);
  }
}
