import {
  discountBody,
  discountFormValues,
  formatDiscountValue,
  fromLocalInput,
  toLocalInput,
  validateDiscount,
  type DiscountFormValues,
} from './discountForm';

const valid = (changes: Partial<DiscountFormValues> = {}): DiscountFormValues => ({
  ...discountFormValues(),
  code: 'SAVE10',
  value: '10',
  ...changes,
});

describe('discount code form', () => {
  it('takes a code of 3–32 of A–Z, 0–9, - and _', () => {
    for (const code of ['ABC', 'WELCOME-7KQ2M9', 'SUMMER_25', 'A'.repeat(32)])
      expect(validateDiscount(valid({ code })).code).toBeUndefined();
    expect(validateDiscount(valid({ code: '' })).code).toBe('Enter a code');
    for (const code of ['AB', 'A'.repeat(33), 'SAVE 10', 'SAVE£10', 'save10'])
      expect(validateDiscount(valid({ code })).code).toBe('Use 3 to 32 letters, digits, hyphens or underscores');
  });

  it('takes a percentage as a whole number from 1 to 100, and an amount above £0 with two decimals at most', () => {
    for (const value of ['1', '10', '100']) expect(validateDiscount(valid({ value })).value).toBeUndefined();
    for (const value of ['', '0', '101', '12.5', '-5', 'ten'])
      expect(validateDiscount(valid({ value })).value).toBe('A percentage is a whole number from 1 to 100');
    for (const value of ['5', '5.5', '5.00', '0.01', '250'])
      expect(validateDiscount(valid({ type: 'fixed', value })).value).toBeUndefined();
    for (const value of ['', '0', '0.00', '5.001', '-1'])
      expect(validateDiscount(valid({ type: 'fixed', value })).value).toBe(
        'An amount is more than £0 with at most two decimals',
      );
  });

  it('wants the end after the start, limits as whole numbers from 1, and a minimum above £0', () => {
    expect(validateDiscount(valid({ startsAt: '2025-03-01T10:00', endsAt: '2025-03-01T10:00' })).endsAt).toBe(
      'The end must be after the start',
    );
    expect(validateDiscount(valid({ startsAt: '2025-03-01T10:00', endsAt: '2025-03-01T10:01' }))).toEqual({});
    expect(validateDiscount(valid({ endsAt: '2025-03-01T10:00' }))).toEqual({});
    expect(validateDiscount(valid({ usageLimit: '0', perCustomerLimit: '1.5' }))).toEqual({
      usageLimit: 'A limit is a whole number from 1',
      perCustomerLimit: 'A limit is a whole number from 1',
    });
    expect(validateDiscount(valid({ minSubtotal: '0' })).minSubtotal).toBe(
      'A minimum is more than £0 with at most two decimals',
    );
    expect(validateDiscount(valid({ minSubtotal: '49.99', usageLimit: '100', perCustomerLimit: '1' }))).toEqual({});
  });

  it('sends every field: numbers as numbers, unset ones as null, dates as ISO times', () => {
    expect(discountBody(valid({ code: ' save10 ' }))).toEqual({
      code: 'SAVE10',
      type: 'percent',
      value: 10,
      minSubtotal: null,
      startsAt: null,
      endsAt: null,
      usageLimit: null,
      perCustomerLimit: null,
      firstOrderOnly: false,
      active: true,
    });
    const body = discountBody(
      valid({
        type: 'fixed',
        value: '5.50',
        minSubtotal: '30',
        startsAt: '2025-03-01T10:00',
        endsAt: '2025-04-01T00:00',
        usageLimit: '100',
        perCustomerLimit: '1',
        firstOrderOnly: true,
        active: false,
      }),
    );
    expect(body).toEqual({
      code: 'SAVE10',
      type: 'fixed',
      value: 5.5,
      minSubtotal: 30,
      startsAt: new Date('2025-03-01T10:00').toISOString(),
      endsAt: new Date('2025-04-01T00:00').toISOString(),
      usageLimit: 100,
      perCustomerLimit: 1,
      firstOrderOnly: true,
      active: false,
    });
  });

  it('starts an edit from the code as saved, its dates in local time', () => {
    const startsAt = fromLocalInput('2025-03-01T10:00') as string;
    expect(toLocalInput(startsAt)).toBe('2025-03-01T10:00');
    expect(
      discountFormValues({
        _id: '1',
        code: 'FIVER',
        type: 'fixed',
        value: 5,
        minSubtotal: 20,
        startsAt,
        endsAt: null,
        usageLimit: 10,
        perCustomerLimit: null,
        firstOrderOnly: true,
        active: true,
        uses: 0,
        held: 0,
        status: 'active',
        createdAt: startsAt,
        updatedAt: startsAt,
      }),
    ).toEqual({
      code: 'FIVER',
      type: 'fixed',
      value: '5.00',
      minSubtotal: '20.00',
      startsAt: '2025-03-01T10:00',
      endsAt: '',
      usageLimit: '10',
      perCustomerLimit: '',
      firstOrderOnly: true,
      active: true,
    });
  });

  it('shows a value as "10 %" or "£5.00"', () => {
    expect(formatDiscountValue({ type: 'percent', value: 10 })).toBe('10 %');
    expect(formatDiscountValue({ type: 'fixed', value: 5 })).toBe('£5.00');
  });
});
