import {
  BadRequestException,
  ConflictException,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  OnModuleInit,
} from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  EVENTS,
  PATTERNS,
  STOCK_ALERT_MESSAGES,
  STOCK_ALERT_TTL_DAYS,
  type PublicUser,
  type StockAlertTriggeredEvent,
} from '@shop/contracts';
import { EventBus, REDIS, RpcClient, indexesBuilt, isDuplicateKeyError, type AuthUser } from '@shop/nest-common';
import { createHash } from 'node:crypto';
import type Redis from 'ioredis';
import type { Model, Types } from 'mongoose';
import { assetUrlsOf } from '../config/asset-urls';
import { CatalogConfig } from '../config/catalog.config';
import { PRODUCT_PROJECTION } from '../products/product.mapper';
import { Product, type LeanProduct } from '../products/product.schema';
import { PRODUCT_NOT_FOUND } from '../products/products.service';
import { resolveLine } from '../stock/stock.service';
import { optionOf, sameKey, variantsOf, type StoredVariant } from '../variants/variants';
import type { CreateStockAlertDto } from './dto/stock-alert.dto';
import { StockAlert } from './stock-alert.schema';
import { UnsubscribeTokens } from './unsubscribe-token';

export const IDENTITY = Symbol('identity RpcClient');

interface LeanAlert {
  _id: Types.ObjectId;
  productId: string;
  size: string;
  color: string;
  email: string;
  state: StockAlert['state'];
  expiresAt: Date;
  createdAt: Date;
  triggeredAt?: Date;
  publishedAt?: Date;
}

const DAY_MS = 24 * 3600 * 1000;
/** A triggered event the broker has not confirmed for this long is published again by the sweep. */
const REPUBLISH_AFTER_MS = 10_000;

export const stockAlertEventId = (requestId: string) => `${EVENTS.catalog.stockAlertTriggered}:${requestId}`;

/**
 * Back-in-stock requests: catalog keeps them because it sees the stock it owns come back. Every stock change of a
 * product reaches `checkProduct` (catalog hears its own `catalog.product.changed`: admin edits, returns, released and
 * expired holds), and a sweep checks every product with waiting requests in case an event was missed. A request is
 * triggered by one conditional write (waiting → triggered, whoever gets there first) and then announced by one event
 * with the request's own id, published again until the broker confirms it; notifications sends one email per id.
 */
@Injectable()
export class StockAlertsService implements OnModuleInit {
  private readonly logger = new Logger(StockAlertsService.name);
  private readonly tokens: UnsubscribeTokens;

  constructor(
    @InjectModel(StockAlert.name) private readonly alerts: Model<StockAlert>,
    @InjectModel(Product.name) private readonly products: Model<Product>,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(IDENTITY) private readonly identity: RpcClient,
    private readonly events: EventBus,
    private readonly config: CatalogConfig,
  ) {
    this.tokens = new UnsubscribeTokens(config.JWT_SECRET);
  }

  /**
   * The unique key must exist before a request relies on it. The 90 days are a TTL index where the database has them
   * (MongoDB); our FerretDB has none, so the sweep deletes lapsed requests there, and a lapsed one is never sent.
   */
  async onModuleInit(): Promise<void> {
    await indexesBuilt([this.alerts]);
    try {
      await this.alerts.collection.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0, name: 'expiresAt_ttl' });
    } catch (err) {
      this.logger.log(`no TTL index on stock_alerts (${(err as Error).message}): the sweep deletes lapsed requests`);
    }
  }

  /**
   * "Email me when it's back": one waiting request per address and variant. The answer is the same whether the
   * address had asked already or not (nothing to learn about an address from it).
   */
  async request(dto: CreateStockAlertDto, user?: AuthUser): Promise<{ message: string }> {
    const email = user ? await this.emailOf(user) : dto.email;
    if (!email) throw new BadRequestException(STOCK_ALERT_MESSAGES.emailRequired);
    const product = await this.products
      .findOne({ _id: dto.productId, isPublished: true }, PRODUCT_PROJECTION)
      .lean<LeanProduct>()
      .exec();
    if (!product) throw new NotFoundException(PRODUCT_NOT_FOUND);
    const resolved = resolveLine(product, variantsOf(product), { size: dto.size, color: dto.color, quantity: 1 });
    if (!('variant' in resolved)) throw new BadRequestException(resolved.message);
    if (resolved.variant.countInStock > 0) throw new ConflictException(STOCK_ALERT_MESSAGES.inStock);
    await this.limitRate(email);
    const size = resolved.variant.size ?? '';
    const color = resolved.variant.color ?? '';
    const key = `${dto.productId}|${size}|${color}|${email}`;
    try {
      await this.alerts
        .updateOne(
          { key },
          {
            $setOnInsert: {
              key,
              productId: dto.productId,
              size,
              color,
              email,
              state: 'waiting',
              expiresAt: new Date(Date.now() + STOCK_ALERT_TTL_DAYS * DAY_MS),
            },
          },
          { upsert: true },
        )
        .exec();
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err; // a concurrent request made it: the same answer
    }
    // the stock may have come back between the read above and the write: look again
    void this.checkProduct(dto.productId).catch((err: Error) =>
      this.logger.warn(`back-in-stock check of product ${dto.productId} failed: ${err.message}`),
    );
    return { message: STOCK_ALERT_MESSAGES.accepted };
  }

  /** The unsubscribe link: every waiting request of the token's address stops. */
  async unsubscribe(token: string): Promise<{ message: string }> {
    const email = this.tokens.verify(token);
    if (!email) throw new BadRequestException(STOCK_ALERT_MESSAGES.invalidToken);
    const waiting = await this.alerts.find({ email, state: 'waiting' }, { _id: 1 }).lean<LeanAlert[]>().exec();
    for (const { _id } of waiting) {
      await this.alerts
        .updateOne({ _id, state: 'waiting' }, { $set: { state: 'unsubscribed', key: String(_id) } })
        .exec();
    }
    this.logger.log({ requests: waiting.length }, 'back-in-stock requests unsubscribed');
    return { message: STOCK_ALERT_MESSAGES.unsubscribed };
  }

  /** Triggers the product's waiting requests whose size and colour has stock now. Returns how many it triggered. */
  async checkProduct(productId: string): Promise<number> {
    if (!/^[0-9a-f]{24}$/.test(productId)) return 0;
    const now = new Date();
    const waiting = await this.alerts
      .find({ productId, state: 'waiting', expiresAt: { $gt: now } })
      .lean<LeanAlert[]>()
      .exec();
    if (!waiting.length) return 0;
    const product = await this.products
      .findOne({ _id: productId, isPublished: true }, PRODUCT_PROJECTION)
      .lean<LeanProduct>()
      .exec();
    if (!product) return 0;
    const variants = variantsOf(product);
    let triggered = 0;
    for (const alert of waiting) {
      const key = { size: optionOf(alert.size), color: optionOf(alert.color) };
      const variant = variants.find((v) => sameKey(v, key));
      if (variant && variant.countInStock > 0 && (await this.trigger(alert, product, variant))) triggered++;
    }
    if (triggered) this.logger.log({ productId, triggered }, 'back-in-stock requests triggered');
    return triggered;
  }

  /**
   * One sweep: lapsed requests deleted, unconfirmed events published again, every product with waiting requests
   * checked. Safe on every replica at once (each step is conditional or idempotent).
   */
  async sweep(now = new Date()): Promise<void> {
    await this.alerts.deleteMany({ expiresAt: { $lte: now }, state: { $in: ['waiting', 'unsubscribed'] } }).exec();
    await this.alerts
      .deleteMany({ expiresAt: { $lte: now }, state: 'triggered', publishedAt: { $exists: true } })
      .exec();
    const unconfirmed = await this.alerts
      .find({
        state: 'triggered',
        publishedAt: { $exists: false },
        triggeredAt: { $lt: new Date(now.getTime() - REPUBLISH_AFTER_MS) },
      })
      .lean<LeanAlert[]>()
      .exec();
    for (const alert of unconfirmed) {
      const product = await this.products.findById(alert.productId, PRODUCT_PROJECTION).lean<LeanProduct>().exec();
      const variant = product
        ? variantsOf(product).find((v) => sameKey(v, { size: optionOf(alert.size), color: optionOf(alert.color) }))
        : undefined;
      if (product && variant) await this.publish(alert, product, variant);
    }
    const waiting = await this.alerts
      .find({ state: 'waiting', expiresAt: { $gt: now } }, { productId: 1 })
      .lean<Array<{ productId: string }>>()
      .exec();
    for (const productId of new Set(waiting.map((a) => a.productId))) await this.checkProduct(productId);
  }

  private async trigger(alert: LeanAlert, product: LeanProduct, variant: StoredVariant): Promise<boolean> {
    const claimed = await this.alerts
      .findOneAndUpdate(
        { _id: alert._id, state: 'waiting' },
        { $set: { state: 'triggered', key: String(alert._id), triggeredAt: new Date() } },
        { new: true },
      )
      .lean<LeanAlert>()
      .exec();
    if (!claimed) return false; // another replica (or the sweep) triggered it first
    await this.publish(claimed, product, variant);
    return true;
  }

  /** The request's one event (its own id), then marked published; a failed publish is left to the sweep. */
  private async publish(alert: LeanAlert, product: LeanProduct, variant: StoredVariant): Promise<void> {
    const requestId = String(alert._id);
    const data: StockAlertTriggeredEvent = {
      requestId,
      email: alert.email,
      productId: alert.productId,
      name: product.name,
      image: assetUrlsOf(this.config).toPublic(product.images?.[0]?.url ?? ''),
      pricePence: product.pricePence,
      size: alert.size,
      color: alert.color,
      countInStock: variant.countInStock,
      requestedAt: alert.createdAt.toISOString(),
      unsubscribeToken: this.tokens.sign(alert.email),
    };
    try {
      await this.events.publish(EVENTS.catalog.stockAlertTriggered, data, {
        eventId: stockAlertEventId(requestId),
        occurredAt: alert.triggeredAt ?? new Date(),
      });
    } catch (err) {
      this.logger.warn(`back-in-stock event of request ${requestId} not confirmed (${(err as Error).message})`);
      return;
    }
    await this.alerts
      .updateOne({ _id: alert._id, publishedAt: { $exists: false } }, { $set: { publishedAt: new Date() } })
      .exec();
  }

  /** At most STOCK_ALERTS_PER_HOUR requests per address per hour (a fixed window in Redis). */
  private async limitRate(email: string): Promise<void> {
    const digest = createHash('sha256').update(email).digest('hex').slice(0, 32);
    const key = `${this.config.RABBITMQ_NAMESPACE}catalog:stock-alerts:rate:${digest}`;
    const [[, count]] = (await this.redis.multi().incr(key).expire(key, 3600, 'NX').exec()) as [[null, number]];
    if (count > this.config.STOCK_ALERTS_PER_HOUR)
      throw new HttpException(STOCK_ALERT_MESSAGES.tooMany, HttpStatus.TOO_MANY_REQUESTS);
  }

  /** A signed-in customer's address, as identity has it (identity away: 503). */
  private async emailOf(user: AuthUser): Promise<string> {
    const found = await this.identity.send<PublicUser | null>(PATTERNS.identity.findUser, { userId: user.id });
    if (!found?.email) throw new NotFoundException('Your account was not found');
    return found.email.trim().toLowerCase();
  }
}
