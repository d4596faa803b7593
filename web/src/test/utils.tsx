// The web tests' harness: renderWithProviders (store + router + toasts) and a fake of the HTTP API.
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { AxiosError, AxiosHeaders, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { AdminStatsJson, CartJson, OrderJson, ProductJson, VariantJson, PublicUser } from '@shop/contracts';
import { api } from '@/api/client';
import { makeStore, type AppStore, type RootState } from '@/app/store';
import { ToasterHost } from '@/components/ToasterHost';

interface Options {
  preloadedState?: Partial<RootState>;
  store?: AppStore;
  /** The URL the router starts at. */
  route?: string;
  /** The route pattern the UI is mounted at (for useParams), default "*". */
  path?: string;
}

/** Shows where the router is, for assertions on redirects. */
function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{`${location.pathname}${location.search}`}</div>;
}

export function renderWithProviders(ui: ReactElement, options: Options = {}) {
  const store = options.store ?? makeStore(options.preloadedState);
  const result = render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[options.route ?? '/']}>
        <Routes>
          <Route path={options.path ?? '*'} element={ui} />
          <Route path="*" element={<p>elsewhere</p>} />
        </Routes>
        <LocationProbe />
        <ToasterHost />
      </MemoryRouter>
    </Provider>,
  );
  return { store, ...result };
}

export interface Call {
  method: string;
  url: string;
  params?: Record<string, unknown>;
  data?: unknown;
  headers: Record<string, unknown>;
}

type Answer = { status?: number; body?: unknown; headers?: Record<string, string> };
type Reply = Answer | ((call: Call) => Answer);

/**
 * Replaces the axios instance's transport: `"GET /api/cart": {body}` answers that call (with `headers` if given);
 * anything else is a 404.
 * Returns the calls made, in order.
 */
export function fakeApi(routes: Record<string, Reply>): Call[] {
  const calls: Call[] = [];
  api.defaults.adapter = async (config: InternalAxiosRequestConfig): Promise<AxiosResponse> => {
    const method = (config.method ?? 'get').toUpperCase();
    const url = (config.url ?? '').replace(/^\/+/, '/');
    const call: Call = {
      method,
      url,
      params: config.params,
      data: typeof config.data === 'string' ? JSON.parse(config.data) : config.data,
      headers: AxiosHeaders.from(config.headers as never).toJSON(),
    };
    calls.push(call);
    const route = routes[`${method} ${url}`];
    const reply = typeof route === 'function' ? route(call) : route;
    const status = reply ? (reply.status ?? 200) : 404;
    const body = reply ? reply.body : { message: 'Not found', statusCode: 404 };
    const headers = Object.fromEntries(Object.entries(reply?.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    const response: AxiosResponse = { data: body, status, statusText: String(status), headers, config };
    if (status >= 400)
      throw new AxiosError(`Request failed with status code ${status}`, 'ERR_BAD_REQUEST', config, {}, response);
    return response;
  };
  return calls;
}

// ---- typed fixtures (shapes from packages/contracts)

/**
 * A product's variants, one per size × colour (null where it offers none), SKU `<product sku>-<size>-<color>`;
 * `stock` is each variant's units, in order (sizes down, colours across), or a total spread over them evenly.
 */
export function variantsOf(
  product: Pick<ProductJson, 'sku' | 'sizes' | 'colors'>,
  stock: number | number[],
): VariantJson[] {
  const sizes = product.sizes.length ? product.sizes : [null];
  const colors = product.colors.length ? product.colors : [null];
  const cells = sizes.flatMap((size) => colors.map((color) => ({ size, color })));
  return cells.map(({ size, color }, i) => ({
    sku: [product.sku, size, color].filter(Boolean).join('-').toUpperCase(),
    size,
    color,
    countInStock: Array.isArray(stock)
      ? (stock[i] ?? 0)
      : Math.floor(stock / cells.length) + (i < stock % cells.length ? 1 : 0),
  }));
}

/**
 * A product; its variants are the sizes × colours with `countInStock` spread over them, unless given (then
 * `countInStock` is their sum, as the server's is).
 */
export function aProduct(overrides: Partial<ProductJson> = {}): ProductJson {
  const product = aBareProduct(overrides);
  const variants = overrides.variants ?? variantsOf(product, product.countInStock);
  return { ...product, variants, countInStock: variants.reduce((sum, v) => sum + v.countInStock, 0) };
}

function aBareProduct(overrides: Partial<ProductJson>): ProductJson {
  return {
    _id: '65a000000000000000000001',
    name: "Green Bay Packers Men's Home Game Jersey",
    description: 'Green home jersey with tackle-twill numbers.',
    price: 99.99,
    originalPrice: 119.99,
    countInStock: 20,
    sku: 'GB-JSY-HOME-M',
    category: 'Top Wear',
    brand: 'Green Bay Packers',
    sizes: ['S', 'M', 'L'],
    colors: ['Green', 'White'],
    collections: 'Game Day',
    material: 'Polyester',
    gender: 'Men',
    images: [
      { url: '/uploads/seed/gb-1.svg', altText: 'Packers jersey, front' },
      { url: '/uploads/seed/gb-2.svg', altText: 'Packers jersey, back' },
    ],
    variants: [],
    rating: 4.5,
    numReviews: 10,
    isFeatured: false,
    isPublished: true,
    tags: [],
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function aCart(lines: Array<Partial<CartJson['products'][number]>> = []): CartJson {
  const products = lines.map((line, i) => ({
    productId: `65a00000000000000000010${i}`,
    name: `Item ${i + 1}`,
    image: `/uploads/seed/item-${i + 1}.svg`,
    price: 10,
    quantity: 1,
    size: 'M',
    color: 'Red',
    sku: `ITEM-${i + 1}-M-RED`,
    countInStock: 10,
    ...line,
  }));
  return { products, totalPrice: products.reduce((sum, l) => sum + l.price * l.quantity, 0) };
}

export const aUser = (overrides: Partial<PublicUser> = {}): PublicUser => ({
  _id: '65a0000000000000000000aa',
  name: 'Jane Fan',
  email: 'jane@example.com',
  role: 'customer',
  ...overrides,
});

export function anOrder(overrides: Partial<OrderJson> = {}): OrderJson {
  return {
    _id: '65b000000000000000000001',
    user: { _id: '65a0000000000000000000aa', name: 'Jane Fan' },
    checkoutId: '65c000000000000000000001',
    orderItems: [
      {
        productId: '65a000000000000000000001',
        name: "Green Bay Packers Men's Home Game Jersey",
        image: '/uploads/seed/gb-1.svg',
        price: 99.99,
        quantity: 1,
        size: 'M',
        color: 'Green',
        sku: 'GB-JSY-HOME-M-M-GREEN',
      },
    ],
    shippingAddress: {
      firstName: 'Jane',
      lastName: 'Fan',
      address: '1 Stadium Way',
      city: 'London',
      postalCode: 'N17 0BX',
      country: 'United Kingdom',
      phone: '+44 20 7946 0001',
    },
    paymentMethod: 'PayPal',
    shippingMethod: 'Free international shipping',
    totalPrice: 99.99,
    isPaid: true,
    paidAt: '2025-03-01T10:00:00.000Z',
    paymentStatus: 'paid',
    isDelivered: false,
    status: 'Processing',
    statusHistory: [{ status: 'Processing', at: '2025-03-01T10:00:00.000Z' }],
    createdAt: '2025-03-01T10:00:00.000Z',
    updatedAt: '2025-03-01T10:00:00.000Z',
    ...overrides,
  };
}

export function someStats(overrides: Partial<AdminStatsJson> = {}): AdminStatsJson {
  return {
    revenue: 1234.5,
    orders: 3,
    products: 42,
    recentOrders: [anOrder()],
    revenueByDay: [
      { date: '2025-03-01', revenue: 99.99, orders: 1 },
      { date: '2025-03-02', revenue: 0, orders: 0 },
      { date: '2025-03-03', revenue: 1134.51, orders: 2 },
    ],
    ...overrides,
  };
}

/** Holds the answers of the calls `which` picks until the returned function is called (after fakeApi). */
export function holdApi(which: (config: InternalAxiosRequestConfig) => boolean = () => true): () => void {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const inner = api.defaults.adapter as (config: InternalAxiosRequestConfig) => Promise<AxiosResponse>;
  api.defaults.adapter = async (config: InternalAxiosRequestConfig) => {
    if (which(config)) await gate;
    return inner(config);
  };
  return () => release();
}
