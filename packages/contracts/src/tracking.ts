// Parcel tracking: the carriers an order ships with, the shape of each one's tracking number, and the page that
// follows a parcel. Pure (no framework): orders validates with it, notifications and the SPA link with it.

export const CARRIERS = ['Royal Mail', 'DPD', 'Evri', 'DHL', 'UPS'] as const;
export type Carrier = (typeof CARRIERS)[number];

export function isCarrier(value: unknown): value is Carrier {
  return typeof value === 'string' && (CARRIERS as readonly string[]).includes(value);
}

/** An order's parcel: the carrier, its tracking number (normalised), and the carrier's page that follows it. */
export interface TrackingJson {
  carrier: Carrier;
  number: string;
  url: string;
}

interface CarrierRule {
  /** What the admin is told a number of this carrier looks like. */
  shape: string;
  /** An example that passes (shown as the field's placeholder). */
  example: string;
  pattern: RegExp;
  /** A check digit the number carries, when the carrier's format defines one. */
  checks?: (n: string) => boolean;
  /** The carrier's public tracking page for the number. */
  url: (n: string) => string;
}

/**
 * UPU S10 (Royal Mail's tracked and signed-for items): the eighth-to-last digit is a check digit over the eight
 * before it, weights 8 6 4 2 3 5 9 7, 11 − (sum mod 11), 10 → 0 and 11 → 5.
 */
export function s10CheckDigitOk(n: string): boolean {
  const digits = n.slice(2, 11);
  const weights = [8, 6, 4, 2, 3, 5, 9, 7];
  const sum = weights.reduce((acc, w, i) => acc + w * Number(digits[i]), 0);
  const c = 11 - (sum % 11);
  const expected = c === 10 ? 0 : c === 11 ? 5 : c;
  return Number(digits[8]) === expected;
}

/**
 * UPS's "1Z" numbers: the last character is a check digit over the 15 after "1Z" (letters count as (code − 63) mod
 * 10, i.e. A=2 … H=9, I=0 …), odd positions once and even positions twice, (10 − sum mod 10) mod 10.
 */
export function upsCheckDigitOk(n: string): boolean {
  const body = n.slice(2, 17);
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    const value = /\d/.test(ch) ? Number(ch) : (ch.charCodeAt(0) - 63) % 10;
    sum += i % 2 === 1 ? value * 2 : value;
  }
  return (10 - (sum % 10)) % 10 === Number(n[17]);
}

/**
 * What each carrier's numbers look like (after normalising: spaces and hyphens dropped, letters upper-cased):
 * - Royal Mail: UPU S10, two letters, eight digits and a check digit, "GB" (AB123456785GB); the check digit is checked.
 * - DPD (UK): the 14-digit parcel number on the label (15501234567890).
 * - Evri: 16 letters and digits (H00A1A0001234567), as Evri's labels and tracking page use.
 * - DHL (Express): the 10-digit waybill number (1234567890).
 * - UPS: "1Z" and 16 letters and digits (the shipper's account, the service, the parcel), the last a check digit
 *   (1Z999AA10123456784); the check digit is checked.
 */
export const CARRIER_RULES: Readonly<Record<Carrier, CarrierRule>> = {
  'Royal Mail': {
    shape: 'two letters, 9 digits and GB, e.g. AB123456785GB',
    example: 'AB123456785GB',
    pattern: /^[A-Z]{2}\d{9}GB$/,
    checks: s10CheckDigitOk,
    url: (n) => `https://www.royalmail.com/track-your-item#/tracking-results/${encodeURIComponent(n)}`,
  },
  DPD: {
    shape: '14 digits, e.g. 15501234567890',
    example: '15501234567890',
    pattern: /^\d{14}$/,
    url: (n) => `https://track.dpd.co.uk/parcels/${encodeURIComponent(n)}`,
  },
  Evri: {
    shape: '16 letters and digits, e.g. H00A1A0001234567',
    example: 'H00A1A0001234567',
    pattern: /^[A-Z0-9]{16}$/,
    url: (n) => `https://www.evri.com/track/parcel/${encodeURIComponent(n)}/details`,
  },
  DHL: {
    shape: '10 digits, e.g. 1234567890',
    example: '1234567890',
    pattern: /^\d{10}$/,
    url: (n) =>
      `https://www.dhl.com/gb-en/home/tracking/tracking-express.html?submit=1&tracking-id=${encodeURIComponent(n)}`,
  },
  UPS: {
    shape: '1Z and 16 letters and digits, e.g. 1Z999AA10123456784',
    example: '1Z999AA10123456784',
    pattern: /^1Z[A-Z0-9]{15}\d$/,
    checks: upsCheckDigitOk,
    url: (n) => `https://www.ups.com/track?loc=en_GB&tracknum=${encodeURIComponent(n)}`,
  },
};

export const TRACKING_MESSAGES = {
  carrierRequired: `Choose a carrier: ${CARRIERS.join(', ')}`,
  numberRequired: 'Enter the tracking number',
  /** Both or neither: a carrier without a number (or a number without a carrier) tracks nothing. */
  bothOrNeither: 'A carrier and a tracking number go together',
  onlyWhenShipped: 'A carrier and tracking number are given only when marking an order Shipped',
  invalid: (carrier: Carrier) => `That is not a ${carrier} tracking number: ${CARRIER_RULES[carrier].shape}`,
  checkDigit: (carrier: Carrier) =>
    `That ${carrier} tracking number has a mistyped character (its check digit does not match)`,
} as const;

/** The number as carriers print and read it: spaces and hyphens dropped, letters upper-cased. */
export function normaliseTrackingNumber(input: string): string {
  return input.replace(/[\s-]+/g, '').toUpperCase();
}

/** Why this number cannot be the carrier's (a message for the admin), or undefined when it can. */
export function trackingNumberProblem(carrier: Carrier, input: string): string | undefined {
  const n = normaliseTrackingNumber(input);
  if (!n) return TRACKING_MESSAGES.numberRequired;
  const rule = CARRIER_RULES[carrier];
  if (n.length > 40 || !rule.pattern.test(n)) return TRACKING_MESSAGES.invalid(carrier);
  if (rule.checks && !rule.checks(n)) return TRACKING_MESSAGES.checkDigit(carrier);
  return undefined;
}

/** The carrier's page that follows this parcel. */
export function trackingUrl(carrier: Carrier, input: string): string {
  return CARRIER_RULES[carrier].url(normaliseTrackingNumber(input));
}

/** The tracking of a valid number: normalised, with its page. Throws on a number the carrier would not have. */
export function tracking(carrier: Carrier, input: string): TrackingJson {
  const problem = trackingNumberProblem(carrier, input);
  if (problem) throw new RangeError(problem);
  const number = normaliseTrackingNumber(input);
  return { carrier, number, url: trackingUrl(carrier, number) };
}
