import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  MAX_CART_LINE_QUANTITY,
  SHIPPING_ADDRESS_LABELS,
  type CreateOrderRequest,
  type PaymentDetailsJson,
  type ShippingAddress,
} from '@shop/contracts';

/** Most lines one order holds (a cart holds fewer; this only bounds what is stored). */
export const MAX_ORDER_LINES = 100;

const OBJECT_ID = /^[0-9a-f]{24}$/;

// Helpers apply their rules in the order listed (stacked decorators would run bottom-up), and the first
// rule that fails is the message (the global pipe stops at the first error).

/** A required, non-empty string of at most `max` characters. */
const Text = (field: string, max: number) =>
  applyDecorators(
    IsNotEmpty({ message: `${field} is required` }),
    IsString({ message: `${field} must be text` }),
    MaxLength(max, { message: `${field} must be at most ${max} characters` }),
  );

/** An optional string ('' allowed) of at most `max` characters. */
const OptionalText = (field: string, max: number) =>
  applyDecorators(
    IsOptional(),
    IsString({ message: `${field} must be text` }),
    MaxLength(max, { message: `${field} must be at most ${max} characters` }),
  );

const Id = (field: string) =>
  applyDecorators(IsString({ message: `Invalid ${field}` }), Matches(OBJECT_ID, { message: `Invalid ${field}` }));

/** A nested object, validated as its class. */
const Nested = (field: string, cls: () => new () => object) =>
  applyDecorators(IsObject({ message: `${field} must be an object` }), ValidateNested(), Type(cls));

class OrderUserDto {
  @Id('user id')
  _id!: string;

  @Text('user.name', 100)
  name!: string;

  @OptionalText('user.email', 254)
  email?: string;
}

class OrderLineDto {
  @Id('product id')
  productId!: string;

  @Text('Item name', 200)
  name!: string;

  @OptionalText('Item image', 2000)
  image!: string;

  @IsInt({ message: 'pricePence must be a whole number of pence' })
  @Min(0, { message: 'pricePence must be a whole number of pence' })
  pricePence!: number;

  @IsInt({ message: `Quantity must be a whole number from 1 to ${MAX_CART_LINE_QUANTITY}` })
  @Min(1, { message: `Quantity must be a whole number from 1 to ${MAX_CART_LINE_QUANTITY}` })
  @Max(MAX_CART_LINE_QUANTITY, { message: `Quantity must be a whole number from 1 to ${MAX_CART_LINE_QUANTITY}` })
  quantity!: number;

  @OptionalText('Size', 50)
  size!: string;

  @OptionalText('Color', 50)
  color!: string;

  @OptionalText('SKU', 100)
  sku?: string;
}

class ShippingAddressDto implements ShippingAddress {
  @Text(SHIPPING_ADDRESS_LABELS.firstName, 100) firstName!: string;
  @Text(SHIPPING_ADDRESS_LABELS.lastName, 100) lastName!: string;
  @Text(SHIPPING_ADDRESS_LABELS.address, 200) address!: string;
  @Text(SHIPPING_ADDRESS_LABELS.city, 100) city!: string;
  @Text(SHIPPING_ADDRESS_LABELS.postalCode, 20) postalCode!: string;
  @Text(SHIPPING_ADDRESS_LABELS.country, 100) country!: string;
  @Text(SHIPPING_ADDRESS_LABELS.phone, 30) phone!: string;
}

class PaymentDetailsDto implements PaymentDetailsJson {
  @IsIn(['paypal'], { message: "paymentDetails.provider must be 'paypal'" })
  provider!: 'paypal';

  @Text('paymentDetails.id', 100) id!: string;
  @Text('paymentDetails.status', 50) status!: string;
  @Text('paymentDetails.captureId', 100) captureId!: string;
  @Text('paymentDetails.captureStatus', 50) captureStatus!: string;
  @Text('paymentDetails.amount', 20) amount!: string;
  @Text('paymentDetails.currency', 3) currency!: string;
  @OptionalText('paymentDetails.payerEmail', 254) payerEmail?: string;
  @OptionalText('paymentDetails.payerId', 100) payerId?: string;
  @OptionalText('paymentDetails.capturedAt', 40) capturedAt?: string;
}

class OrderDiscountDto {
  @Text('discount.code', 64) code!: string;

  @IsInt({ message: 'discount.amountPence must be a whole number of pence' })
  @Min(0, { message: 'discount.amountPence must be a whole number of pence' })
  amountPence!: number;
}

/** The order's lines: a list of 1–MAX_ORDER_LINES lines, each validated. */
const Lines = () =>
  applyDecorators(
    IsArray({ message: 'No items in order' }),
    ArrayMinSize(1, { message: 'No items in order' }),
    ArrayMaxSize(MAX_ORDER_LINES, { message: `An order holds at most ${MAX_ORDER_LINES} lines` }),
    ValidateNested({ each: true }),
    Type(() => OrderLineDto),
  );

/**
 * PATTERNS.orders.createOrder: a paid checkout, as checkout sends it. Validated by the global pipe, so a
 * malformed request is answered 400 over RabbitMQ; unknown fields are dropped.
 */
export class CreateOrderDto implements CreateOrderRequest {
  @Text('checkoutId', 100)
  checkoutId!: string;

  @Nested('user', () => OrderUserDto)
  user!: OrderUserDto;

  @Lines()
  orderItems!: OrderLineDto[];

  @Nested('shippingAddress', () => ShippingAddressDto)
  shippingAddress!: ShippingAddressDto;

  @IsInt({ message: 'totalPence must be a whole number of pence' })
  @Min(0, { message: 'totalPence must be a whole number of pence' })
  totalPence!: number;

  /** Before the discount: the lines' sum, and the total plus the discount. */
  @IsOptional()
  @IsInt({ message: 'subtotalPence must be a whole number of pence' })
  @Min(0, { message: 'subtotalPence must be a whole number of pence' })
  subtotalPence?: number;

  @IsOptional()
  @Nested('discount', () => OrderDiscountDto)
  discount?: OrderDiscountDto;

  @IsISO8601({ strict: true }, { message: 'paidAt must be an ISO date' })
  paidAt!: string;

  @IsOptional()
  @IsBoolean({ message: 'placedBefore must be true or false' })
  placedBefore?: boolean;

  @IsOptional()
  @Nested('paymentDetails', () => PaymentDetailsDto)
  paymentDetails?: PaymentDetailsDto;
}
