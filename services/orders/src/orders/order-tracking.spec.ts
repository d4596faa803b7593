import { BadRequestException } from '@nestjs/common';
import { TRACKING_MESSAGES } from '@shop/contracts';
import { trackingOfChange } from './order-tracking';

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(BadRequestException);
    return (err as Error).message;
  }
  throw new Error('not refused');
};

describe('trackingOfChange', () => {
  it('none when neither field is given (older clients send {status} alone)', () => {
    expect(trackingOfChange('Shipped', undefined, undefined)).toBeUndefined();
    expect(trackingOfChange('Delivered', null, '')).toBeUndefined();
  });

  it('a valid number of the carrier, normalised', () => {
    expect(trackingOfChange('Shipped', 'Royal Mail', 'ab 1234 5678 5gb')).toEqual({
      carrier: 'Royal Mail',
      number: 'AB123456785GB',
    });
    expect(trackingOfChange('Shipped', 'UPS', '1Z999AA10123456784')).toEqual({
      carrier: 'UPS',
      number: '1Z999AA10123456784',
    });
  });

  it('refuses with a message: another status, a missing or unknown carrier, a missing or wrong number', () => {
    expect(refusal(() => trackingOfChange('Delivered', 'DPD', '15501234567890'))).toBe(
      TRACKING_MESSAGES.onlyWhenShipped,
    );
    expect(refusal(() => trackingOfChange('Shipped', undefined, '15501234567890'))).toBe(
      TRACKING_MESSAGES.carrierRequired,
    );
    expect(refusal(() => trackingOfChange('Shipped', 'Parcelforce', '15501234567890'))).toBe(
      TRACKING_MESSAGES.carrierRequired,
    );
    expect(refusal(() => trackingOfChange('Shipped', 'DPD', undefined))).toBe(TRACKING_MESSAGES.numberRequired);
    expect(refusal(() => trackingOfChange('Shipped', 'DPD', 42))).toBe(TRACKING_MESSAGES.numberRequired);
    expect(refusal(() => trackingOfChange('Shipped', 'DHL', '15501234567890'))).toBe(TRACKING_MESSAGES.invalid('DHL'));
    expect(refusal(() => trackingOfChange('Shipped', 'Royal Mail', 'AB123456789GB'))).toBe(
      TRACKING_MESSAGES.checkDigit('Royal Mail'),
    );
  });
});
