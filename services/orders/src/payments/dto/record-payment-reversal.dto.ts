import { type PaymentReversalKind, type RecordPaymentReversalRequest } from '@shop/contracts';
import { IsIn, IsInt, IsISO8601, IsString, Matches, Max, Min } from 'class-validator';

const PAYPAL_ID = /^[A-Za-z0-9-]{1,64}$/;

/** PATTERNS.orders.recordPaymentReversal, as checkout sends it from a verified PayPal webhook. */
export class RecordPaymentReversalDto implements RecordPaymentReversalRequest {
  @IsString() @Matches(/^[a-f0-9]{24}$/i) checkoutId!: string;
  @IsString() @Matches(PAYPAL_ID) paypalOrderId!: string;
  @IsString() @Matches(PAYPAL_ID) captureId!: string;
  @IsString() @Matches(PAYPAL_ID) refundId!: string;
  @IsIn(['refund', 'reversal']) kind!: PaymentReversalKind;
  @IsInt() @Min(0) @Max(100_000_000) amountPence!: number;
  @IsString() @Matches(/^[A-Z]{3}$/) currency!: string;
  @IsISO8601() at!: string;
}
