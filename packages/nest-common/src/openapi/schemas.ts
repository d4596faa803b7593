import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ORDER_STATUSES,
  RETURN_REASONS,
  RETURN_STATUSES,
  ROLES,
  type ApiError,
  type AdminReturnJson,
  type AppliedDiscountJson,
  type CartLineJson,
  type OrderJson,
  type OrderReturnJson,
  type OrderStatus,
  type OrderStatusEntryJson,
  type PaymentDetailsJson,
  type PublicUser,
  type ReturnLineJson,
  type ReturnReason,
  type ReturnStatus,
  type ReturnStepJson,
  type Role,
  type ShippingAddress,
} from '@shop/contracts';

/**
 * OpenAPI schemas of the response shapes more than one service answers with (docs/api.md). Each class implements its
 * contract type, so a field added to the contract and not here fails the build. Service-only shapes live in the
 * service beside its controller.
 */

export class FieldError {
  @ApiProperty({ example: 'email' }) field!: string;
  @ApiProperty({ example: 'Please enter a valid email address' }) message!: string;
}

/** Every error of the /api surface: `{message, statusCode}` (docs/api.md#conventions). */
export class ApiErrorBody implements ApiError {
  @ApiProperty({ description: 'One human sentence (never an array)', example: 'Product not found' })
  message!: string;

  @ApiProperty({ example: 404 })
  statusCode!: number;

  @ApiPropertyOptional({ type: [FieldError], description: 'Field errors, when a request body failed validation' })
  details?: FieldError[];
}

export class MessageBody {
  @ApiProperty({ example: 'Product removed' }) message!: string;
}

const money = (description = 'GBP, at most two decimals') => ApiProperty({ type: Number, description, example: 39.99 });
const objectId = (description = 'MongoDB ObjectId') =>
  ApiProperty({ type: String, description, example: '665f1c2ab7e4a1c3d2e0f9a1' });
const dateTime = (required = true) =>
  required
    ? ApiProperty({ type: String, format: 'date-time' })
    : ApiPropertyOptional({ type: String, format: 'date-time' });

export class PublicUserBody implements PublicUser {
  @objectId() _id!: string;
  @ApiProperty({ example: 'Jordan Smith' }) name!: string;
  @ApiProperty({ example: 'jordan@example.com' }) email!: string;
  @ApiProperty({ enum: ROLES, enumName: 'Role' }) role!: Role;
  @dateTime(false) createdAt?: string;
  @dateTime(false) updatedAt?: string;
}

/** A line of a cart, checkout or order: the catalogue's name, image and price, and the variant bought. */
export class LineItemBody implements CartLineJson {
  @objectId() productId!: string;
  @ApiProperty({ example: 'Chiefs Home Jersey' }) name!: string;
  @ApiProperty({ example: '/uploads/seed/chiefs-home-jersey.svg' }) image!: string;
  @money('Unit price, GBP') price!: number;
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 99 }) quantity!: number;
  @ApiProperty({ description: "'' when the product comes in one size", example: 'M' }) size!: string;
  @ApiProperty({ description: "'' when the product comes in one colour", example: 'Red' }) color!: string;
  @ApiPropertyOptional({ description: "The variant's SKU (its size × colour)", example: 'CHIEFS-HOME-M-RED' })
  sku?: string;
  @ApiPropertyOptional({
    type: 'integer',
    description: "Cart lines: the variant's stock now (below quantity when it fell after the line was added)",
  })
  countInStock?: number;
}

export class ShippingAddressBody implements ShippingAddress {
  @ApiProperty({ maxLength: 200 }) firstName!: string;
  @ApiProperty({ maxLength: 200 }) lastName!: string;
  @ApiProperty({ maxLength: 200 }) address!: string;
  @ApiProperty({ maxLength: 200 }) city!: string;
  @ApiProperty({ maxLength: 200 }) postalCode!: string;
  @ApiProperty({ maxLength: 200 }) country!: string;
  @ApiProperty({ maxLength: 200 }) phone!: string;
}

/** What the server keeps of a PayPal payment (never PayPal's whole answer). */
export class PaymentDetailsBody implements PaymentDetailsJson {
  @ApiProperty({ enum: ['paypal'] }) provider!: 'paypal';
  @ApiProperty({ description: "PayPal's order id" }) id!: string;
  @ApiProperty() status!: string;
  @ApiProperty() captureId!: string;
  @ApiProperty() captureStatus!: string;
  @ApiProperty({ description: 'Two decimals, as PayPal states it', example: '39.99' }) amount!: string;
  @ApiProperty({ example: 'GBP' }) currency!: string;
  @ApiPropertyOptional() payerEmail?: string;
  @ApiPropertyOptional() payerId?: string;
  @dateTime(false) capturedAt?: string;
}

/** A discount code applied to a checkout or an order, and what it took off (GBP). */
export class AppliedDiscountBody implements AppliedDiscountJson {
  @ApiProperty({ description: 'The code, upper-case', example: 'WELCOME-7KQ2M9' }) code!: string;
  @money('Taken off the subtotal, GBP') amount!: number;
}

export class OrderBuyerBody {
  @objectId() _id!: string;
  @ApiProperty({ description: 'Kept after the user is deleted' }) name!: string;
  @ApiPropertyOptional() email?: string;
}

/** An order (docs/api.md#orders); checkout's finalize answers with one too. */
/** Who made a change to an order: the admin, as their token named them. */
export class OrderChangedByBody {
  @objectId() _id!: string;
  @ApiProperty({ example: 'Ada Admin' }) name!: string;
}

/** The refund a cancellation made: PayPal's refund id and what it gave back. */
export class OrderRefundBody {
  @ApiProperty({ description: "PayPal's refund id", example: '1JU08902781691411' }) id!: string;
  @money('Refunded, GBP') amount!: number;
}

/** A step of one of the order's returns, as its history shows it. */
export class OrderStatusEntryReturnBody {
  @ApiProperty({ description: 'The return', example: '665f1c2ab7e4a1c3d2e0f9b2' }) id!: string;
  @ApiProperty({ enum: RETURN_STATUSES, enumName: 'ReturnStatus' }) status!: ReturnStatus;
  @ApiPropertyOptional({ type: Number, description: 'What it refunds (Requested) or refunded (Refunded), GBP' })
  amount?: number;
  @ApiPropertyOptional({ description: "The admin's note to the customer (Approved, Rejected)" }) note?: string;
}

export class ReturnLineBody implements ReturnLineJson {
  @ApiProperty({ description: "The line's place in the order's orderItems", example: 0 }) line!: number;
  @objectId() productId!: string;
  @ApiProperty() name!: string;
  @ApiProperty() image!: string;
  @ApiProperty() size!: string;
  @ApiProperty() color!: string;
  @ApiPropertyOptional() sku?: string;
  @ApiProperty({ example: 1 }) quantity!: number;
  @money("What these units refund: their paid price, the order's discount shared out to the penny") refund!: number;
  @ApiPropertyOptional({ description: 'Received: whether the units went back on sale' }) restock?: boolean;
}

export class ReturnStepBody implements ReturnStepJson {
  @ApiProperty({ enum: RETURN_STATUSES, enumName: 'ReturnStatus' }) status!: ReturnStatus;
  @dateTime() at!: string;
  @ApiPropertyOptional({ type: OrderChangedByBody, description: 'The admin (admins only)' }) by?: OrderChangedByBody;
  @ApiPropertyOptional() note?: string;
}

export class OrderReturnBody implements OrderReturnJson {
  @objectId() _id!: string;
  @ApiProperty({
    enum: RETURN_STATUSES,
    enumName: 'ReturnStatus',
    description: 'Requested → Approved | Rejected; Approved → Received → Refunded',
  })
  status!: ReturnStatus;
  @ApiProperty({ enum: RETURN_REASONS, enumName: 'ReturnReason' }) reason!: ReturnReason;
  @ApiPropertyOptional() comment?: string;
  @ApiProperty({ type: [ReturnLineBody] }) lines!: ReturnLineBody[];
  @money('What the return refunds once received, GBP') amount!: number;
  @ApiPropertyOptional({ type: OrderRefundBody, description: 'The refund PayPal made (Refunded)' })
  refund?: OrderRefundBody;
  @ApiPropertyOptional({ description: 'Received, not refunded yet: why (it is tried again until it is made)' })
  refundError?: string;
  @ApiProperty({ type: [ReturnStepBody] }) steps!: ReturnStepBody[];
  @dateTime() createdAt!: string;
  @dateTime() updatedAt!: string;
}

export class AdminReturnBody extends OrderReturnBody implements AdminReturnJson {
  @objectId('The order') orderId!: string;
  @ApiProperty({ type: OrderBuyerBody }) customer!: OrderBuyerBody;
  @dateTime(false) deliveredAt?: string;
}

export class OrderStatusEntryBody implements OrderStatusEntryJson {
  @ApiProperty({ enum: ORDER_STATUSES, enumName: 'OrderStatus' }) status!: OrderStatus;
  @dateTime() at!: string;
  @ApiPropertyOptional({ type: OrderChangedByBody, description: 'The admin who made the change' })
  by?: OrderChangedByBody;
  @ApiPropertyOptional({ type: OrderRefundBody, description: 'The refund this change made (a paid order cancelled)' })
  refund?: OrderRefundBody;
  @ApiPropertyOptional({
    description: 'Something that happened without changing the status (`status` repeats it)',
    example: 'Refund refused by PayPal: Capture could not be refunded due to insufficient funds.',
  })
  note?: string;
  @ApiPropertyOptional({ type: OrderStatusEntryReturnBody, description: 'A step of one of the order’s returns' })
  return?: OrderStatusEntryReturnBody;
}

export class OrderBody implements OrderJson {
  @objectId() _id!: string;
  @ApiProperty({ type: OrderBuyerBody }) user!: OrderBuyerBody;
  @objectId('The checkout this order was made from') checkoutId!: string;
  @ApiProperty({ type: [LineItemBody] }) orderItems!: LineItemBody[];
  @ApiProperty({ type: ShippingAddressBody }) shippingAddress!: ShippingAddressBody;
  @ApiProperty({ enum: ['PayPal'] }) paymentMethod!: 'PayPal';
  @ApiProperty({ example: 'Free international shipping' }) shippingMethod!: string;
  @ApiPropertyOptional({
    type: Number,
    description: 'GBP before the discount; absent on orders placed before discount codes (then it is totalPrice)',
  })
  subtotal?: number;
  @ApiPropertyOptional({ type: AppliedDiscountBody }) discount?: AppliedDiscountBody;
  @money('What was paid, GBP') totalPrice!: number;
  @ApiProperty() isPaid!: boolean;
  @dateTime() paidAt!: string;
  @ApiProperty({ enum: ['paid'] }) paymentStatus!: 'paid';
  @ApiPropertyOptional({ type: PaymentDetailsBody }) paymentDetails?: PaymentDetailsBody;
  @ApiProperty() isDelivered!: boolean;
  @dateTime(false) deliveredAt?: string;
  @ApiProperty({ enum: ORDER_STATUSES, enumName: 'OrderStatus' }) status!: OrderStatus;
  @ApiProperty({
    type: [OrderStatusEntryBody],
    description: 'Every status the order has had, oldest first (append-only); the first is Processing when placed',
  })
  statusHistory!: OrderStatusEntryBody[];
  @ApiPropertyOptional({ type: [OrderReturnBody], description: 'Its returns, oldest first (absent when none)' })
  returns?: OrderReturnBody[];
  @ApiPropertyOptional({ type: Number, description: 'What its returns refunded so far, GBP' })
  refunded?: number;
  @dateTime(false) returnableUntil?: string;
  @dateTime() createdAt!: string;
  @dateTime() updatedAt!: string;
}
