// Malformed input on every body route and query route of docs/api.md, through the gateway of the running shop
// (issue 12): seeded, bounded generated cases — missing fields, wrong types, query operators, bad numbers, deep
// nesting, broken text, malformed JSON, bodies over the limit, repeated and bracketed query keys. Every answer is a
// 4xx JSON `{message: string, statusCode}` (never a 5xx, never a dropped connection), and the record a refused
// request aimed at reads the same afterwards. FUZZ_SEED and FUZZ_RUNS replay or widen a run.
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { api, e2eEnv, login, uniqueEmail, type ApiResponse, type E2eEnv } from './support';

jest.setTimeout(240_000);

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);

/** How a field is typed, so a "wrong type" is wrong for it (the catalog takes "39.99" for a price, "M,L" for sizes). */
type Kind = 'text' | 'number' | 'quantity' | 'count' | 'list' | 'flag' | 'id' | 'address' | 'variants';

interface BodyRoute {
  name: string;
  method: 'POST' | 'PUT' | 'DELETE';
  path: () => string;
  token?: () => string;
  /** A body the route accepts; each case breaks it in one way. */
  valid: () => Record<string, unknown>;
  fields: Record<string, Kind>;
  /** Fields the route cannot do without (none on an update, where every field is optional). */
  required: string[];
  /** What the refused requests must not have changed, read before and after. */
  state: () => Promise<unknown>;
}

const operator = fc.constantFrom<unknown>({ $gt: '' }, { $ne: null }, { $where: 'sleep(100)' }, { $regex: '.*' });
const notNumeric = fc.string({ maxLength: 8 }).filter((s) => !/^\s*-?\d+(\.\d+)?\s*$/.test(s));

/** A variant of the product the suite buys (M, green), changed in one way. */
const variant = (change: Record<string, unknown>) => ({ size: 'M', color: 'Green', countInStock: 1, ...change });

/**
 * `variants` (a product's stock per size × colour, issue 22) that are wrong for every product route: not a list of
 * objects, one variant wrong in one way, a variant given twice, more variants than any product has.
 */
const BAD_VARIANTS: unknown[] = [
  [42],
  [null],
  [[]],
  ['M'],
  [{}],
  ...[
    { size: 'Not-a-size' },
    { color: 'Not-a-colour' },
    { size: 'XXL' },
    { size: null },
    { size: { $ne: null } },
    { color: ['Green'] },
    { countInStock: undefined },
    { countInStock: null },
    { countInStock: -1 },
    { countInStock: 1.5 },
    { countInStock: 1e21 },
    { countInStock: 'three' },
    { countInStock: { $gt: 0 } },
    { sku: { $gt: '' } },
    { sku: 42 },
    { sku: '' },
    { sku: 'bad sku!' },
    { sku: 'X'.repeat(81) },
  ].map((change) => [variant(change)]),
  [variant({}), variant({ countInStock: 2 })],
  Array.from({ length: 500 }, () => variant({})),
];

/** Values that are wrong for a field of this kind (never null: some fields take null as "not given"). */
function wrongValue(kind: Kind): fc.Arbitrary<unknown> {
  const containers = [fc.array(fc.integer(), { minLength: 1, maxLength: 3 }), operator];
  switch (kind) {
    case 'text':
    case 'id':
      return fc.oneof(fc.integer(), fc.boolean(), ...containers);
    case 'number':
      return fc.oneof(notNumeric, fc.boolean(), ...containers, fc.constantFrom(-1, 0, 0.001, -0.5));
    case 'quantity':
      return fc.oneof(notNumeric, fc.boolean(), ...containers, fc.constantFrom(-1, 100, 1.5, 1e21, 99.999));
    case 'count': // a whole number from 0 (how many were reviewed)
      return fc.oneof(notNumeric, fc.boolean(), ...containers, fc.constantFrom(-1, 0.5, 1e21, 1001));
    case 'list':
      return fc.oneof(fc.integer(), fc.boolean(), operator, fc.constant(['Not-a-size', 42]));
    case 'flag':
      return fc.oneof(fc.integer(), fc.constantFrom('yes', 'no', ''), ...containers);
    case 'address':
      return fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.array(fc.string(), { maxLength: 2 }));
    case 'variants':
      return fc.oneof(
        fc.integer(),
        fc.boolean(),
        fc.string({ maxLength: 5 }),
        operator,
        fc.constantFrom(...BAD_VARIANTS),
      );
  }
}

/** One broken request: a body (JSON-encoded or raw text) and what was broken, for the failure message. */
interface Case {
  what: string;
  json?: unknown;
  raw?: string;
}

function cases(route: BodyRoute): fc.Arbitrary<Case> {
  const names = Object.keys(route.fields);
  const textFields = names.filter((n) => route.fields[n] === 'text');
  const anyField = fc.constantFrom(...names);
  const withField = (field: string, value: unknown): Case => ({
    what: `${field} = ${JSON.stringify(value)?.slice(0, 60)}`,
    json: { ...route.valid(), [field]: value },
  });
  const rawWith = (field: string, jsonValue: string): string => {
    const body = { ...route.valid(), [field]: '__HOLE__' };
    return JSON.stringify(body).replace('"__HOLE__"', jsonValue);
  };
  const kinds: Array<fc.Arbitrary<Case>> = [
    anyField.chain((field) => wrongValue(route.fields[field]).map((value) => withField(field, value))),
    fc.integer({ min: 33, max: 4000 }).map((depth) => ({
      what: `nested ${depth} deep`,
      raw: rawWith(names[0], `${'['.repeat(depth)}${']'.repeat(depth)}`),
    })),
    fc
      .constantFrom('"\\ud800"', '"x\\udfff"', '"\\udc00\\ud800"', '"a\\u0000b"')
      .chain((text) =>
        fc
          .constantFrom(...(textFields.length ? textFields : names))
          .map((field) => ({ what: `${field} = ${text}`, raw: rawWith(field, text) })),
      ),
    fc
      .constantFrom('{', '{"a":', '[1,', '{"a" 1}', "{'a': 1}", '\u0000', 'nul', '{"a":1}}')
      .map((raw) => ({ what: `malformed JSON ${JSON.stringify(raw)}`, raw })),
    fc.constantFrom('[]', '[{}]', '"text"', '42', 'null', 'true').map((raw) => ({ what: `top-level ${raw}`, raw })),
  ];
  if (route.required.length)
    kinds.push(
      fc.constantFrom(...route.required).map((field) => {
        const body = route.valid();
        delete body[field];
        return { what: `without ${field}`, json: body };
      }),
    );
  if (route.method !== 'DELETE')
    kinds.push(
      fc.constant({ what: 'a body over the 1 MB limit', json: { ...route.valid(), pad: 'x'.repeat(1_100_000) } }),
    );
  return fc.oneof(...kinds);
}

describe('fuzz: malformed input on every route answers a 4xx JSON message and changes nothing', () => {
  let env: E2eEnv;
  let admin: string;
  let customer: { id: string; token: string };
  let product: { _id: string; sizes: string[]; colors: string[] };
  let guestId: string;
  let checkoutId: string;
  let orderId: string;
  let userId: string;
  let discountId: string;
  let returnId: string;

  const call = (method: string, path: string, token?: string, json?: unknown) =>
    api(env.baseUrl, method, path, { token, json });

  beforeAll(async () => {
    env = e2eEnv();
    admin = (await call('POST', '/api/users/login', undefined, login(env, 'admin'))).body.token;
    const registered = await call('POST', '/api/users/register', undefined, {
      name: 'Fuzz Buyer',
      email: uniqueEmail('fuzz'),
      password: 'Fuzzing!2345',
    });
    customer = { id: registered.body.user._id, token: registered.body.token };
    const other = await call('POST', '/api/users/register', undefined, {
      name: 'Fuzz Target',
      email: uniqueEmail('fuzz.target'),
      password: 'Fuzzing!2345',
    });
    userId = other.body.user._id;
    // A product of this suite's own: the suites run side by side, and another's newest product must not lose stock here.
    const [seeded] = (await call('GET', '/api/products?limit=1')).body;
    const created = await call('POST', '/api/admin/products', admin, {
      name: 'Fuzz Test Cap',
      description: 'Bought by the fuzz suite.',
      price: 12.5,
      countInStock: 50,
      sku: `E2E-FUZZ-${Date.now()}`,
      category: 'Accessories',
      gender: 'Men',
      brand: 'Green Bay Packers',
      sizes: ['M'],
      colors: ['Green'],
      material: 'Cotton',
      images: [seeded.images[0]],
    });
    expect(created.status).toBe(201);
    product = created.body;
    guestId = `guest_${Date.now()}fuzz`;
    const line = { productId: product._id, quantity: 1, size: product.sizes[0], color: product.colors[0] };
    expect((await call('POST', '/api/cart', undefined, { ...line, guestId })).status).toBe(201);
    expect((await call('POST', '/api/cart', customer.token, line)).status).toBe(201);
    const checkout = await call('POST', '/api/checkout', customer.token, {
      checkoutItems: [line],
      shippingAddress: address(),
    });
    checkoutId = checkout.body._id;
    // A paid, finalized order for the admin order route.
    const paid = await call('POST', '/api/checkout', customer.token, {
      checkoutItems: [line],
      shippingAddress: address(),
    });
    const fake = await fetch(`${env.paypalUrl}/__fake/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ value: paid.body.totalPrice.toFixed(2) }),
    });
    const paypalOrderId = ((await fake.json()) as { id: string }).id;
    await call('PUT', `/api/checkout/${paid.body._id}/pay`, customer.token, { paymentDetails: { id: paypalOrderId } });
    orderId = (await call('POST', `/api/checkout/${paid.body._id}/finalize`, customer.token)).body._id;
    expect(orderId).toMatch(/^[0-9a-f]{24}$/);
    // Delivered, with a return of its one unit (issue 38): the return routes' bodies are checked against a real one.
    expect((await call('PUT', `/api/admin/orders/${orderId}`, admin, { status: 'Delivered' })).status).toBe(200);
    const asked = await call('POST', `/api/orders/${orderId}/returns`, customer.token, {
      lines: [{ line: 0, quantity: 1 }],
      reason: 'Too small',
    });
    expect(asked.status).toBe(201);
    returnId = asked.body.returns[0]._id;
    const discount = await call('POST', '/api/admin/discounts', admin, discountBody());
    expect(discount.status).toBe(201);
    discountId = discount.body._id;
  });

  /** A discount code body the admin routes accept (issue 24); its code marks the suite's own codes. */
  const discountBody = () => ({
    code: `FUZZ-${randomUUID().slice(0, 8)}`,
    type: 'percent',
    value: 10,
    minSubtotal: 20,
    startsAt: '2026-01-01T00:00:00.000Z',
    endsAt: '2099-01-01T00:00:00.000Z',
    usageLimit: 5,
    perCustomerLimit: 1,
    firstOrderOnly: false,
    active: true,
  });
  // Limits as 'number': the wrong values of 'quantity' include 100, a valid limit.
  const discountFields: Record<string, Kind> = {
    code: 'text',
    type: 'text',
    value: 'number',
    minSubtotal: 'number',
    startsAt: 'text',
    endsAt: 'text',
    usageLimit: 'number',
    perCustomerLimit: 'number',
    firstOrderOnly: 'flag',
    active: 'flag',
  };
  const fuzzCodes = async () =>
    ((await call('GET', '/api/admin/discounts', admin)).body as Array<{ code: string }>).filter((c) =>
      c.code.startsWith('FUZZ-'),
    );

  const address = () => ({
    firstName: 'Fuzz',
    lastName: 'Buyer',
    address: '1 Test Road',
    city: 'Leeds',
    postalCode: 'LS1 1AA',
    country: 'United Kingdom',
    phone: '0113 496 0000',
  });
  const userOf = async (id: string) =>
    (await call('GET', '/api/admin/users', admin)).body.find((u: { _id: string }) => u._id === id);
  const productState = async () => (await call('GET', `/api/admin/products/${product._id}`, admin)).body;
  const cartOf = async (token?: string) =>
    (await call('GET', token ? '/api/cart' : `/api/cart?guestId=${guestId}`, token)).body;
  const wishlistOf = async (token?: string) =>
    (await call('GET', token ? '/api/wishlist' : `/api/wishlist?guestId=${guestId}`, token)).body;
  // What a refused body could have written: records made from this suite's bodies (a broken body keeps at least its
  // name or its email/SKU marker). Counting every record would count the other suites' work too: they run alongside.
  const adminUsers = async () =>
    ((await call('GET', '/api/admin/users', admin)).body as Array<{ name: string; email: string }>).filter(
      (u) => u.name.startsWith('Fuzz') || u.email.startsWith('e2e.fuzz'),
    ).length;
  const adminProducts = async () =>
    ((await call('GET', '/api/admin/products', admin)).body as Array<{ name: string; sku: string }>).filter(
      (p) => p.name.startsWith('Fuzz') || p.sku.startsWith('FUZZ-'),
    ).length;

  const routes = (): BodyRoute[] => {
    const line = () => ({ productId: product._id, quantity: 1, size: product.sizes[0], color: product.colors[0] });
    const productBody = () => ({
      name: 'Fuzz Product',
      description: 'Made by the fuzz suite.',
      price: 19.99,
      countInStock: 3,
      sku: `FUZZ-${randomUUID().slice(0, 8)}`,
      category: 'Accessories',
      sizes: ['M'],
      colors: ['Green'], // the size and colour of BAD_VARIANTS' variant: each of those is wrong in its own way only
      isPublished: false,
    });
    const productFields: Record<string, Kind> = {
      name: 'text',
      description: 'text',
      price: 'number',
      countInStock: 'quantity',
      variants: 'variants',
      sku: 'text',
      category: 'text',
      sizes: 'list',
      colors: 'list',
      isPublished: 'flag',
    };
    return [
      {
        name: 'POST /api/users/register',
        method: 'POST',
        path: () => '/api/users/register',
        valid: () => ({ name: 'Fuzz New', email: uniqueEmail('fuzz.new'), password: 'Fuzzing!2345' }),
        fields: { name: 'text', email: 'text', password: 'text' },
        required: ['name', 'email', 'password'],
        state: adminUsers,
      },
      {
        name: 'POST /api/users/login',
        method: 'POST',
        path: () => '/api/users/login',
        valid: () => ({ email: 'nobody@example.com', password: 'Fuzzing!2345' }),
        fields: { email: 'text', password: 'text' },
        required: ['email', 'password'],
        state: adminUsers,
      },
      {
        name: 'POST /api/subscribe',
        method: 'POST',
        path: () => '/api/subscribe',
        valid: () => ({ email: uniqueEmail('fuzz.news') }),
        fields: { email: 'text' },
        required: ['email'],
        state: adminUsers,
      },
      {
        name: 'POST /api/admin/users',
        method: 'POST',
        path: () => '/api/admin/users',
        token: () => admin,
        valid: () => ({
          name: 'Fuzz Added',
          email: uniqueEmail('fuzz.added'),
          password: 'Fuzzing!2345',
          role: 'customer',
        }),
        fields: { name: 'text', email: 'text', password: 'text', role: 'text' },
        required: ['name', 'email', 'password'],
        state: adminUsers,
      },
      {
        name: 'PUT /api/admin/users/:id',
        method: 'PUT',
        path: () => `/api/admin/users/${userId}`,
        token: () => admin,
        valid: () => ({ name: 'Fuzz Target', role: 'customer' }),
        fields: { name: 'text', email: 'text', role: 'text' },
        required: [],
        state: () => userOf(userId),
      },
      {
        name: 'POST /api/admin/products',
        method: 'POST',
        path: () => '/api/admin/products',
        token: () => admin,
        valid: productBody,
        fields: productFields,
        required: ['name', 'description', 'price', 'category'],
        state: adminProducts,
      },
      {
        name: 'PUT /api/admin/products/:id',
        method: 'PUT',
        path: () => `/api/admin/products/${product._id}`,
        token: () => admin,
        valid: () => ({ price: 19.99, countInStock: 3 }),
        fields: productFields,
        required: [],
        state: productState,
      },
      {
        name: 'PUT /api/products/:id',
        method: 'PUT',
        path: () => `/api/products/${product._id}`,
        token: () => admin,
        valid: () => ({ name: 'Fuzz Renamed' }),
        fields: productFields,
        required: [],
        state: productState,
      },
      {
        name: 'POST /api/cart (guest)',
        method: 'POST',
        path: () => '/api/cart',
        valid: () => ({ ...line(), guestId }),
        fields: { productId: 'id', quantity: 'quantity', size: 'text', color: 'text', guestId: 'text' },
        required: ['productId', 'quantity', 'guestId'],
        state: () => cartOf(),
      },
      {
        name: 'PUT /api/cart (user)',
        method: 'PUT',
        path: () => '/api/cart',
        token: () => customer.token,
        valid: () => ({ ...line(), quantity: 2 }),
        fields: { productId: 'id', quantity: 'quantity', size: 'text', color: 'text', userId: 'id' },
        required: ['productId', 'quantity'],
        state: () => cartOf(customer.token),
      },
      {
        name: 'DELETE /api/cart (guest)',
        method: 'DELETE',
        path: () => '/api/cart',
        valid: () => ({ productId: product._id, size: product.sizes[0], color: product.colors[0], guestId }),
        fields: { productId: 'id', size: 'text', color: 'text', guestId: 'text' },
        required: ['productId', 'guestId'],
        state: () => cartOf(),
      },
      {
        name: 'POST /api/cart/merge',
        method: 'POST',
        path: () => '/api/cart/merge',
        token: () => customer.token,
        valid: () => ({ guestId: `guest_${Date.now()}nothing` }),
        fields: { guestId: 'text' },
        required: [],
        state: () => cartOf(customer.token),
      },
      {
        name: 'POST /api/wishlist (guest)',
        method: 'POST',
        path: () => '/api/wishlist',
        valid: () => ({ productId: product._id, guestId }),
        fields: { productId: 'id', guestId: 'text', userId: 'id' },
        required: ['productId', 'guestId'],
        state: () => wishlistOf(),
      },
      {
        name: 'POST /api/wishlist/merge',
        method: 'POST',
        path: () => '/api/wishlist/merge',
        token: () => customer.token,
        valid: () => ({ guestId: `guest_${Date.now()}nothing` }),
        fields: { guestId: 'text' },
        required: [],
        state: () => wishlistOf(customer.token),
      },
      {
        // the guest saved nothing: a body that passed would be 404, never a move
        name: 'POST /api/wishlist/:productId/move (guest)',
        method: 'POST',
        path: () => `/api/wishlist/${product._id}/move`,
        valid: () => ({ size: product.sizes[0], color: product.colors[0], quantity: 1, guestId }),
        fields: { size: 'text', color: 'text', quantity: 'quantity', guestId: 'text', userId: 'id' },
        required: ['guestId'],
        state: async () => [await wishlistOf(), await cartOf()],
      },
      {
        // the product is in stock: a body that passed would be 409, never a request
        name: 'POST /api/stock-alerts',
        method: 'POST',
        path: () => '/api/stock-alerts',
        valid: () => ({
          productId: product._id,
          size: product.sizes[0],
          color: product.colors[0],
          email: uniqueEmail('fuzz.alert'),
        }),
        fields: { productId: 'id', size: 'text', color: 'text', email: 'text' },
        required: ['productId'],
        state: productState,
      },
      {
        name: 'POST /api/stock-alerts/unsubscribe',
        method: 'POST',
        path: () => '/api/stock-alerts/unsubscribe',
        valid: () => ({ token: 'not.signed' }),
        fields: { token: 'text' },
        required: ['token'],
        state: productState,
      },
      {
        name: 'POST /api/checkout',
        method: 'POST',
        path: () => '/api/checkout',
        token: () => customer.token,
        valid: () => ({ checkoutItems: [line()], shippingAddress: address(), paymentMethod: 'PayPal', totalPrice: 1 }),
        fields: {
          checkoutItems: 'list',
          shippingAddress: 'address',
          paymentMethod: 'text',
          totalPrice: 'number',
          discountCode: 'text',
        },
        required: ['checkoutItems', 'shippingAddress'],
        state: productState,
      },
      {
        name: 'POST /api/checkout/quote',
        method: 'POST',
        path: () => '/api/checkout/quote',
        token: () => customer.token,
        valid: () => ({ checkoutItems: [line()], discountCode: 'FUZZ-NO-SUCH-CODE' }),
        fields: { checkoutItems: 'list', discountCode: 'text' },
        required: ['checkoutItems'],
        state: productState,
      },
      {
        name: 'POST /api/admin/discounts',
        method: 'POST',
        path: () => '/api/admin/discounts',
        token: () => admin,
        valid: discountBody,
        fields: discountFields,
        required: ['code', 'type', 'value', 'active'],
        state: async () => (await fuzzCodes()).length,
      },
      {
        name: 'PUT /api/admin/discounts/:id',
        method: 'PUT',
        path: () => `/api/admin/discounts/${discountId}`,
        token: () => admin,
        valid: discountBody,
        fields: discountFields,
        required: ['code', 'type', 'value', 'active'],
        state: async () => (await fuzzCodes()).find((c) => (c as { _id?: string })._id === discountId),
      },
      {
        name: 'PUT /api/checkout/:id/pay',
        method: 'PUT',
        path: () => `/api/checkout/${checkoutId}/pay`,
        token: () => customer.token,
        valid: () => ({ paymentStatus: 'paid', paymentDetails: { id: 'UNKNOWN0000000000' } }),
        fields: { paymentStatus: 'text', paymentDetails: 'address' },
        required: ['paymentDetails'],
        state: async () => (await call('GET', `/api/checkout/${checkoutId}`, customer.token)).body,
      },
      {
        name: 'POST /api/orders/:id/returns',
        method: 'POST',
        path: () => `/api/orders/${orderId}/returns`,
        token: () => customer.token,
        valid: () => ({ lines: [{ line: 0, quantity: 1 }], reason: 'Too small', comment: 'Fuzz' }),
        fields: { lines: 'list', reason: 'text', comment: 'text' },
        required: ['lines', 'reason'],
        state: async () => (await call('GET', `/api/orders/${orderId}`, admin)).body,
      },
      {
        name: 'PUT /api/admin/orders/:id/returns/:returnId',
        method: 'PUT',
        path: () => `/api/admin/orders/${orderId}/returns/${returnId}`,
        token: () => admin,
        valid: () => ({ status: 'Approved', note: 'Fuzz' }),
        fields: { status: 'text', note: 'text', restock: 'list' },
        required: ['status'],
        state: async () => (await call('GET', `/api/orders/${orderId}`, admin)).body,
      },
      {
        name: 'PUT /api/admin/orders/:id',
        method: 'PUT',
        path: () => `/api/admin/orders/${orderId}`,
        token: () => admin,
        valid: () => ({ status: 'Processing' }),
        fields: { status: 'text' },
        required: ['status'],
        state: async () => (await call('GET', `/api/orders/${orderId}`, admin)).body,
      },
      {
        // Shipped with the parcel (issue 38): each field wrong, or missing, is refused, and the order stays as it was
        name: 'PUT /api/admin/orders/:id (Shipped with tracking)',
        method: 'PUT',
        path: () => `/api/admin/orders/${orderId}`,
        token: () => admin,
        valid: () => ({ status: 'Shipped', carrier: 'Royal Mail', trackingNumber: 'AB123456785GB' }),
        fields: { status: 'text', carrier: 'text', trackingNumber: 'text' },
        required: ['status', 'carrier', 'trackingNumber'],
        state: async () => (await call('GET', `/api/orders/${orderId}`, admin)).body,
      },
      {
        // The dashboard's payment alert, reviewed: the suite's order has none, so even a good count changes nothing
        name: 'POST /api/admin/orders/:id/payment-alert/review',
        method: 'POST',
        path: () => `/api/admin/orders/${orderId}/payment-alert/review`,
        token: () => admin,
        valid: () => ({ refunds: 0 }),
        fields: { refunds: 'count' },
        required: ['refunds'],
        state: async () => (await call('GET', `/api/orders/${orderId}`, admin)).body,
      },
      {
        // PayPal's webhooks (issue 38): nothing here is signed by PayPal, so every body — even a well-formed event
        // naming the suite's checkout — is refused 400 and the checkout stays unpaid
        name: 'POST /api/paypal/webhooks',
        method: 'POST',
        path: () => '/api/paypal/webhooks',
        valid: () => ({
          id: `WH-FUZZ-${checkoutId}`,
          event_type: 'PAYMENT.CAPTURE.COMPLETED',
          resource: {
            id: 'FUZZCAPTURE000001',
            status: 'COMPLETED',
            custom_id: checkoutId,
            amount: { currency_code: 'GBP', value: '1.00' },
            supplementary_data: { related_ids: { order_id: 'FUZZORDER00000001' } },
          },
        }),
        fields: { id: 'text', event_type: 'text', resource: 'address' },
        required: ['id', 'event_type'],
        state: async () => (await call('GET', `/api/checkout/${checkoutId}`, customer.token)).body,
      },
    ];
  };

  /** A refusal as every error looks (docs/api.md#conventions); the case is named in the failure. */
  function expectRefusal(res: ApiResponse, what: string): void {
    const refused =
      res.status >= 400 &&
      res.status < 500 &&
      (res.headers.get('content-type') ?? '').includes('application/json') &&
      typeof res.body?.message === 'string' &&
      res.body.message.length > 0 &&
      res.body.statusCode === res.status;
    if (!refused) throw new Error(`${what} → ${res.status} ${res.text.slice(0, 200)}`);
  }

  it('every body route refuses every broken body', async () => {
    for (const route of routes()) {
      const before = await route.state();
      await fc.assert(
        fc.asyncProperty(cases(route), async (c) => {
          const res = await api(env.baseUrl, route.method, route.path(), {
            token: route.token?.(),
            ...(c.raw !== undefined ? { raw: c.raw } : { json: c.json }),
          });
          expectRefusal(res, `${route.name} with ${c.what}`);
        }),
        { seed: SEED, numRuns: RUNS },
      );
      expect({ route: route.name, state: await route.state() }).toEqual({ route: route.name, state: before });
    }
  });

  it('every product route refuses every broken variants list (issue 22), and changes nothing', async () => {
    const productRoutes = routes().filter((r) => r.fields.variants);
    expect(productRoutes.map((r) => r.name)).toEqual([
      'POST /api/admin/products',
      'PUT /api/admin/products/:id',
      'PUT /api/products/:id',
    ]);
    for (const route of productRoutes) {
      const before = await route.state();
      for (const variants of BAD_VARIANTS) {
        const res = await api(env.baseUrl, route.method, route.path(), {
          token: route.token?.(),
          json: { ...route.valid(), variants },
        });
        expectRefusal(res, `${route.name} with variants = ${JSON.stringify(variants).slice(0, 80)}`);
      }
      expect({ route: route.name, state: await route.state() }).toEqual({ route: route.name, state: before });
    }
  });

  it('every query route refuses or reduces malformed queries, never a 5xx', async () => {
    const key = fc.constantFrom(
      'category',
      'gender',
      'color',
      'size',
      'minPrice',
      'maxPrice',
      'sortBy',
      'search',
      'limit',
      'collection',
      'brand',
      'material',
      'q',
    );
    const value = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom('-1', '1e400', 'NaN', 'Infinity', '0x10', '%', '%ZZ', '%ED%A0%80', '\u0000', 'x'.repeat(5000)),
    );
    const shape = fc.oneof(
      fc.tuple(key, value).map(([k, v]) => `${k}=${encodeURIComponent(v)}`),
      fc.tuple(key, value, value).map(([k, a, b]) => `${k}=${encodeURIComponent(a)}&${k}=${encodeURIComponent(b)}`),
      fc.tuple(key, fc.constantFrom('$ne', '$gt', '$regex', '0', '')).map(([k, op]) => `${k}[${op}]=x`),
      fc.constantFrom('%', '%ZZ=1', 'a=%ED%A0%80', '&&&=', 'limit=1&limit[$gt]=0'),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(shape, { minLength: 1, maxLength: 3 }), async (parts) => {
        const query = parts.join('&');
        for (const path of ['/api/products', '/api/products/suggest', '/api/cart', '/api/wishlist']) {
          const res = await api(
            env.baseUrl,
            'GET',
            `${path}?${query}${path !== '/api/products' ? `&guestId=${guestId}` : ''}`,
          );
          if (res.status < 300) {
            if (!Array.isArray(res.body) && typeof res.body !== 'object')
              throw new Error(`GET ${path}?${query} → ${res.status} not JSON`);
            continue;
          }
          expectRefusal(res, `GET ${path}?${query}`);
        }
      }),
      { seed: SEED, numRuns: RUNS * 3 },
    );
    // The returns queue's one parameter (issue 38): anything but one status is a 400; a key with an operator in it
    // (`status[$ne]`) is another key, ignored (the whole queue), never an operator.
    for (const query of ['status=Lost', 'status=Requested&status=Approved', 'status=', 'status=%00']) {
      const res = await api(env.baseUrl, 'GET', `/api/admin/returns?${query}`, { token: admin });
      expectRefusal(res, `GET /api/admin/returns?${query}`);
    }
    for (const query of ['status[$ne]=x', 'status[$regex]=.*', 'x=1']) {
      const res = await api(env.baseUrl, 'GET', `/api/admin/returns?${query}`, { token: admin });
      if (res.status >= 300) expectRefusal(res, `GET /api/admin/returns?${query}`);
      else
        expect({ query, list: Array.isArray(res.body) }).toEqual({
          query,
          list: true,
        });
    }
    for (const id of ['x', '0', '%00', '%ED%A0%80', "1' OR 1=1", 'a'.repeat(5000)]) {
      const body = { lines: [{ line: 0, quantity: 1 }], reason: 'Too small' };
      expectRefusal(
        await api(env.baseUrl, 'POST', `/api/orders/${id}/returns`, { token: customer.token, json: body }),
        `POST /api/orders/${id}/returns`,
      );
      for (const path of [
        `/api/admin/orders/${id}/returns/${returnId}`,
        `/api/admin/orders/${orderId}/returns/${id}`,
      ]) {
        const res = await api(env.baseUrl, 'PUT', path, { token: admin, json: { status: 'Approved' } });
        expectRefusal(res, `PUT ${path}`);
      }
    }
    for (const id of ['x', '0', '%00', 'aaaaaaaaaaaaaaaaaaaaaaaa', '%ED%A0%80', "1' OR 1=1", 'a'.repeat(5000)]) {
      for (const path of ['/api/products/', '/api/products/similar/', '/api/orders/', '/api/checkout/']) {
        const res = await api(env.baseUrl, 'GET', `${path}${id}`, { token: customer.token });
        expectRefusal(res, `GET ${path}${id}`);
      }
      // a wishlist's product id in the path, and the owner in the query (malformed, or an operator)
      for (const query of [`guestId=${guestId}`, 'guestId=bad%20id', 'guestId[$ne]=x', `userId=${userId}`]) {
        for (const [method, path] of [
          ['DELETE', `/api/wishlist/${id}`],
          ['POST', `/api/wishlist/${id}/move`],
        ]) {
          // removing a well-formed id the guest never saved is a no-op (200), not bad input
          if (method === 'DELETE' && /^[0-9a-f]{24}$/.test(id) && query === `guestId=${guestId}`) continue;
          const res = await api(env.baseUrl, method, `${path}?${query}`, { json: {} });
          expectRefusal(res, `${method} ${path}?${query}`);
        }
      }
    }
  });
});
