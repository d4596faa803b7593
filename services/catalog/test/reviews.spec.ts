import { getModelToken } from '@nestjs/mongoose';
import {
  averageRating,
  EVENTS,
  REVIEW_MESSAGES,
  type AdminReviewJson,
  type MyReviewJson,
  type OrderStatus,
  type OrderStatusChangedEvent,
  type ProductJson,
  type ReviewJson,
} from '@shop/contracts';
import { EventBus } from '@shop/nest-common';
import { request, type TestService } from '@shop/nest-common/testing';
import { Types, type Model } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { Delivery } from '../src/reviews/delivery.schema';
import { ReviewsService } from '../src/reviews/reviews.service';
import { RATINGS_MIGRATION, RatingsMigration } from '../src/reviews/ratings.migration';
import { MigrationRecord } from '../src/variants/migration.schema';
import {
  adminToken,
  eventually,
  insertProducts,
  quietLogger,
  startCatalog,
  type ProductFixture,
} from './catalog.fixtures';

const item = (sku: string, extra: Partial<ProductFixture> = {}): ProductFixture => ({
  sku,
  name: `Ravens Jersey ${sku}`,
  price: 50,
  category: 'Top Wear',
  gender: 'Men',
  brand: 'Baltimore Ravens',
  sizes: ['M'],
  colors: ['Purple'],
  countInStock: 10,
  rating: 0,
  numReviews: 0,
  ...extra,
});

describe('catalog: reviews that are true (issue 27)', () => {
  let svc: TestService;
  let bus: EventBus;
  let ids: Map<string, string>;
  let admin: string;

  beforeAll(async () => {
    svc = await startCatalog();
    bus = new EventBus({
      url: svc.config.RABBITMQ_URL,
      service: `${svc.namespace}orders`,
      exchange: `${svc.namespace}shop.events`,
      logger: quietLogger,
    });
    await bus.start();
    admin = adminToken(svc);
    const reviews = svc.app.get(ReviewsService);
    const recordDelivery = reviews.recordDelivery.bind(reviews);
    jest.spyOn(reviews, 'recordDelivery').mockImplementation(async (event) => {
      try {
        return await recordDelivery(event);
      } finally {
        handled.set(event.orderId, handledOf(event.orderId) + 1);
      }
    });
    ids = await insertProducts(svc, [
      item('ONCE'),
      item('CROWD'),
      item('HIDE'),
      item('BAD'),
      item('REDELIVER'),
      item('OTHER'),
      item('DRAFT', { isPublished: false }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await bus.close();
    await svc.close();
  });

  /** A customer of their own, signed in. */
  const customer = (name = 'Casey Customer') => {
    const id = new Types.ObjectId().toHexString();
    return { id, name, token: svc.token({ id, role: 'customer', name }) };
  };
  /** How many times catalog's real handler finished a status change of each order (catalog keeps no inbox). */
  const handled = new Map<string, number>();
  const handledOf = (orderId: string) => handled.get(orderId) ?? 0;
  /** Orders announces a status change of an order of `userId` holding these products; resolves once catalog handled it. */
  const statusChanged = async (
    userId: string,
    productIds: string[],
    status: OrderStatus = 'Delivered',
    opts: { orderId?: string; eventId?: string; items?: boolean } = {},
  ) => {
    const orderId = opts.orderId ?? new Types.ObjectId().toHexString();
    const eventId = opts.eventId ?? `${EVENTS.orders.orderStatusChanged}:${orderId}:${randomUUID()}`;
    const data: OrderStatusChangedEvent = {
      orderId,
      userId,
      status,
      previousStatus: 'Shipped',
      changedAt: new Date().toISOString(),
      customer: { name: 'Casey Customer' },
      ...(opts.items === false
        ? {}
        : { items: productIds.map((productId) => ({ productId, quantity: 1, size: 'M', color: 'Purple' })) }),
    };
    const before = handledOf(orderId);
    await bus.publish(EVENTS.orders.orderStatusChanged, data, { eventId });
    await eventually(async () => handledOf(orderId) > before);
    return { orderId, eventId };
  };
  const post = (productId: string, token: string | undefined, body: unknown) =>
    request<ReviewJson & { message?: string }>(`${svc.url}/api/products/${productId}/reviews`, {
      method: 'POST',
      token,
      body,
    });
  const mine = async (productId: string, token: string) =>
    (await request<MyReviewJson>(`${svc.url}/api/reviews/mine?productId=${productId}`, { token })).body;
  const listOf = (productId: string, page?: number | string) =>
    request<ReviewJson[]>(`${svc.url}/api/products/${productId}/reviews${page !== undefined ? `?page=${page}` : ''}`);
  /** The product as a shopper reads it (the in-memory read model, behind its version check). */
  const productOf = async (productId: string) =>
    (await request<ProductJson>(`${svc.url}/api/products/${productId}`)).body;
  const adminList = (query: string) =>
    request<AdminReviewJson[]>(`${svc.url}/api/admin/reviews${query}`, { token: admin });
  const hide = (reviewId: string, body: unknown, token = admin) =>
    request<AdminReviewJson & { message?: string }>(`${svc.url}/api/admin/reviews/${reviewId}`, {
      method: 'PUT',
      token,
      body,
    });

  it('refuses a review before delivery (403), takes one after the Delivered event (201), and refuses a second', async () => {
    const productId = ids.get('ONCE')!;
    const casey = customer('Casey  Customer ');
    const body = { rating: 4, comment: '  Fits well, colours stay bright.  ' };

    expect(await post(productId, undefined, body)).toMatchObject({ status: 401 });
    const early = await post(productId, casey.token, body);
    expect(early.status).toBe(403);
    expect(early.body).toEqual({ message: REVIEW_MESSAGES.notDelivered, statusCode: 403 });
    expect(await mine(productId, casey.token)).toEqual({ canReview: false, reason: 'not-delivered', review: null });
    expect((await request(`${svc.url}/api/reviews/mine?productId=${productId}`)).status).toBe(401);
    expect((await request(`${svc.url}/api/reviews/mine`, { token: casey.token })).body).toEqual({
      message: 'Invalid product id',
      statusCode: 400,
    });

    // Shipped is not received; another customer's delivery is not this customer's.
    await statusChanged(casey.id, [productId], 'Shipped');
    await statusChanged(customer().id, [productId]);
    expect((await post(productId, casey.token, body)).status).toBe(403);

    // Delivered, in an order holding another product too
    await statusChanged(casey.id, [ids.get('OTHER')!, productId]);
    expect(await mine(productId, casey.token)).toEqual({ canReview: true, review: null });
    const created = await post(productId, casey.token, body);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      productId,
      author: 'Casey C.',
      rating: 4,
      comment: 'Fits well, colours stay bright.',
      createdAt: expect.any(String),
    });

    const again = await post(productId, casey.token, { rating: 1, comment: 'Changed my mind' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(REVIEW_MESSAGES.alreadyReviewed);
    expect(await mine(productId, casey.token)).toEqual({ canReview: false, reason: 'reviewed', review: created.body });

    // the shop window shows it at once: the product's rating and count, and the list
    expect(await productOf(productId)).toMatchObject({ rating: 4, numReviews: 1 });
    const list = await listOf(productId);
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe('1');
    expect(list.headers.get('cache-control')).toBe('no-store');
    expect(list.body).toEqual([created.body]);
  });

  it('keeps the average and count exact while customers review one product at once; once each, even racing', async () => {
    const productId = ids.get('CROWD')!;
    const ratings = [5, 4, 4, 3, 5, 1, 2, 5, 4, 3, 5, 4];
    const crowd = ratings.map((_, i) => customer(`Fan Number${i}`));
    await Promise.all(crowd.map((c) => statusChanged(c.id, [productId])));

    const answers = await Promise.all(
      crowd.map((c, i) => post(productId, c.token, { rating: ratings[i], comment: `Review ${i}` })),
    );
    expect(answers.map((a) => a.status)).toEqual(ratings.map(() => 201));
    // one customer posting twice at the same moment: one review
    const twice = await Promise.all([0, 1, 2].map(() => post(productId, crowd[0].token, { rating: 1, comment: 'x' })));
    expect(twice.map((a) => a.status)).toEqual([409, 409, 409]);

    const total = ratings.reduce((sum, r) => sum + r, 0);
    expect(await productOf(productId)).toMatchObject({
      rating: averageRating(total, ratings.length), // 3.75
      numReviews: ratings.length,
    });
    expect(averageRating(total, ratings.length)).toBe(3.75);

    // newest first, 10 a page
    const first = await listOf(productId);
    const second = await listOf(productId, 2);
    expect(first.headers.get('x-total-count')).toBe('12');
    expect(first.body).toHaveLength(10);
    expect(second.body).toHaveLength(2);
    const all = [...first.body, ...second.body];
    expect(new Set(all.map((r) => r._id)).size).toBe(12);
    const times = all.map((r) => Date.parse(r.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect((await listOf(productId, 3)).body).toEqual([]);
  });

  it('hides a review from the list, the average and the count, and shows it again', async () => {
    const productId = ids.get('HIDE')!;
    const [ann, ben] = [customer('Ann Lee'), customer('Ben Ode')];
    await statusChanged(ann.id, [productId]);
    await statusChanged(ben.id, [productId]);
    const spam = (await post(productId, ann.token, { rating: 1, comment: 'Buy cheap watches at …' })).body;
    const fair = (await post(productId, ben.token, { rating: 5, comment: 'Great jersey' })).body;
    expect(await productOf(productId)).toMatchObject({ rating: 3, numReviews: 2 });

    expect((await hide(spam._id, { hidden: true }, ann.token)).status).toBe(403);
    const hidden = await hide(spam._id, { hidden: true });
    expect(hidden.status).toBe(200);
    expect(hidden.body).toMatchObject({ _id: spam._id, userId: ann.id, hidden: true, rating: 1 });

    expect(await productOf(productId)).toMatchObject({ rating: 5, numReviews: 1 });
    const list = await listOf(productId);
    expect(list.body.map((r) => r._id)).toEqual([fair._id]);
    expect(list.headers.get('x-total-count')).toBe('1');
    // admins still find it, and its author still sees it (and may not write another)
    const forAdmin = await adminList(`?productId=${productId}`);
    expect(forAdmin.headers.get('x-total-count')).toBe('2');
    expect(forAdmin.body.map((r) => [r._id, r.hidden])).toEqual([
      [fair._id, false],
      [spam._id, true],
    ]);
    expect(await mine(productId, ann.token)).toMatchObject({ canReview: false, reason: 'reviewed' });
    expect((await post(productId, ann.token, { rating: 2, comment: 'again' })).status).toBe(409);

    expect((await hide(spam._id, { hidden: false })).body.hidden).toBe(false);
    expect(await productOf(productId)).toMatchObject({ rating: 3, numReviews: 2 });
    expect((await listOf(productId)).body).toHaveLength(2);

    // bad admin calls
    expect((await hide('nope', { hidden: true })).body).toEqual({
      message: REVIEW_MESSAGES.invalidId,
      statusCode: 400,
    });
    expect((await hide(new Types.ObjectId().toHexString(), { hidden: true })).body).toEqual({
      message: REVIEW_MESSAGES.notFound,
      statusCode: 404,
    });
    for (const body of [{}, { hidden: 'yes' }, { hidden: null }, { hidden: 1 }]) {
      const res = await hide(spam._id, body);
      expect([res.status, res.body.message]).toEqual([400, REVIEW_MESSAGES.hidden]);
    }
    expect((await adminList('?productId=nope')).status).toBe(400);
    expect((await request(`${svc.url}/api/admin/reviews`)).status).toBe(401);
    expect((await request(`${svc.url}/api/admin/reviews`, { token: ann.token })).status).toBe(403);
  });

  it('answers bad input with a 400 and a message, storing nothing', async () => {
    const productId = ids.get('BAD')!;
    const dana = customer('Dana Diaz');
    await statusChanged(dana.id, [productId]);
    const cases: Array<[unknown, string]> = [
      [{ comment: 'ok' }, REVIEW_MESSAGES.rating],
      [{ rating: 0, comment: 'ok' }, REVIEW_MESSAGES.rating],
      [{ rating: 6, comment: 'ok' }, REVIEW_MESSAGES.rating],
      [{ rating: 4.5, comment: 'ok' }, REVIEW_MESSAGES.rating],
      [{ rating: '5', comment: 'ok' }, REVIEW_MESSAGES.rating],
      [{ rating: { $gt: 0 }, comment: 'ok' }, REVIEW_MESSAGES.rating],
      [{ rating: 5 }, REVIEW_MESSAGES.commentRequired],
      [{ rating: 5, comment: '    ' }, REVIEW_MESSAGES.commentRequired],
      [{ rating: 5, comment: 42 }, REVIEW_MESSAGES.commentRequired],
      [{ rating: 5, comment: 'x'.repeat(501) }, REVIEW_MESSAGES.commentTooLong],
    ];
    for (const [body, message] of cases) {
      const res = await post(productId, dana.token, body);
      expect([JSON.stringify(body).slice(0, 40), res.status, res.body.message]).toEqual([
        JSON.stringify(body).slice(0, 40),
        400,
        message,
      ]);
    }
    const raw = await request(`${svc.url}/api/products/${productId}/reviews`, {
      token: dana.token,
      rawBody: '{"rating": 5, "comment": ',
    });
    expect(raw.status).toBe(400);
    expect(typeof raw.body.message).toBe('string');
    expect((await post('not-an-id', dana.token, { rating: 5, comment: 'ok' })).body.message).toBe('Invalid product id');
    const unknown = await post(new Types.ObjectId().toHexString(), dana.token, { rating: 5, comment: 'ok' });
    expect([unknown.status, unknown.body.message]).toEqual([404, 'Product not found']);
    // an unpublished product has no public reviews
    expect((await listOf(ids.get('DRAFT')!)).status).toBe(404);
    for (const page of ['0', '-1', 'abc', '1.5']) expect((await listOf(productId, page)).status).toBe(400);
    expect((await request(`${svc.url}/api/products/${productId}/reviews?page=1&page=2`)).status).toBe(400);

    expect((await adminList(`?productId=${productId}`)).headers.get('x-total-count')).toBe('0');
    expect(await productOf(productId)).toMatchObject({ rating: 0, numReviews: 0 });
    // 500 characters after trimming is fine
    const longest = await post(productId, dana.token, { rating: 5, comment: ` ${'x'.repeat(500)} ` });
    expect(longest.status).toBe(201);
    expect(longest.body.comment).toHaveLength(500);
  });

  it('records a delivery once: a redelivered or repeated Delivered event is harmless', async () => {
    const productId = ids.get('REDELIVER')!;
    const eve = customer('Eve Moss');
    const deliveries = svc.app.get<Model<Delivery>>(getModelToken(Delivery.name));

    // an event stored before events carried the lines records nothing (and is not retried for ever)
    await statusChanged(eve.id, [productId], 'Delivered', { items: false });
    expect(await deliveries.countDocuments({ userId: eve.id })).toBe(0);

    const { orderId, eventId } = await statusChanged(eve.id, [productId, productId]);
    await bus.publish(
      EVENTS.orders.orderStatusChanged,
      {
        orderId,
        userId: eve.id,
        status: 'Delivered',
        previousStatus: 'Shipped',
        changedAt: new Date().toISOString(),
        customer: { name: 'Eve Moss' },
        items: [{ productId, quantity: 1 }],
      } satisfies OrderStatusChangedEvent,
      { eventId }, // redelivered
    );
    await eventually(async () => handledOf(orderId) === 2);
    await statusChanged(eve.id, [productId]); // a second delivered order of the same product
    expect(await deliveries.find({ userId: eve.id }).lean()).toEqual([expect.objectContaining({ productId, orderId })]);
    expect((await post(productId, eve.token, { rating: 3, comment: 'Fine' })).status).toBe(201);
    expect((await post(productId, eve.token, { rating: 3, comment: 'Fine' })).status).toBe(409);
    expect(await productOf(productId)).toMatchObject({ rating: 3, numReviews: 1 });
  });

  it('drops invented ratings from a database that had them (migration), keeping those of real reviews', async () => {
    const [invented] = [...(await insertProducts(svc, [item('INVENTED', { rating: 4.8, numReviews: 264 })])).values()];
    expect(await productOf(invented)).toMatchObject({ rating: 4.8, numReviews: 264 });
    const migrations = svc.app.get<Model<MigrationRecord>>(getModelToken(MigrationRecord.name));
    expect(await migrations.exists({ _id: RATINGS_MIGRATION })).toBeTruthy();
    await migrations.deleteOne({ _id: RATINGS_MIGRATION });

    expect(await svc.app.get(RatingsMigration).run()).toBeGreaterThanOrEqual(1);
    expect(await productOf(invented)).toMatchObject({ rating: 0, numReviews: 0 });
    expect(await productOf(ids.get('HIDE')!)).toMatchObject({ rating: 3, numReviews: 2 });
    expect(await svc.app.get(RatingsMigration).run()).toBe(0); // once
  });
});
