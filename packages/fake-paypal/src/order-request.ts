// Validation of a create-order body (and of a refund body), the way PayPal's Orders v2 answers bad input (400
// INVALID_REQUEST for the shape, 422 UNPROCESSABLE_ENTITY for business rules), and the money arithmetic the fake
// needs (in minor units, as bigint, never floats).
import { invalidRequest, unprocessable } from './paypal-error';
import {
  FAKE_MODE_CUSTOM_ID_PREFIX,
  FAKE_PAYPAL_MODES,
  isFakePayPalMode,
  type AmountBreakdown,
  type AmountWithBreakdown,
  type FakePayPalMode,
  type Money,
  type PurchaseUnit,
  type PurchaseUnitItem,
} from './types';

/** The currencies PayPal's REST APIs accept (developer.paypal.com, "Currency codes"). */
export const SUPPORTED_CURRENCIES: ReadonlySet<string> = new Set([
  'AUD',
  'BRL',
  'CAD',
  'CHF',
  'CNY',
  'CZK',
  'DKK',
  'EUR',
  'GBP',
  'HKD',
  'HUF',
  'ILS',
  'JPY',
  'MXN',
  'MYR',
  'NOK',
  'NZD',
  'PHP',
  'PLN',
  'SEK',
  'SGD',
  'THB',
  'TWD',
  'USD',
]);

/** Currencies PayPal takes without decimals. */
const ZERO_DECIMAL_CURRENCIES: ReadonlySet<string> = new Set(['HUF', 'JPY', 'TWD']);

const MAX_INTEGER_DIGITS = 10;
const MAX_ITEMS = 100;
const BREAKDOWN_ADDED = ['item_total', 'shipping', 'handling', 'tax_total', 'insurance'] as const;
const BREAKDOWN_SUBTRACTED = ['shipping_discount', 'discount'] as const;
const ITEM_CATEGORIES = ['DIGITAL_GOODS', 'PHYSICAL_GOODS', 'DONATION'];

export function decimalsOf(currency: string): number {
  return ZERO_DECIMAL_CURRENCIES.has(currency) ? 0 : 2;
}

/** A validated amount string in minor units (pence for GBP). */
export function toMinor(value: string, currency: string): bigint {
  const negative = value.startsWith('-');
  const [int, frac = ''] = (negative ? value.slice(1) : value).split('.');
  const minor = BigInt(int + frac.padEnd(decimalsOf(currency), '0'));
  return negative ? -minor : minor;
}

/** Minor units back to PayPal's string, e.g. 1234n GBP -> '12.34'. */
export function fromMinor(minor: bigint, currency: string): string {
  const decimals = decimalsOf(currency);
  const sign = minor < 0n ? '-' : '';
  const abs = (minor < 0n ? -minor : minor).toString().padStart(decimals + 1, '0');
  return decimals === 0 ? sign + abs : `${sign}${abs.slice(0, -decimals)}.${abs.slice(-decimals)}`;
}

export interface ValidatedCreateOrder {
  intent: 'CAPTURE';
  unit: Omit<PurchaseUnit, 'payee' | 'payments'>;
  /** Set when `custom_id` is `fake:<mode>`. */
  mode?: FakePayPalMode;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function show(value: unknown): string | undefined {
  if (typeof value === 'string') return value.slice(0, 64);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function missing(field: string): never {
  throw invalidRequest('MISSING_REQUIRED_PARAMETER', 'A required field / parameter is missing.', field);
}

function syntax(field: string, value: unknown): never {
  throw invalidRequest(
    'INVALID_PARAMETER_SYNTAX',
    'The value of a field does not conform to the expected format.',
    field,
    show(value),
  );
}

function optionalString(obj: Json, key: string, field: string, max: number): string | undefined {
  const value = obj[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') syntax(`${field}/${key}`, value);
  if (value.length < 1 || value.length > max)
    throw invalidRequest(
      'INVALID_STRING_LENGTH',
      'The value of a field is either too short or too long.',
      `${field}/${key}`,
      show(value),
    );
  return value;
}

export interface ParsedMoney {
  money: Money;
  minor: bigint;
}

/**
 * Validates an amount object. `positive`: the order total must be above zero; breakdown parts and item prices may be
 * zero. `currency`: when given, the amount must be in it.
 */
export function parseMoney(raw: unknown, field: string, opts: { positive: boolean; currency?: string }): ParsedMoney {
  if (raw === undefined) missing(field);
  if (!isObject(raw)) syntax(field, raw);
  const { currency_code: currency, value } = raw;
  if (currency === undefined) missing(`${field}/currency_code`);
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) syntax(`${field}/currency_code`, currency);
  if (!SUPPORTED_CURRENCIES.has(currency))
    throw unprocessable(
      'CURRENCY_NOT_SUPPORTED',
      'Currency code is not currently supported. Please refer https://developer.paypal.com/docs/api/reference/currency-codes/ for list of supported currency codes.',
      `${field}/currency_code`,
      currency,
    );
  if (opts.currency !== undefined && currency !== opts.currency)
    throw unprocessable(
      'CURRENCY_MISMATCH',
      'Should have same currency code across all the amount objects within a purchase unit.',
      `${field}/currency_code`,
      currency,
    );
  if (value === undefined) missing(`${field}/value`);
  if (typeof value !== 'string') syntax(`${field}/value`, value);
  if (value.length > 32)
    throw invalidRequest(
      'INVALID_STRING_LENGTH',
      'The value of a field is either too short or too long.',
      `${field}/value`,
      show(value),
    );
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match) syntax(`${field}/value`, value);
  const [, sign, int, frac] = match;
  if (sign && /[1-9]/.test(int + (frac ?? '')))
    throw unprocessable(
      opts.positive ? 'CANNOT_BE_ZERO_OR_NEGATIVE' : 'CANNOT_BE_NEGATIVE',
      opts.positive ? 'Must be greater than zero.' : 'Must be greater than or equal to zero.',
      `${field}/value`,
      value,
    );
  const decimals = decimalsOf(currency);
  if (decimals === 0 && frac !== undefined)
    throw unprocessable('DECIMALS_NOT_SUPPORTED', 'Currency does not support decimals.', `${field}/value`, value);
  // PayPal accepts up to two decimals; the fake insists on exactly two, so a shop that forgets toFixed(2) finds out.
  if (decimals === 2 && (frac === undefined || frac.length !== 2))
    throw unprocessable(
      'DECIMAL_PRECISION',
      'If the currency supports decimals, only two decimal place precision is supported.',
      `${field}/value`,
      value,
    );
  if (int.replace(/^0+/, '').length > MAX_INTEGER_DIGITS)
    throw invalidRequest(
      'INVALID_PARAMETER_VALUE',
      'The value of a field is invalid: the amount is larger than the fake accepts.',
      `${field}/value`,
      show(value),
    );
  const minor = toMinor(value.replace(/^-/, ''), currency);
  if (opts.positive && minor === 0n)
    throw unprocessable('CANNOT_BE_ZERO_OR_NEGATIVE', 'Must be greater than zero.', `${field}/value`, value);
  return { money: { currency_code: currency, value }, minor };
}

function parseBreakdown(
  raw: unknown,
  field: string,
  total: ParsedMoney,
): { breakdown: AmountBreakdown; parts: Map<string, bigint> } {
  if (!isObject(raw)) syntax(field, raw);
  const breakdown: AmountBreakdown = {};
  const parts = new Map<string, bigint>();
  for (const key of [...BREAKDOWN_ADDED, ...BREAKDOWN_SUBTRACTED]) {
    if (raw[key] === undefined) continue;
    const part = parseMoney(raw[key], `${field}/${key}`, { positive: false, currency: total.money.currency_code });
    breakdown[key] = part.money;
    parts.set(key, part.minor);
  }
  let sum = 0n;
  for (const key of BREAKDOWN_ADDED) sum += parts.get(key) ?? 0n;
  for (const key of BREAKDOWN_SUBTRACTED) sum -= parts.get(key) ?? 0n;
  if (sum !== total.minor)
    throw unprocessable(
      'AMOUNT_MISMATCH',
      'Should equal item_total + tax_total + shipping + handling + insurance - shipping_discount - discount.',
      field.replace(/\/breakdown$/, '/value'),
      total.money.value,
    );
  return { breakdown, parts };
}

function parseItems(raw: unknown, field: string, currency: string, parts: Map<string, bigint>): PurchaseUnitItem[] {
  if (!Array.isArray(raw)) syntax(field, raw);
  if (raw.length > MAX_ITEMS)
    throw invalidRequest('INVALID_ARRAY_MAX_ITEMS', `The number of items in an array parameter is too large.`, field);
  let itemTotal = 0n;
  let taxTotal = 0n;
  let anyTax = false;
  const items = raw.map((entry: unknown, i): PurchaseUnitItem => {
    const at = `${field}/${i}`;
    if (!isObject(entry)) syntax(at, entry);
    const name = optionalString(entry, 'name', at, 127) ?? missing(`${at}/name`);
    const quantity = entry.quantity;
    if (quantity === undefined) missing(`${at}/quantity`);
    if (typeof quantity !== 'string' || !/^[1-9][0-9]{0,9}$/.test(quantity)) syntax(`${at}/quantity`, quantity);
    const unit = parseMoney(entry.unit_amount, `${at}/unit_amount`, { positive: false, currency });
    const item: PurchaseUnitItem = { name, quantity, unit_amount: unit.money };
    itemTotal += unit.minor * BigInt(quantity);
    if (entry.tax !== undefined) {
      const tax = parseMoney(entry.tax, `${at}/tax`, { positive: false, currency });
      item.tax = tax.money;
      taxTotal += tax.minor * BigInt(quantity);
      anyTax = true;
    }
    const description = optionalString(entry, 'description', at, 127);
    if (description !== undefined) item.description = description;
    const sku = optionalString(entry, 'sku', at, 127);
    if (sku !== undefined) item.sku = sku;
    const category = optionalString(entry, 'category', at, 20);
    if (category !== undefined) {
      if (!ITEM_CATEGORIES.includes(category))
        throw invalidRequest('INVALID_PARAMETER_VALUE', 'The value of a field is invalid.', `${at}/category`, category);
      item.category = category;
    }
    return item;
  });
  if (items.length === 0) return items;
  const amountField = field.replace(/\/items$/, '/amount/breakdown');
  if (!parts.has('item_total'))
    throw unprocessable(
      'ITEM_TOTAL_REQUIRED',
      'If item details are specified (items.unit_amount and items.quantity) corresponding amount.breakdown.item_total is required.',
      `${amountField}/item_total`,
    );
  if (parts.get('item_total') !== itemTotal)
    throw unprocessable(
      'ITEM_TOTAL_MISMATCH',
      'Should equal sum of (unit_amount * quantity) across all items for a given purchase_unit.',
      `${amountField}/item_total/value`,
    );
  if (anyTax && !parts.has('tax_total'))
    throw unprocessable(
      'TAX_TOTAL_REQUIRED',
      'If item details are specified (items.tax_total and items.quantity) corresponding amount.breakdown.tax_total is required.',
      `${amountField}/tax_total`,
    );
  if (anyTax && parts.get('tax_total') !== taxTotal)
    throw unprocessable(
      'TAX_TOTAL_MISMATCH',
      'Should equal sum of (tax * quantity) across all items for a given purchase_unit.',
      `${amountField}/tax_total/value`,
    );
  return items;
}

/** Validates `POST /v2/checkout/orders`' body; throws a PayPalError as PayPal would answer. */
export function validateCreateOrder(body: unknown): ValidatedCreateOrder {
  if (!isObject(body))
    throw invalidRequest('MALFORMED_REQUEST_JSON', 'The request JSON is not well formed.', undefined, show(body));
  if (body.intent === undefined) missing('/intent');
  if (body.intent !== 'CAPTURE')
    throw invalidRequest(
      'INVALID_PARAMETER_VALUE',
      body.intent === 'AUTHORIZE'
        ? 'The value of a field is invalid: this fake supports intent CAPTURE only.'
        : 'The value of a field is invalid.',
      '/intent',
      show(body.intent),
    );
  const units = body.purchase_units;
  if (units === undefined) missing('/purchase_units');
  if (!Array.isArray(units)) syntax('/purchase_units', units);
  if (units.length === 0)
    throw invalidRequest(
      'INVALID_ARRAY_MIN_ITEMS',
      'The number of items in an array parameter is too small.',
      '/purchase_units',
    );
  if (units.length > 1)
    throw invalidRequest(
      'INVALID_ARRAY_MAX_ITEMS',
      'The number of items in an array parameter is too large: this fake supports one purchase unit.',
      '/purchase_units',
    );
  const field = '/purchase_units/0';
  const pu: unknown = units[0];
  if (!isObject(pu)) syntax(field, pu);

  const total = parseMoney(pu.amount, `${field}/amount`, { positive: true });
  const amount: AmountWithBreakdown = { ...total.money };
  let parts = new Map<string, bigint>();
  if (pu.amount !== undefined && isObject(pu.amount) && pu.amount.breakdown !== undefined) {
    const parsed = parseBreakdown(pu.amount.breakdown, `${field}/amount/breakdown`, total);
    amount.breakdown = parsed.breakdown;
    parts = parsed.parts;
  }

  const unit: ValidatedCreateOrder['unit'] = {
    reference_id: optionalString(pu, 'reference_id', field, 256) ?? 'default',
    amount,
  };
  for (const [key, max] of [
    ['custom_id', 127],
    ['description', 127],
    ['invoice_id', 127],
    ['soft_descriptor', 22],
  ] as const) {
    const value = optionalString(pu, key, field, max);
    if (value !== undefined) unit[key] = value;
  }
  if (pu.items !== undefined) {
    const items = parseItems(pu.items, `${field}/items`, total.money.currency_code, parts);
    if (items.length) unit.items = items;
  }

  let mode: FakePayPalMode | undefined;
  if (unit.custom_id?.startsWith(FAKE_MODE_CUSTOM_ID_PREFIX)) {
    const wanted = unit.custom_id.slice(FAKE_MODE_CUSTOM_ID_PREFIX.length);
    if (!isFakePayPalMode(wanted))
      throw invalidRequest(
        'INVALID_PARAMETER_VALUE',
        `Unknown fake mode '${wanted.slice(0, 40)}' in custom_id; use one of: ${FAKE_PAYPAL_MODES.join(', ')}.`,
        `${field}/custom_id`,
        unit.custom_id,
      );
    mode = wanted;
  }
  return { intent: 'CAPTURE', unit, mode };
}

export interface ValidatedRefund {
  /** Absent: refund whatever of the capture is not refunded yet. */
  amount?: ParsedMoney;
  note_to_payer?: string;
  invoice_id?: string;
  custom_id?: string;
}

/**
 * Validates the optional body of `POST /v2/payments/captures/:id/refund`: no body or `{}` is a full refund. What the
 * refund may be depends on the capture (currency, what remains): the caller checks that.
 */
export function validateRefundRequest(body: unknown): ValidatedRefund {
  if (body === undefined) return {};
  if (!isObject(body))
    throw invalidRequest('MALFORMED_REQUEST_JSON', 'The request JSON is not well formed.', undefined, show(body));
  const refund: ValidatedRefund = {};
  if (body.amount !== undefined) refund.amount = parseMoney(body.amount, '/amount', { positive: true });
  for (const [key, max] of [
    ['note_to_payer', 255],
    ['invoice_id', 127],
    ['custom_id', 127],
  ] as const) {
    const value = optionalString(body, key, '', max);
    if (value !== undefined) refund[key] = value;
  }
  return refund;
}
