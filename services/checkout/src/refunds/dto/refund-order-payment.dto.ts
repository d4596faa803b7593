import type { RefundOrderPaymentRequest, RefundReturnRequest } from '@shop/contracts';
import { IsBoolean, IsInt, IsMongoId, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { PAYPAL_ORDER_ID } from '../../paypal/paypal.client';

/** The order and the PayPal payment a refund request names (both requests below). */
abstract class OrderPaymentDto {
  @IsMongoId({ message: 'orderId must be an order id' })
  orderId!: string;

  @IsMongoId({ message: 'checkoutId must be a checkout id' })
  checkoutId!: string;

  @Matches(PAYPAL_ORDER_ID, { message: 'paypalOrderId must be a PayPal order id' })
  paypalOrderId!: string;

  @IsString({ message: 'captureId must be a PayPal capture id' })
  @MaxLength(100, { message: 'captureId must be a PayPal capture id' })
  @Matches(/^[A-Za-z0-9-]+$/, { message: 'captureId must be a PayPal capture id' })
  captureId!: string;
}

/** orders → checkout: the payment of a cancelled order. Anything else is answered 400 before PayPal is asked. */
export class RefundOrderPaymentDto extends OrderPaymentDto implements RefundOrderPaymentRequest {
  @IsOptional()
  @IsBoolean({ message: 'onlyIfMade must be true or false' })
  onlyIfMade?: boolean;
}

/** orders → checkout: a received return's refund. Anything else is answered 400 before PayPal is asked. */
export class RefundReturnDto extends OrderPaymentDto implements RefundReturnRequest {
  @IsMongoId({ message: 'returnId must be a return id' })
  returnId!: string;

  @IsInt({ message: 'amountPence must be a whole number of pence, at least 1' })
  @Min(1, { message: 'amountPence must be a whole number of pence, at least 1' })
  @Max(100_000_000, { message: 'amountPence must be a whole number of pence, at least 1' })
  amountPence!: number;
}
