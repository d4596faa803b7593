import { ApiProperty } from '@nestjs/swagger';
import { ORDER_MESSAGES, type ReviewPaymentAlertBody } from '@shop/contracts';
import { IsInt, Max, Min } from 'class-validator';

/** POST /api/admin/orders/:id/payment-alert/review: anything but a whole number from 0 to 1,000 is 400. */
export class ReviewPaymentAlertDto implements ReviewPaymentAlertBody {
  @ApiProperty({
    minimum: 0,
    maximum: 1000,
    description:
      'How many refunds and reversals made outside the shop the admin reviewed: the length of the order’s ' +
      '`externalRefunds` as shown. Another one recorded since is a 409 and the alert stays.',
  })
  @IsInt({ message: ORDER_MESSAGES.invalidRefundsSeen })
  @Min(0, { message: ORDER_MESSAGES.invalidRefundsSeen })
  @Max(1000, { message: ORDER_MESSAGES.invalidRefundsSeen })
  refunds!: number;
}
