import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
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
  CHECKOUT_MESSAGES,
  DISCOUNT_MESSAGES,
  MAX_CART_LINE_QUANTITY,
  MAX_CART_LINES,
  PAYMENT_METHODS,
  SHIPPING_ADDRESS_LABELS,
  type PaymentMethod,
  type ShippingAddress,
  type ShippingAddressField,
} from '@shop/contracts';
import { PAYPAL_ORDER_ID } from '../../paypal/paypal.client';

const trimmed = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));
const quantityMessage = `Quantity must be a whole number from 1 to ${MAX_CART_LINE_QUANTITY}`;

/** A required line of the address: text, trimmed, 1–200 characters, with the form's label in the message. */
const AddressField = (field: ShippingAddressField) => {
  const label = SHIPPING_ADDRESS_LABELS[field];
  return applyDecorators(
    ApiProperty({ minLength: 1, maxLength: 200 }),
    trimmed,
    IsString({ message: `${label} is required` }),
    IsNotEmpty({ message: `${label} is required` }),
    MaxLength(200, { message: `${label} must be at most 200 characters` }),
  );
};

/** One line as the client sends it: name, image and price may come along and are ignored (the catalog prices). */
export class CheckoutItemDto {
  @ApiProperty({ pattern: '^[0-9a-f]{24}$', example: '665f1c2ab7e4a1c3d2e0f9a1' })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsString({ message: 'Invalid product id' })
  @Matches(/^[0-9a-f]{24}$/, { message: 'Invalid product id' })
  productId!: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_CART_LINE_QUANTITY })
  @IsInt({ message: quantityMessage })
  @Min(1, { message: quantityMessage })
  @Max(MAX_CART_LINE_QUANTITY, { message: quantityMessage })
  quantity!: number;

  @ApiPropertyOptional({ maxLength: 50 })
  @trimmed
  @IsOptional()
  @IsString({ message: 'Size must be text' })
  @MaxLength(50, { message: 'Size must be at most 50 characters' })
  size?: string;

  @ApiPropertyOptional({ maxLength: 50 })
  @trimmed
  @IsOptional()
  @IsString({ message: 'Color must be text' })
  @MaxLength(50, { message: 'Color must be at most 50 characters' })
  color?: string;
}

export class ShippingAddressDto implements ShippingAddress {
  @AddressField('firstName') firstName!: string;
  @AddressField('lastName') lastName!: string;
  @AddressField('address') address!: string;
  @AddressField('city') city!: string;
  @AddressField('postalCode') postalCode!: string;
  @AddressField('country') country!: string;
  @AddressField('phone') phone!: string;
}

/** The lines of a checkout or a quote; class-validator runs a property's checks bottom-up: list, size, each item. */
const CheckoutItems = () =>
  applyDecorators(
    ApiProperty({
      type: [CheckoutItemDto],
      minItems: 1,
      maxItems: MAX_CART_LINES,
      description: 'name, image and price may come along and are ignored: the catalog prices',
    }),
    Type(() => CheckoutItemDto),
    IsDefined({ message: CHECKOUT_MESSAGES.noItems }),
    IsArray({ message: CHECKOUT_MESSAGES.noItems }),
    ArrayMinSize(1, { message: CHECKOUT_MESSAGES.noItems }),
    ArrayMaxSize(MAX_CART_LINES, { message: `A checkout holds at most ${MAX_CART_LINES} different items` }),
    IsObject({ each: true, message: 'Each checkout item must be an object' }),
    ValidateNested({ each: true, message: 'Each checkout item must be an object' }),
  );

/** An optional discount code: text; '' or blank is no code. Whether it exists is the service's 400. */
const DiscountCodeField = () =>
  applyDecorators(
    ApiPropertyOptional({ maxLength: 64, example: 'WELCOME-7KQ2M9', description: 'Case-insensitive' }),
    Transform(({ value }) => (typeof value === 'string' ? value.trim() || undefined : value)),
    IsOptional(),
    IsString({ message: 'Discount code must be text' }),
    // No code has anything else (the admin's rule): refused before it reaches a query.
    Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: DISCOUNT_MESSAGES.unknown }),
  );

/** POST /api/checkout. */
export class CreateCheckoutDto {
  @CheckoutItems()
  checkoutItems!: CheckoutItemDto[];

  @ApiProperty({ type: ShippingAddressDto })
  @IsDefined({ message: 'Shipping address is required' })
  @IsObject({ message: 'Shipping address is required' })
  @ValidateNested()
  @Type(() => ShippingAddressDto)
  shippingAddress!: ShippingAddressDto;

  /** Only PayPal is taken; storefront clients spell it `Paypal`. Absent means PayPal. */
  @ApiPropertyOptional({ enum: PAYMENT_METHODS, description: 'Absent means PayPal' })
  @IsOptional()
  @IsIn(PAYMENT_METHODS, { message: CHECKOUT_MESSAGES.paymentMethod })
  paymentMethod?: PaymentMethod;

  /** What the client believes the total is: compared, never charged. */
  @ApiPropertyOptional({ minimum: 0, description: "The client's total (GBP): compared, never charged" })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'totalPrice must be a number' })
  @Min(0, { message: 'totalPrice must be a number' })
  totalPrice?: number;

  @DiscountCodeField()
  discountCode?: string;
}

/** POST /api/checkout/quote: what a checkout of these lines, with this code, would charge. */
export class QuoteCheckoutDto {
  @CheckoutItems()
  checkoutItems!: CheckoutItemDto[];

  @DiscountCodeField()
  discountCode?: string;
}

export class PaymentDetailsDto {
  @ApiProperty({ description: 'The PayPal order id the client approved', pattern: PAYPAL_ORDER_ID.source })
  @IsString({ message: CHECKOUT_MESSAGES.paypalOrderId })
  @Matches(PAYPAL_ORDER_ID, { message: CHECKOUT_MESSAGES.paypalOrderId })
  id!: string;
}

/** PUT /api/checkout/:id/pay: the PayPal order the client approved; the server checks it with PayPal. */
export class PayCheckoutDto {
  /** The client's claim ("paid"): informative only. */
  @ApiPropertyOptional({ maxLength: 50, example: 'paid', description: "The client's claim: informative only" })
  @IsOptional()
  @IsString({ message: 'paymentStatus must be text' })
  @MaxLength(50, { message: 'paymentStatus must be at most 50 characters' })
  paymentStatus?: string;

  @ApiProperty({ type: PaymentDetailsDto })
  @IsDefined({ message: CHECKOUT_MESSAGES.paypalOrderId })
  @IsObject({ message: CHECKOUT_MESSAGES.paypalOrderId })
  @ValidateNested()
  @Type(() => PaymentDetailsDto)
  paymentDetails!: PaymentDetailsDto;
}
