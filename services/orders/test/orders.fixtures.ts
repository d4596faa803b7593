// Orders suites run the real orders service in this process against the test servers (MongoDB-wire, Redis,
// RabbitMQ): checkout's request is sent over RabbitMQ as checkout sends it, and the events orders publishes
// are read from the suite's exchange as catalog and cart would read them.
import { getModelToken } from '@nestjs/mongoose';
import {
  EVENTS,
  PATTERNS,
  type CreateOrderRequest,
  type CreateOrderResponse,
  type EventEnvelope,
  type OrderCancelledEvent,
  type OrderPlacedEvent,
  type OrderStatusChangedEvent,
  type Role,
} from '@shop/contracts';
import { EventBus, namespacedExchange, RpcClient } from '@shop/nest-common';
import {
  deleteConsumerTopology,
  request,
  startTestService,
  type JsonResponse,
  type TestService,
} from '@shop/nest-common/testing';
import { Types, type Model } from 'mongoose';
import { AppModule } from '../src/app.module';
import { Order } from '../src/orders/order.schema';

export const ADMIN = { id: '64b7f9f9f9f9f9f9f9f9f9f9', role: 'admin' as Role, name: 'Ada Admin' };
export const CUSTOMER = { id: '64b7f9f9f9f9f9f9f9f9f9fa', role: 'customer' as Role, name: 'Casey Customer' };
export const OTHER_CUSTOMER = { id: '64b7f9f9f9f9f9f9f9f9f9fb', role: 'customer' as Role, name: 'Olly Other' };

const quietLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const newId = () => new Types.ObjectId().toHexString();

/** A paid checkout as checkout sends it to be made an order: two lines, £199.97 in all. */
export function paidCheckout(
  buyer: { id: string; name: string } = CUSTOMER,
  overrides: Partial<CreateOrderRequest> = {},
): CreateOrderRequest {
  return {
    checkoutId: newId(),
    user: { _id: buyer.id, name: buyer.name, email: `${buyer.name.split(' ')[0].toLowerCase()}@example.com` },
    orderItems: [
      {
        productId: '65a000000000000000000001',
        name: 'Packers Home Jersey',
        image: '/uploads/seed/packers-home.svg',
        pricePence: 8999,
        quantity: 2,
        size: 'M',
        color: 'Green',
        sku: 'GB-HOME-M-GREEN',
      },
      {
        productId: '65a000000000000000000002',
        name: 'Ravens Beanie',
        image: '/uploads/seed/ravens-beanie.svg',
        pricePence: 1999,
        quantity: 1,
        size: '',
        color: 'Purple',
      },
    ],
    shippingAddress: {
      firstName: 'Casey',
      lastName: 'Customer',
      address: '1 Lambeau Lane',
      city: 'Leeds',
      postalCode: 'LS1 4AP',
      country: 'United Kingdom',
      phone: '+44 113 496 0000',
    },
    totalPence: 19997,
    paidAt: new Date().toISOString(),
    paymentDetails: {
      provider: 'paypal',
      id: `PAYPAL-${newId()}`,
      status: 'COMPLETED',
      captureId: `CAPTURE-${newId()}`,
      captureStatus: 'COMPLETED',
      amount: '199.97',
      currency: 'GBP',
      payerEmail: 'casey@example.com',
    },
    ...overrides,
  };
}

/**
 * The same order with no PayPal payment on record (an order checkout never sends, but orders accepts): cancelling it
 * refunds nothing, so suites that run no checkout can cancel it. Paid orders are cancelled, with their refund, in
 * cancel-refund.spec.ts, where checkout and the fake PayPal run too.
 */
export function withoutPayPalPayment(req: CreateOrderRequest): CreateOrderRequest {
  const { paymentDetails: _none, ...rest } = req;
  return rest;
}

/** What each event orders publishes carries. */
interface OrderEventData {
  [EVENTS.orders.orderPlaced]: OrderPlacedEvent;
  [EVENTS.orders.orderCancelled]: OrderCancelledEvent;
  [EVENTS.orders.orderStatusChanged]: OrderStatusChangedEvent;
}
type OrderEventType = keyof OrderEventData;
type OrderEvent = EventEnvelope<OrderEventData[OrderEventType]>;

/** The events published in a suite's namespace, every delivery kept (no dedupe: duplicates must show). */
export interface EventsTap {
  received: OrderEvent[];
  of<T extends OrderEventType>(type: T): EventEnvelope<OrderEventData[T]>[];
  close(): Promise<void>;
}

/** Listens to every orders event of the namespace on a queue of its own, connected straight to RabbitMQ. */
export async function tapEvents(url: string, namespace: string): Promise<EventsTap> {
  const bus = new EventBus({
    url,
    service: 'orders-tap',
    exchange: namespacedExchange(namespace),
    logger: quietLogger,
  });
  await bus.start();
  const queue = `${namespace}orders-tap.events`;
  const received: OrderEvent[] = [];
  await bus.subscribe({ 'orders.#': async (event) => void received.push(event) }, { queue });
  return {
    received,
    of: <T extends OrderEventType>(type: T) =>
      received.filter((e): e is EventEnvelope<OrderEventData[T]> => e.type === type),
    close: async () => {
      await bus.close();
      await deleteConsumerTopology(url, queue);
    },
  };
}

export interface OrdersHarness {
  svc: TestService;
  /** Sends checkout's request over RabbitMQ. */
  create(req: CreateOrderRequest): Promise<CreateOrderResponse>;
  events: EventsTap;
  orders: Model<Order>;
  /** GET/PUT/DELETE on the service's HTTP side, as the given user (or without a token). */
  http(
    method: string,
    path: string,
    as?: { id: string; role: Role; name: string },
    body?: unknown,
  ): Promise<JsonResponse>;
  close(): Promise<void>;
}

/** Starts orders with a request client and an events tap (on `eventsUrl`, default the service's) in its namespace. */
export async function startOrders(env: Record<string, string> = {}, eventsUrl?: string): Promise<OrdersHarness> {
  const svc = await startTestService('orders', AppModule, { env });
  const rpc = new RpcClient('orders', { url: svc.config.RABBITMQ_URL, namespace: svc.namespace, timeoutMs: 20_000 });
  const events = await tapEvents(eventsUrl ?? svc.config.RABBITMQ_URL, svc.namespace);
  return {
    svc,
    create: (req) => rpc.send<CreateOrderResponse>(PATTERNS.orders.createOrder, req),
    events,
    orders: svc.app.get<Model<Order>>(getModelToken(Order.name)),
    http: (method, path, as, body) =>
      request(`${svc.url}${path}`, { method, body, token: as ? svc.token(as) : undefined }),
    close: async () => {
      await rpc.onApplicationShutdown();
      await events.close();
      await svc.close();
    },
  };
}

/** The status and message of a failed request, or undefined if it succeeded. */
export function errorOf(p: Promise<unknown>): Promise<{ status: number; message: string } | undefined> {
  return p.then(
    () => undefined,
    (e: { getStatus(): number; message: string }) => ({ status: e.getStatus(), message: e.message }),
  );
}
