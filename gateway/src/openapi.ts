import { ROUTES } from './routes';

/**
 * The OpenAPI 3 description of the public /api surface (API.md), served at GET /api/docs.
 * Hand-written as a compact table; `buildOpenApi()` expands it into the document.
 */
type Auth = 'none' | 'optional' | 'user' | 'owner' | 'admin';
type Method = 'get' | 'post' | 'put' | 'delete';

interface Operation {
  method: Method;
  path: string;
  tag: string;
  auth: Auth;
  summary: string;
  status?: number;
  response?: string;
  body?: string;
  query?: Array<[name: string, description: string]>;
  errors?: number[];
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const OPERATIONS: Operation[] = [
  // identity
  {
    method: 'post',
    path: '/api/users/register',
    tag: 'users',
    auth: 'none',
    summary: 'Register a customer account',
    status: 201,
    body: 'RegisterRequest',
    response: 'AuthResult',
    errors: [400, 429],
  },
  {
    method: 'post',
    path: '/api/users/login',
    tag: 'users',
    auth: 'none',
    summary: 'Log in; the same 401 message for an unknown email and a wrong password',
    body: 'LoginRequest',
    response: 'AuthResult',
    errors: [400, 401, 429],
  },
  {
    method: 'get',
    path: '/api/users/profile',
    tag: 'users',
    auth: 'user',
    summary: "The caller's profile",
    response: 'User',
  },
  {
    method: 'get',
    path: '/api/admin/users',
    tag: 'admin',
    auth: 'admin',
    summary: 'All users (never a password hash)',
    response: 'UserList',
  },
  {
    method: 'post',
    path: '/api/admin/users',
    tag: 'admin',
    auth: 'admin',
    summary: 'Create a user (role defaults to customer)',
    status: 201,
    body: 'AdminUserRequest',
    response: 'UserMessage',
    errors: [400],
  },
  {
    method: 'put',
    path: '/api/admin/users/{id}',
    tag: 'admin',
    auth: 'admin',
    summary: "Change a user's name, email or role (role changes void their tokens)",
    body: 'AdminUserRequest',
    response: 'UserMessage',
    errors: [400, 404],
  },
  {
    method: 'delete',
    path: '/api/admin/users/{id}',
    tag: 'admin',
    auth: 'admin',
    summary: 'Delete a user (not yourself, not the last admin)',
    response: 'Message',
    errors: [400, 404],
  },
  {
    method: 'post',
    path: '/api/subscribe',
    tag: 'users',
    auth: 'none',
    summary: 'Subscribe an email to the newsletter',
    status: 201,
    body: 'SubscribeRequest',
    response: 'Message',
    errors: [400],
  },
  // catalog
  {
    method: 'get',
    path: '/api/products',
    tag: 'products',
    auth: 'none',
    summary: 'Published products, filtered and sorted',
    response: 'ProductList',
    errors: [400],
    query: [
      ['collection', '`all` or a collection name'],
      ['category', 'equality; `all` = any'],
      ['gender', 'equality; `all` = any'],
      ['size', 'comma-separated list'],
      ['color', 'comma-separated list'],
      ['material', 'comma-separated list'],
      ['brand', 'comma-separated list'],
      ['minPrice', 'number'],
      ['maxPrice', 'number'],
      ['search', 'case-insensitive substring of name or description'],
      ['sortBy', '`priceAsc`, `priceDesc` or `popularity`'],
      ['limit', 'positive integer, at most 100'],
    ],
  },
  {
    method: 'get',
    path: '/api/products/new-arrivals',
    tag: 'products',
    auth: 'none',
    summary: 'The 8 newest products',
    response: 'ProductList',
  },
  {
    method: 'get',
    path: '/api/products/best-seller',
    tag: 'products',
    auth: 'none',
    summary: 'The best-selling product',
    response: 'Product',
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/products/similar/{id}',
    tag: 'products',
    auth: 'none',
    summary: 'Up to 4 products of the same gender and category',
    response: 'ProductList',
    errors: [400, 404],
  },
  {
    method: 'get',
    path: '/api/products/{id}',
    tag: 'products',
    auth: 'none',
    summary: 'One product',
    response: 'Product',
    errors: [400, 404],
  },
  {
    method: 'put',
    path: '/api/products/{id}',
    tag: 'admin',
    auth: 'admin',
    summary: 'Update a product',
    body: 'ProductInput',
    response: 'Product',
    errors: [400, 404],
  },
  {
    method: 'delete',
    path: '/api/products/{id}',
    tag: 'admin',
    auth: 'admin',
    summary: 'Remove a product',
    response: 'Message',
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/admin/products',
    tag: 'admin',
    auth: 'admin',
    summary: 'All products, including unpublished',
    response: 'ProductList',
  },
  {
    method: 'post',
    path: '/api/admin/products',
    tag: 'admin',
    auth: 'admin',
    summary: 'Create a product',
    status: 201,
    body: 'ProductInput',
    response: 'Product',
    errors: [400],
  },
  {
    method: 'get',
    path: '/api/admin/products/{id}',
    tag: 'admin',
    auth: 'admin',
    summary: 'One product, published or not (the edit page)',
    response: 'Product',
    errors: [400, 404],
  },
  {
    method: 'put',
    path: '/api/admin/products/{id}',
    tag: 'admin',
    auth: 'admin',
    summary: 'Update a product',
    body: 'ProductInput',
    response: 'Product',
    errors: [400, 404],
  },
  {
    method: 'delete',
    path: '/api/admin/products/{id}',
    tag: 'admin',
    auth: 'admin',
    summary: 'Remove a product',
    response: 'Message',
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/upload',
    tag: 'admin',
    auth: 'admin',
    summary: 'Upload a product image (multipart field `image`, at most 5 MB, type checked by content)',
    status: 201,
    body: 'Upload',
    response: 'UploadResult',
    errors: [400, 413],
  },
  // cart
  {
    method: 'get',
    path: '/api/cart',
    tag: 'cart',
    auth: 'optional',
    summary: "The caller's cart (token) or a guest cart (guestId)",
    response: 'Cart',
    errors: [400, 401, 403, 503],
    query: [
      ['guestId', '`guest_` + 1-64 of [A-Za-z0-9_-]'],
      ['userId', 'must equal the token user'],
    ],
  },
  {
    method: 'post',
    path: '/api/cart',
    tag: 'cart',
    auth: 'optional',
    summary: 'Add a line (priced by the server); 201 when it creates the cart, else 200',
    body: 'CartLineRequest',
    response: 'Cart',
    errors: [400, 401, 403, 404, 409, 503],
  },
  {
    method: 'put',
    path: '/api/cart',
    tag: 'cart',
    auth: 'optional',
    summary: 'Set a line quantity (0 removes it)',
    body: 'CartLineRequest',
    response: 'Cart',
    errors: [400, 401, 403, 404, 409, 503],
  },
  {
    method: 'delete',
    path: '/api/cart',
    tag: 'cart',
    auth: 'optional',
    summary: 'Remove a line',
    body: 'CartLineRequest',
    response: 'Cart',
    errors: [400, 401, 403, 404, 503],
  },
  {
    method: 'post',
    path: '/api/cart/merge',
    tag: 'cart',
    auth: 'user',
    summary: "Merge a guest cart into the caller's cart",
    body: 'MergeRequest',
    response: 'Cart',
    errors: [400, 401, 503],
  },
  // checkout
  {
    method: 'get',
    path: '/api/config',
    tag: 'checkout',
    auth: 'none',
    summary: 'Runtime configuration for the SPA (currency, PayPal mode)',
    response: 'ClientConfig',
  },
  {
    method: 'post',
    path: '/api/checkout',
    tag: 'checkout',
    auth: 'user',
    summary: 'Create a checkout: re-priced by the server, stock reserved',
    status: 201,
    body: 'CheckoutRequest',
    response: 'Checkout',
    errors: [400, 401, 404, 409, 503],
  },
  {
    method: 'get',
    path: '/api/checkout/{id}',
    tag: 'checkout',
    auth: 'owner',
    summary: 'One of your checkouts',
    response: 'Checkout',
    errors: [404],
  },
  {
    method: 'put',
    path: '/api/checkout/{id}/pay',
    tag: 'checkout',
    auth: 'owner',
    summary: 'Mark paid after the server verified the PayPal order',
    body: 'PayRequest',
    response: 'Checkout',
    errors: [400, 401, 402, 404, 409, 503],
  },
  {
    method: 'post',
    path: '/api/checkout/{id}/finalize',
    tag: 'checkout',
    auth: 'owner',
    summary: 'Turn a paid checkout into an order (idempotent: a repeat answers 200 with the same order)',
    status: 201,
    response: 'Order',
    errors: [400, 401, 404, 503],
  },
  // orders
  {
    method: 'get',
    path: '/api/orders/my-orders',
    tag: 'orders',
    auth: 'user',
    summary: "The caller's orders, newest first",
    response: 'OrderList',
  },
  {
    method: 'get',
    path: '/api/orders/{id}',
    tag: 'orders',
    auth: 'owner',
    summary: 'One order (its buyer or an admin)',
    response: 'Order',
    errors: [400, 401, 404],
  },
  {
    method: 'get',
    path: '/api/admin/orders',
    tag: 'admin',
    auth: 'admin',
    summary: 'All orders, newest first',
    response: 'OrderList',
  },
  {
    method: 'put',
    path: '/api/admin/orders/{id}',
    tag: 'admin',
    auth: 'admin',
    summary: 'Change an order status (Cancelled releases stock, once; a cancelled order stays cancelled)',
    body: 'OrderStatusRequest',
    response: 'Order',
    errors: [400, 404],
  },
  {
    method: 'delete',
    path: '/api/admin/orders/{id}',
    tag: 'admin',
    auth: 'admin',
    summary: 'Remove an order',
    response: 'Message',
    errors: [400, 404, 503],
  },
  {
    method: 'get',
    path: '/api/admin/stats',
    tag: 'admin',
    auth: 'admin',
    summary: 'Revenue, counts, recent orders, revenue by day',
    response: 'Stats',
  },
  // gateway
  { method: 'get', path: '/api/docs', tag: 'gateway', auth: 'none', summary: 'This document', response: 'Object' },
];

const obj = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
});
const str = { type: 'string' };
const num = { type: 'number' };
const int = { type: 'integer' };
const bool = { type: 'boolean' };
const date = { type: 'string', format: 'date-time' };
const money = { type: 'number', description: 'GBP, at most two decimals', example: 39.99 };
const arr = (items: unknown) => ({ type: 'array', items });
const line = obj({ productId: str, name: str, image: str, price: money, quantity: int, size: str, color: str });
const address = obj(
  { firstName: str, lastName: str, address: str, city: str, postalCode: str, country: str, phone: str },
  ['firstName', 'lastName', 'address', 'city', 'postalCode', 'country', 'phone'],
);

const SCHEMAS: Record<string, unknown> = {
  ApiError: obj(
    {
      message: { type: 'string', description: 'One human sentence' },
      statusCode: int,
      details: arr(obj({ field: str, message: str })),
    },
    ['message', 'statusCode'],
  ),
  Object: { type: 'object' },
  Message: obj({ message: str }, ['message']),
  User: obj({
    _id: str,
    name: str,
    email: str,
    role: { type: 'string', enum: ['customer', 'admin'] },
    createdAt: date,
    updatedAt: date,
  }),
  UserList: arr(ref('User')),
  UserMessage: obj({ message: str, user: ref('User') }),
  AuthResult: obj({ user: ref('User'), token: { type: 'string', description: 'JWT for `Authorization: Bearer`' } }, [
    'user',
    'token',
  ]),
  RegisterRequest: obj(
    { name: str, email: { type: 'string', format: 'email' }, password: { type: 'string', minLength: 8 } },
    ['name', 'email', 'password'],
  ),
  LoginRequest: obj({ email: str, password: str }, ['email', 'password']),
  AdminUserRequest: obj({
    name: str,
    email: str,
    password: str,
    role: { type: 'string', enum: ['customer', 'admin'] },
  }),
  SubscribeRequest: obj({ email: str }, ['email']),
  Product: obj({
    _id: str,
    name: str,
    description: str,
    price: money,
    originalPrice: money,
    countInStock: int,
    sku: str,
    category: str,
    brand: str,
    sizes: arr(str),
    colors: arr(str),
    collections: str,
    material: str,
    gender: str,
    images: arr(obj({ url: str, altText: str })),
    rating: num,
    numReviews: int,
    isFeatured: bool,
    isPublished: bool,
    tags: arr(str),
    createdAt: date,
    updatedAt: date,
  }),
  ProductList: arr(ref('Product')),
  ProductInput: obj({ name: str, description: str, price: money, countInStock: int, sku: str, category: str }, [
    'name',
    'description',
    'price',
    'sku',
    'category',
  ]),
  Upload: obj({ image: { type: 'string', format: 'binary' } }, ['image']),
  UploadResult: obj({ imageUrl: str }, ['imageUrl']),
  Cart: obj({ _id: str, user: str, guestId: str, products: arr(line), totalPrice: money }, ['products', 'totalPrice']),
  CartLineRequest: obj({ productId: str, quantity: int, size: str, color: str, guestId: str, userId: str }, [
    'productId',
  ]),
  MergeRequest: obj({ guestId: str }, ['guestId']),
  ClientConfig: obj({
    currency: { type: 'string', enum: ['GBP'] },
    paypal: obj({ clientId: str, mode: { type: 'string', enum: ['paypal', 'fake'] }, apiBase: str }),
  }),
  CheckoutRequest: obj(
    {
      checkoutItems: arr(line),
      shippingAddress: address,
      paymentMethod: { type: 'string', enum: ['PayPal', 'Paypal'] },
      totalPrice: money,
    },
    ['checkoutItems', 'shippingAddress'],
  ),
  Checkout: obj({
    _id: str,
    user: str,
    checkoutItems: arr(line),
    shippingAddress: address,
    paymentMethod: str,
    totalPrice: money,
    isPaid: bool,
    paidAt: date,
    paymentStatus: { type: 'string', enum: ['pending', 'paid'] },
    paymentDetails: { type: 'object' },
    isFinalized: bool,
    finalizedAt: date,
    orderId: str,
    reservationExpiresAt: date,
    priceAdjusted: bool,
    createdAt: date,
    updatedAt: date,
  }),
  PayRequest: obj(
    {
      paymentStatus: { type: 'string', enum: ['paid'] },
      paymentDetails: obj({ id: { type: 'string', description: 'PayPal order id' } }, ['id']),
    },
    ['paymentDetails'],
  ),
  Order: obj({
    _id: str,
    user: obj({ _id: str, name: str, email: str }),
    checkoutId: str,
    orderItems: arr(line),
    shippingAddress: address,
    paymentMethod: str,
    shippingMethod: str,
    totalPrice: money,
    isPaid: bool,
    paidAt: date,
    paymentStatus: str,
    paymentDetails: { type: 'object' },
    isDelivered: bool,
    deliveredAt: date,
    status: { type: 'string', enum: ['Processing', 'Shipped', 'Delivered', 'Cancelled'] },
    createdAt: date,
    updatedAt: date,
  }),
  OrderList: arr(ref('Order')),
  OrderStatusRequest: obj({ status: { type: 'string', enum: ['Processing', 'Shipped', 'Delivered', 'Cancelled'] } }, [
    'status',
  ]),
  Stats: obj({
    revenue: money,
    orders: int,
    products: { type: 'integer', nullable: true, description: 'null when the catalog did not answer' },
    recentOrders: arr(ref('Order')),
    revenueByDay: arr(obj({ date: str, revenue: money, orders: int })),
  }),
};

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid input (`message` says what)',
  401: 'Not authorized, no token / token failed',
  402: 'Payment could not be verified',
  403: 'Not authorized as an admin',
  404: 'Not found (also for resources of other users)',
  409: 'Conflict (stock, price or payment already used)',
  413: 'Request body is too large',
  429: 'Too many requests, please try again later',
  503: 'The service behind this route is unavailable',
};

const AUTH_TEXT: Record<Auth, string> = {
  none: 'Public.',
  optional: 'Bearer token optional (guest carts use `guestId`); a presented but invalid token is a 401.',
  user: 'Requires a bearer token.',
  owner: 'Requires a bearer token; only the owner (orders: or an admin) sees it, others get 404.',
  admin: 'Requires an admin bearer token (401 without a token, 403 for non-admins).',
};

function errorResponse(code: number) {
  return { description: ERROR_TEXT[code] ?? 'Error', content: { 'application/json': { schema: ref('ApiError') } } };
}

function serviceOf(path: string): string {
  if (path === '/api/docs') return 'gateway';
  return ROUTES.find((r) => path === r.prefix || path.startsWith(`${r.prefix}/`))?.service ?? 'gateway';
}

export function buildOpenApi(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const parameters: unknown[] = [];
    for (const match of op.path.matchAll(/\{(\w+)\}/g)) {
      parameters.push({
        name: match[1],
        in: 'path',
        required: true,
        schema: { type: 'string', description: 'MongoDB ObjectId' },
      });
    }
    for (const [name, description] of op.query ?? []) {
      parameters.push({ name, in: 'query', required: false, description, schema: str });
    }
    const errors = new Set(op.errors ?? []);
    if (op.auth === 'user' || op.auth === 'owner' || op.auth === 'admin' || op.auth === 'optional') errors.add(401);
    if (op.auth === 'admin') errors.add(403);
    errors.add(503);
    const status = op.status ?? 200;
    const responses: Record<string, unknown> = {
      [status]: { description: 'Success', content: { 'application/json': { schema: ref(op.response ?? 'Object') } } },
    };
    for (const code of [...errors].sort((a, b) => a - b)) responses[code] = errorResponse(code);

    paths[op.path] ??= {};
    paths[op.path][op.method] = {
      tags: [op.tag],
      summary: op.summary,
      description: `${AUTH_TEXT[op.auth]} Served by the ${serviceOf(op.path)} service.`,
      operationId: `${op.method}${op.path.replace(/[{}]/g, '').replace(/[/-](\w)/g, (_, c: string) => c.toUpperCase())}`,
      ...(op.auth === 'none' ? { security: [] } : {}),
      ...(op.auth === 'optional' ? { security: [{}, { bearerAuth: [] }] } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(op.body
        ? {
            requestBody: {
              required: true,
              content: {
                [op.body === 'Upload' ? 'multipart/form-data' : 'application/json']: { schema: ref(op.body) },
              },
            },
          }
        : {}),
      responses,
    };
  }

  return {
    openapi: '3.0.3',
    info: {
      title: 'NFL Shop API',
      version: '1.0.0',
      description:
        'The public /api surface behind the gateway. Prices are GBP. Every error is JSON `{message, statusCode}`. ' +
        'Every response carries `x-request-id` (send your own to correlate).',
    },
    servers: [{ url: '/' }],
    tags: ['users', 'products', 'cart', 'checkout', 'orders', 'admin', 'gateway'].map((name) => ({ name })),
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: SCHEMAS,
    },
  };
}
