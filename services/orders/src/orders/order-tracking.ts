import { BadRequestException } from '@nestjs/common';
import {
  isCarrier,
  normaliseTrackingNumber,
  TRACKING_MESSAGES,
  trackingNumberProblem,
  type Carrier,
  type OrderStatus,
} from '@shop/contracts';

/** An order's parcel as stored: the carrier and the normalised number (the page is derived from them). */
export interface StoredTracking {
  carrier: Carrier;
  number: string;
}

/**
 * The tracking an admin's status change carries, checked: none (neither field given), or a carrier and a number of
 * that carrier's shape (contracts' tracking rules), only when marking the order Shipped. A 400 names what is wrong.
 * Tracking stays optional on the API (older clients send `{status}` alone); the admin's form requires it.
 */
export function trackingOfChange(
  status: OrderStatus,
  carrier: unknown,
  trackingNumber: unknown,
): StoredTracking | undefined {
  const given = (v: unknown) => v !== undefined && v !== null && v !== '';
  if (!given(carrier) && !given(trackingNumber)) return undefined;
  if (status !== 'Shipped') throw new BadRequestException(TRACKING_MESSAGES.onlyWhenShipped);
  if (!given(carrier)) throw new BadRequestException(TRACKING_MESSAGES.carrierRequired);
  if (!isCarrier(carrier)) throw new BadRequestException(TRACKING_MESSAGES.carrierRequired);
  if (!given(trackingNumber) || typeof trackingNumber !== 'string')
    throw new BadRequestException(TRACKING_MESSAGES.numberRequired);
  const problem = trackingNumberProblem(carrier, trackingNumber);
  if (problem) throw new BadRequestException(problem);
  return { carrier, number: normaliseTrackingNumber(trackingNumber) };
}
