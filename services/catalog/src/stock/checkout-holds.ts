import { Injectable } from '@nestjs/common';
import { PATTERNS, type ExpiredHoldRequest, type ExpiredHoldResponse } from '@shop/contracts';
import { RpcClient } from '@shop/nest-common';

/**
 * What the catalog asks of checkout, which knows whether a checkout is paid: before the sweeper gives back a hold
 * that ran out of time, whether its checkout lets it go (unpaid, or never stored) or keeps it (paid: its order takes
 * the units). No answer is an error: the hold stays, and the next sweep asks again.
 */
@Injectable()
export class CheckoutHolds {
  constructor(private readonly checkout: RpcClient) {}

  async mayRelease(checkoutId: string): Promise<boolean> {
    const answer = await this.checkout.send<ExpiredHoldResponse>(PATTERNS.checkout.expiredHold, {
      checkoutId,
    } satisfies ExpiredHoldRequest);
    return answer.release === true;
  }
}
