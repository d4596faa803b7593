import type { ExpiredHoldRequest } from '@shop/contracts';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

/** catalog → checkout: the checkout whose hold expired (a hold's key: any id the catalog was given). */
export class ExpiredHoldDto implements ExpiredHoldRequest {
  @IsString({ message: 'checkoutId is required' })
  @IsNotEmpty({ message: 'checkoutId is required' })
  @MaxLength(100, { message: 'checkoutId is required' })
  checkoutId!: string;
}
