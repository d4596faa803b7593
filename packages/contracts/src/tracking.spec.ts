import {
  CARRIER_RULES,
  CARRIERS,
  normaliseTrackingNumber,
  tracking,
  TRACKING_MESSAGES,
  trackingNumberProblem,
  trackingUrl,
  type Carrier,
} from './tracking';

/** Numbers each carrier would print (real formats; the check digits computed as the carriers define them). */
const ACCEPTED: Record<Carrier, string[]> = {
  'Royal Mail': ['AB123456785GB', 'RR473124829GB', 'ee 123 456 785 gb', 'LX-123456785-GB'],
  DPD: ['15501234567890', '1550 1234 5678 90'],
  Evri: ['H00A1A0001234567', 'T00HPA0012345678', 'h00a1a0001234567'],
  DHL: ['1234567890', '12 3456 7890'],
  UPS: ['1Z999AA10123456784', '1Z5R89390357567127', '1ZXX3150YW44070023', '1z 879e 9303 4683 4440'],
};

const REFUSED: Record<Carrier, string[]> = {
  'Royal Mail': ['AB123456789GB', 'AB12345678GB', 'AB123456785US', '12123456785GB', 'AB1234567850GB', 'ABCDEFGHIJKGB'],
  DPD: ['1550123456789', '155012345678901', '1550123456789A', 'ABCDEFGHIJKLMN'],
  Evri: ['H00A1A000123456', 'H00A1A00012345678', 'H00A1A000123456!'],
  DHL: ['123456789', '12345678901', '12345678A0', 'JD014600003828488571'],
  UPS: ['1Z999AA10123456785', '1Z999AA1012345678', '2Z999AA10123456784', '1Z999AA1012345678X'],
};

describe('tracking numbers', () => {
  it.each(CARRIERS.map((c) => [c]))('%s: accepts its numbers, normalised', (carrier) => {
    for (const n of ACCEPTED[carrier]) {
      expect(trackingNumberProblem(carrier, n)).toBeUndefined();
      expect(tracking(carrier, n).number).toBe(normaliseTrackingNumber(n));
    }
    expect(trackingNumberProblem(carrier, CARRIER_RULES[carrier].example)).toBeUndefined();
  });

  it.each(CARRIERS.map((c) => [c]))('%s: refuses other shapes with a message naming the shape', (carrier) => {
    for (const n of REFUSED[carrier]) {
      const problem = trackingNumberProblem(carrier, n);
      expect(problem).toBeDefined();
      expect([TRACKING_MESSAGES.invalid(carrier), TRACKING_MESSAGES.checkDigit(carrier)]).toContain(problem);
    }
    expect(trackingNumberProblem(carrier, '   ')).toBe(TRACKING_MESSAGES.numberRequired);
    expect(() => tracking(carrier, 'nope')).toThrow(RangeError);
  });

  it('a mistyped character fails the check digit (Royal Mail, UPS)', () => {
    expect(trackingNumberProblem('Royal Mail', 'AB123456789GB')).toBe(TRACKING_MESSAGES.checkDigit('Royal Mail'));
    expect(trackingNumberProblem('UPS', '1Z999AA10123456794')).toBe(TRACKING_MESSAGES.checkDigit('UPS'));
  });

  it("one carrier's number is not another's", () => {
    expect(trackingNumberProblem('DHL', '15501234567890')).toBeDefined();
    expect(trackingNumberProblem('DPD', '1234567890')).toBeDefined();
    expect(trackingNumberProblem('Evri', 'AB123456785GB')).toBeDefined();
  });

  it("links to each carrier's own tracking page with the number", () => {
    expect(trackingUrl('Royal Mail', 'ab 123456785 gb')).toBe(
      'https://www.royalmail.com/track-your-item#/tracking-results/AB123456785GB',
    );
    expect(trackingUrl('DPD', '15501234567890')).toBe('https://track.dpd.co.uk/parcels/15501234567890');
    expect(trackingUrl('Evri', 'H00A1A0001234567')).toBe('https://www.evri.com/track/parcel/H00A1A0001234567/details');
    expect(trackingUrl('DHL', '1234567890')).toBe(
      'https://www.dhl.com/gb-en/home/tracking/tracking-express.html?submit=1&tracking-id=1234567890',
    );
    expect(trackingUrl('UPS', '1Z999AA10123456784')).toBe(
      'https://www.ups.com/track?loc=en_GB&tracknum=1Z999AA10123456784',
    );
  });
});
