import { Inject, Injectable, Logger, OnApplicationBootstrap, type ArgumentMetadata } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { REQUEST_ID_HEADER, type ApiError, type CartJson } from '@shop/contracts';
import {
  createValidationPipe,
  httpRequestRecorder,
  inFrontOfExpress,
  jsonBodyProblem,
  Metrics,
  normaliseRequestId,
  ROOT_LOGGER,
  runWithRequestContext,
  toApiError,
  type HttpRequestRecorder,
} from '@shop/nest-common';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { Logger as Pino } from 'pino';
import { cartOwner } from './cart-owner';
import { CartService } from './cart.service';
import { AddToCartDto, CartOwnerQuery } from './dto/cart.dto';
import { wellFormedGuestAdd, wellFormedGuestRead, type GuestAdd } from './dto/well-formed';
import type { CartOwner } from './storage/cart-store';

/** The route the lane answers, as the controller's route template (metrics label). */
const ROUTE = '/api/cart';
/** A guest's add is a few hundred bytes: anything larger goes to Express, which applies the body limit. */
const MAX_LANE_BODY = 16 * 1024;
/** The JSON bodies express.json() decodes as UTF-8 without asking iconv (anything else goes to Express). */
const JSON_UTF8 = /^application\/json\s*(;\s*charset="?utf-8"?\s*)?$/i;
const BOM = '\uFEFF';

type Answer = { status: number; body: CartJson | ApiError };

/** Which of the lane's two calls this request is, or undefined for one that Express must answer. */
function laneCallOf(req: IncomingMessage, path: string): 'read' | 'add' | undefined {
  if (path !== ROUTE || req.headers.authorization !== undefined) return undefined;
  const h = req.headers;
  if (req.method === 'GET') {
    // A conditional GET may be a 304 (Express's freshness check), and a GET with a body has it parsed there.
    const plain = !h['if-none-match'] && !h['if-modified-since'] && !h['transfer-encoding'];
    return plain && (h['content-length'] === undefined || h['content-length'] === '0') ? 'read' : undefined;
  }
  if (req.method === 'POST') {
    const length = Number(h['content-length']);
    const simple =
      !h['transfer-encoding'] && !h['content-encoding'] && JSON_UTF8.test(h['content-type'] ?? '') && length > 0;
    return simple && length <= MAX_LANE_BODY ? 'add' : undefined;
  }
  return undefined;
}

/** The body as express.json() would hand it on (it strips a BOM, refuses a top level that is not an object or array). */
function parseJsonBody(raw: Buffer): unknown {
  const text = raw.toString('utf8');
  const json = text.startsWith(BOM) ? text.slice(1) : text;
  const first = /^[ \t\n\r]*(.)/.exec(json)?.[1];
  const parsed: unknown = first === '{' || first === '[' ? JSON.parse(json) : undefined;
  if (parsed === undefined) throw new SyntaxError('Unexpected token');
  return parsed;
}

/** body-parser's error for a malformed body, which toApiError turns into the service's 400. */
function malformedJson(err: unknown): unknown {
  return Object.assign(err instanceof Error ? err : new SyntaxError(String(err)), {
    status: 400,
    type: 'entity.parse.failed',
  });
}

/**
 * The hot path: a guest's cart read (GET /api/cart?guestId=…) and add (POST /api/cart without a token), answered in
 * front of Express. Express's router, Nest's guard, interceptor and pipe plumbing and body-parser cost several times
 * the cart's own Redis work (measured, docs/performance.md "Performance: cart"), so the HTTP server hands each
 * request here first.
 *
 * It does what the controller does, with the same pieces: the service's ValidationPipe on the same DTOs (skipped
 * for a plainly well-formed query or body, dto/well-formed.ts, which the pipe would take unchanged), cartOwner() for
 * whose cart, CartService for the work, toApiError() for every failure — so answers, error shapes
 * and status codes are the ones Express would give. Anything with a token (the guard's business), another route, a
 * conditional GET, or a body that is not small, plain UTF-8 JSON goes on to Express untouched.
 */
@Injectable()
export class GuestCartLane implements OnApplicationBootstrap {
  private readonly errors = new Logger('Errors');
  private readonly pipe = createValidationPipe();
  private readonly record: HttpRequestRecorder;
  private etagOf: (body: string, encoding: BufferEncoding) => string | undefined = () => undefined;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly carts: CartService,
    @Inject(ROOT_LOGGER) private readonly logger: Pino,
    metrics: Metrics,
  ) {
    this.record = httpRequestRecorder(metrics);
  }

  onApplicationBootstrap(): void {
    // Express's own ETag function ('weak' by default), so a lane answer carries the ETag Express would give it.
    this.etagOf = this.adapterHost.httpAdapter.getInstance().get('etag fn') ?? this.etagOf;
    inFrontOfExpress(this.adapterHost, (req, res, express) => this.serve(req, res, express));
  }

  private serve(req: IncomingMessage, res: ServerResponse, express: RequestListener): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const call = laneCallOf(req, path);
    if (!call) return void express(req, res);

    const started = process.hrtime.bigint();
    const requestId = normaliseRequestId(req.headers[REQUEST_ID_HEADER]);
    res.setHeader(REQUEST_ID_HEADER, requestId);
    runWithRequestContext({ requestId }, () => {
      const answer =
        call === 'read' ? this.read(q === -1 ? '' : url.slice(q + 1)) : readBody(req).then((raw) => this.add(raw));
      void answer
        .catch((err: unknown) => this.failure(err))
        .then(({ status, body }) => {
          this.send(res, status, body);
          const labels = { method: req.method!, route: ROUTE, status: String(status) };
          this.record(labels, started);
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          this.logger.info({ method: req.method, path, status, ms: Math.round(ms * 10) / 10 }, 'request');
        });
    });
  }

  /** CartController.read for a guest. */
  private async read(query: string): Promise<Answer> {
    const owner = wellFormedGuestRead(query) ?? (await this.readOwner(query));
    return { status: 200, body: await this.carts.read(owner) };
  }

  /** Whose cart, by the pipe and cartOwner(): for a query that is not just a well-formed guestId. */
  private async readOwner(query: string): Promise<CartOwner> {
    const ids = await this.validate<CartOwnerQuery>(parseQuery(query), { type: 'query', metatype: CartOwnerQuery });
    return cartOwner(undefined, ids);
  }

  /** CartController.add for a guest, after what the service's JSON body middleware checks. */
  private async add(raw: Buffer): Promise<Answer> {
    let parsed: unknown;
    try {
      parsed = parseJsonBody(raw);
    } catch (err) {
      throw malformedJson(err);
    }
    const problem = jsonBodyProblem(parsed);
    if (problem) return { status: 400, body: { statusCode: 400, message: problem } };
    const { owner, line } = wellFormedGuestAdd(parsed) ?? (await this.addRequest(parsed));
    const { cart, created } = await this.carts.add(owner, line);
    return { status: created ? 201 : 200, body: cart };
  }

  /** The add's owner and line, by the pipe and cartOwner(): for a body that is not plainly right. */
  private async addRequest(parsed: unknown): Promise<GuestAdd> {
    const dto = await this.validate<AddToCartDto>(parsed, { type: 'body', metatype: AddToCartDto });
    return { owner: cartOwner(undefined, dto), line: dto };
  }

  private validate<T>(value: unknown, metadata: ArgumentMetadata): Promise<T> {
    return this.pipe.transform(value, metadata) as Promise<T>;
  }

  /** What AllExceptionsFilter answers for the same error (and logs, when it is the service's fault). */
  private failure(err: unknown): Answer {
    const body = toApiError(err);
    if (body.statusCode >= 500)
      this.errors.error(err instanceof Error ? err.message : JSON.stringify(err), (err as Error)?.stack);
    return { status: body.statusCode, body };
  }

  /** res.json() as Express writes it: the JSON, its type, length and ETag. */
  private send(res: ServerResponse, status: number, body: CartJson | ApiError): void {
    if (res.headersSent || res.destroyed) return;
    const json = JSON.stringify(body);
    res.statusCode = status;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    const etag = this.etagOf(json, 'utf8');
    if (etag) res.setHeader('ETag', etag);
    res.setHeader('Content-Length', Buffer.byteLength(json));
    res.end(json);
  }
}

/** The whole body (its Content-Length was checked to be small); a client gone before its end is body-parser's 400. */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.on('close', () => {
      if (!req.complete) reject(Object.assign(new Error('request aborted'), { status: 400, type: 'request.aborted' }));
    });
  });
}
