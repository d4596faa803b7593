import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { CheckoutJson, CheckoutQuoteJson, PaymentStatus } from '@shop/contracts';
import { AppliedDiscountBody, LineItemBody, PaymentDetailsBody, ShippingAddressBody } from '@shop/nest-common';

/** A checkout (docs/api.md#checkout): priced by the server, its stock held until reservationExpiresAt. */
export class CheckoutBody implements CheckoutJson {
  @ApiProperty() _id!: string;
  @ApiProperty({ description: "The buyer's user id" }) user!: string;
  @ApiProperty({ type: [LineItemBody] }) checkoutItems!: LineItemBody[];
  @ApiProperty({ type: ShippingAddressBody }) shippingAddress!: ShippingAddressBody;
  @ApiProperty({ enum: ['PayPal'] }) paymentMethod!: 'PayPal';
  @ApiPropertyOptional({ description: 'The merchandise before any discount (GBP)', example: 88.87 })
  subtotal?: number;
  @ApiPropertyOptional({ type: AppliedDiscountBody, description: 'The discount code applied' })
  discount?: AppliedDiscountBody;
  @ApiProperty({
    description: "The server's total (GBP), the discount taken off: what PayPal must be paid",
    example: 79.98,
  })
  totalPrice!: number;
  @ApiProperty() isPaid!: boolean;
  @ApiPropertyOptional({ format: 'date-time' }) paidAt?: string;
  @ApiProperty({ enum: ['pending', 'paid'] }) paymentStatus!: PaymentStatus;
  @ApiPropertyOptional({ type: PaymentDetailsBody }) paymentDetails?: PaymentDetailsBody;
  @ApiProperty() isFinalized!: boolean;
  @ApiPropertyOptional({ format: 'date-time' }) finalizedAt?: string;
  @ApiProperty({ format: 'date-time', description: 'Until then the stock is held (extended once paid)' })
  reservationExpiresAt!: string;
  @ApiPropertyOptional({ description: "True when the client's totalPrice differed (the server's is charged)" })
  priceAdjusted?: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

/** `POST /api/checkout/quote`: what a checkout would charge now, priced by the server; nothing held. */
export class CheckoutQuoteBody implements CheckoutQuoteJson {
  @ApiProperty({ description: 'The merchandise (GBP)', example: 88.87 }) subtotal!: number;
  @ApiPropertyOptional({ type: AppliedDiscountBody }) discount?: AppliedDiscountBody;
  @ApiProperty({ description: 'subtotal less the discount (GBP)', example: 79.98 }) totalPrice!: number;
}
