// Returns of delivered orders and their partial refunds (issue 38). Owned by orders: a return is part of its
// order's story (stored in the order, shown in its history); checkout refunds it through PayPal; catalog puts the
// units the admin restocks back on the shelf.

/** The shop's promise: "45 days return, money back guarantee" (the home page's assurances). */
export const RETURN_WINDOW_DAYS = 45;

/** Requested → Approved | Rejected; Approved → Received → Refunded. */
export const RETURN_STATUSES = ['Requested', 'Approved', 'Rejected', 'Received', 'Refunded'] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

/** What an admin may set: the shop itself sets Refunded once PayPal has made the refund. */
export const ADMIN_RETURN_STATUSES = ['Approved', 'Rejected', 'Received'] as const;
export type AdminReturnStatus = (typeof ADMIN_RETURN_STATUSES)[number];

/** Why a customer returns something (the form's choices). */
export const RETURN_REASONS = [
  'Too small',
  'Too large',
  'Not as described',
  'Arrived damaged',
  'Wrong item sent',
  'Changed my mind',
  'Other',
] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];

export const RETURN_COMMENT_MAX = 500;
export const RETURN_NOTE_MAX = 500;

// ---- HTTP shapes

/** POST /api/orders/:id/returns: which of the order's lines (their place in orderItems), how many, and why. */
export interface CreateReturnBody {
  lines: Array<{ line: number; quantity: number }>;
  reason: ReturnReason;
  comment?: string;
}

/**
 * PUT /api/admin/orders/:id/returns/:returnId. `note` goes to the customer with an approval or a rejection;
 * `restock` (Received) lists the order lines (their place in orderItems) whose units go back on sale. Received again
 * on a Received return whose refund has not gone through asks PayPal again (never twice: one refund per return).
 */
export interface UpdateReturnBody {
  status: AdminReturnStatus;
  note?: string;
  restock?: number[];
}

export interface ReturnLineJson {
  /** The line's place in the order's orderItems. */
  line: number;
  productId: string;
  name: string;
  image: string;
  size: string;
  color: string;
  sku?: string;
  quantity: number;
  /** What this line refunds (GBP): its paid price, the order's discount shared out to the penny. */
  refund: number;
  /** Received: whether its units went back on sale. */
  restock?: boolean;
}

/** A step of a return: from `at` on, it was `status`; `by` the admin; `note` their note (Approved, Rejected). */
export interface ReturnStepJson {
  status: ReturnStatus;
  at: string;
  by?: { _id: string; name: string };
  note?: string;
}

export interface OrderReturnJson {
  _id: string;
  status: ReturnStatus;
  reason: ReturnReason;
  comment?: string;
  lines: ReturnLineJson[];
  /** What the return refunds once received (GBP). */
  amount: number;
  /** The refund PayPal made (Refunded). */
  refund?: { id: string; amount: number };
  /** Received, the refund not made yet: PayPal's or the shop's last reason (it is tried again until it is made). */
  refundError?: string;
  steps: ReturnStepJson[];
  createdAt: string;
  updatedAt: string;
}

/** GET /api/admin/returns: a return with its order's number and buyer. */
export interface AdminReturnJson extends OrderReturnJson {
  orderId: string;
  customer: { _id: string; name: string; email?: string };
  deliveredAt?: string;
}

export const RETURN_MESSAGES = {
  notFound: 'Return not found',
  invalidId: 'Invalid return id',
  notDelivered: 'Only a delivered order can be returned',
  windowClosed: (deliveredOn: string) =>
    `Returns are accepted within ${RETURN_WINDOW_DAYS} days of delivery: this order was delivered on ${deliveredOn}`,
  noLines: 'Choose at least one item to return',
  tooManyLines: 'Too many lines',
  badLine: (line: number) => `Line ${line} is not a line of this order`,
  duplicateLine: (line: number) => `Line ${line} is listed twice`,
  badQuantity: 'Each quantity must be a whole number of at least 1',
  tooMany: (name: string, left: number) =>
    left === 0 ? `${name} has been returned already` : `You can return at most ${left} of ${name}`,
  badReason: `Choose a reason: ${RETURN_REASONS.join(', ')}`,
  badComment: `The comment must be text of at most ${RETURN_COMMENT_MAX} characters`,
  badStatus: `Invalid status: one of ${ADMIN_RETURN_STATUSES.join(', ')}`,
  badNote: `The note must be text of at most ${RETURN_NOTE_MAX} characters`,
  badRestock: 'restock must be a list of the return’s line numbers',
  transition: (from: ReturnStatus, to: ReturnStatus) => `A ${from} return cannot be marked ${to}`,
  notPaid: 'This order has no PayPal payment on record to refund',
  overPaid: 'The refunds would exceed what was paid for this order',
  busy: 'The order is changing: please try again',
  /** Received, the refund not made (the return stays Received and is tried again). */
  refundPending: (reason: string) => `The refund is not made yet and will be tried again: ${reason}`,
  withReturnsStayDelivered: 'An order with returns stays Delivered: its returns are refunded line by line',
} as const;

// ---- Request/response: PATTERNS.checkout.refundReturn (orders → checkout, a received return)

/** Refund `amountPence` of the order's payment for one return: one refund per return, however often asked. */
export interface RefundReturnRequest {
  orderId: string;
  returnId: string;
  checkoutId: string;
  paypalOrderId: string;
  captureId: string;
  amountPence: number;
}

/** As RefundOrderPaymentResponse: made (now, or before for this return) or refused by PayPal in its words. */
export type RefundReturnResponse =
  { refunded: true; refundId: string; amountPence: number; currency: string } | { refunded: false; reason: string };

// ---- Event: EVENTS.orders.returnStatusChanged

export interface ReturnEventLine {
  productId: string;
  name: string;
  quantity: number;
  size?: string;
  color?: string;
  sku?: string;
  /** Received: whether these units go back on sale. */
  restock?: boolean;
}

/**
 * Every step of a return, in the same write as the step (the order's outbox). Its eventId is
 * `orders.return.status-changed:<returnId>:<status>`: each step happens once per return. Notifications emails
 * Requested, Approved, Rejected and Refunded; catalog puts the `restock` lines of a Received one back on sale, once
 * per return.
 */
export interface ReturnStatusChangedEvent {
  orderId: string;
  returnId: string;
  checkoutId: string;
  userId: string;
  status: ReturnStatus;
  previousStatus?: ReturnStatus;
  changedAt: string;
  customer: { name: string; email?: string };
  lines: ReturnEventLine[];
  /** What the return refunds (GBP). */
  amount: number;
  note?: string;
  /** Refunded: what went back. */
  refund?: { amount: number; currency: string };
}
