import { HttpException, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { REQUEST_ID_HEADER } from '@shop/contracts';
import {
  inFrontOfExpress,
  normaliseRequestId,
  ROOT_LOGGER,
  runWithRequestContext,
  toApiError,
} from '@shop/nest-common';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { Logger } from 'pino';
import { PublicReads } from './public-reads';
import { sendPublic } from './public-response';
import { publicReadOf } from './public-routes';

/**
 * The hot path: public catalogue reads answered in front of Express. Express's router, Nest's middleware chain
 * and the body parser cost more than answering from the read model (measured: about half of a read's CPU), so
 * the HTTP server hands each request here first. A read that ends in a 200 or 304 is answered here, with the
 * request id and access-log line every request of the service gets; anything else (a malformed query that
 * deserves its 400, an unknown product, every other route) goes on to Express, where ProductsController asks the
 * same PublicReads and the service's error filter answers. A read that failed for want of a dependency (the
 * database away while the read model must catch up) is answered here, with the error filter's body: asked again
 * through Express it would wait out the same timeouts twice, past the gateway's.
 */
@Injectable()
export class PublicReadsLane implements OnApplicationBootstrap {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly reads: PublicReads,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    inFrontOfExpress(this.adapterHost, (req, res, express) => this.serve(req, res, express));
  }

  private serve(req: IncomingMessage, res: ServerResponse, express: RequestListener): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const read =
      req.method === 'GET' || req.method === 'HEAD'
        ? publicReadOf(q === -1 ? url : url.slice(0, q), q === -1 ? {} : parseQuery(url.slice(q + 1)))
        : undefined;
    if (!read) return void express(req, res);

    const started = process.hrtime.bigint();
    const requestId = normaliseRequestId(req.headers[REQUEST_ID_HEADER]);
    req.headers[REQUEST_ID_HEADER] = requestId; // Express keeps it if the read goes on there
    const logged = () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      this.logger.info(
        {
          method: req.method,
          path: url.slice(0, q === -1 ? undefined : q),
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
        },
        'request',
      );
    };
    runWithRequestContext({ requestId }, () =>
      read(this.reads).then(
        (response) => {
          res.setHeader(REQUEST_ID_HEADER, requestId);
          sendPublic(req, res, response);
          logged();
        },
        (err: unknown) => {
          if (err instanceof HttpException) return void express(req, res);
          const body = toApiError(err);
          this.logger.error({ err: (err as Error)?.message ?? String(err) }, 'public read failed');
          res.statusCode = body.statusCode;
          res.setHeader(REQUEST_ID_HEADER, requestId);
          res.setHeader('Content-Type', 'application/json; charset=utf-8');
          res.setHeader('Cache-Control', 'no-store');
          res.end(JSON.stringify(body));
          logged();
        },
      ),
    );
  }
}
