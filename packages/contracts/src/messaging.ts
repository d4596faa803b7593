import type { ShopServiceName } from './services';

/**
 * Request/response over RabbitMQ: one durable queue per answering service.
 * Client and server must assert the queue with the same options, so both read them here.
 */
export function rpcQueue(service: ShopServiceName): string {
  return `${service}_queue`;
}

/** Stale requests expire instead of being answered after the caller gave up. */
export const RPC_QUEUE_OPTIONS = { durable: true, messageTtl: 30_000 } as const;

/** Default time a caller waits for an answer before it reports 503. */
export const RPC_TIMEOUT_MS = 5_000;

/** The topic exchange every event is published to. */
export const EVENTS_EXCHANGE = 'shop.events';

/** Request patterns, named `<receiver>.<entity>.<verb>` and owned by the receiver. */
export const PATTERNS = {
  identity: {
    /** { userId } → PublicUser | null */
    findUser: 'identity.users.find',
  },
  catalog: {
    /** PriceLinesRequest → PriceLinesResponse */
    priceLines: 'catalog.products.price',
    /** ReserveStockRequest → ReserveStockResponse */
    reserveStock: 'catalog.stock.reserve',
    /** ReleaseStockRequest → ReleaseStockResponse */
    releaseStock: 'catalog.stock.release',
    /** {} → CountProductsResponse (every product, published or not: the admin dashboard's count) */
    countProducts: 'catalog.products.count',
  },
  checkout: {
    /** RefundOrderPaymentRequest → RefundOrderPaymentResponse; one refund per PayPal payment, however often asked */
    refundOrderPayment: 'checkout.payments.refund',
    /**
     * ExpiredHoldRequest → ExpiredHoldResponse: catalog's sweeper asks before it gives back an expired hold; an unpaid
     * checkout agrees (and its pay holds the lines again), a paid one keeps its units until its order takes them.
     */
    expiredHold: 'checkout.holds.expired',
    /** RefundReturnRequest → RefundReturnResponse; one partial refund per return, however often asked */
    refundReturn: 'checkout.payments.refund-return',
  },
  orders: {
    /** CreateOrderRequest → CreateOrderResponse; idempotent on checkoutId */
    createOrder: 'orders.orders.create',
    /** RecordPaymentReversalRequest → RecordPaymentReversalResponse; idempotent on refundId */
    recordPaymentReversal: 'orders.payments.record-reversal',
  },
} as const;
