import { ADMIN_ORDERS_CSV_COLUMNS } from '@shop/contracts';
import { Types } from 'mongoose';
import { CSV_HEADER, orderRows, pounds, textCell, type CsvOrder } from './orders-csv';

describe('orders CSV', () => {
  it('writes amounts as pounds with exactly two decimals', () => {
    expect([pounds(1999), pounds(5), pounds(100), pounds(0), pounds(123456789)]).toEqual([
      '19.99',
      '0.05',
      '1.00',
      '0.00',
      '1234567.89',
    ]);
  });

  it('quotes text holding a quote, comma or line break, and defuses formulas', () => {
    expect(textCell('Plain')).toBe('Plain');
    expect(textCell('Smith, Jane')).toBe('"Smith, Jane"');
    expect(textCell('The "Fridge"')).toBe('"The ""Fridge"""');
    expect(textCell('two\nlines')).toBe('"two\nlines"');
    expect(textCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    for (const start of ['+', '-', '@', '\t']) expect(textCell(`${start}1`)).toBe(`'${start}1`);
    expect(textCell(undefined)).toBe('');
    expect(textCell('Zoë Ünïcode 🏈')).toBe('Zoë Ünïcode 🏈');
  });

  it('starts with the byte order mark and the column names', () => {
    expect(CSV_HEADER).toBe(`\uFEFF${ADMIN_ORDERS_CSV_COLUMNS.join(',')}\r\n`);
  });

  it('writes one row per line, the order repeated on each, with its discount and refunds', () => {
    const _id = new Types.ObjectId('65b000000000000000000001');
    const order: CsvOrder = {
      _id,
      user: { _id: 'u1', name: '=cmd|calc', email: 'jane@example.com' },
      orderItems: [
        {
          productId: 'p1',
          name: 'Jersey, Home',
          image: '',
          pricePence: 8999,
          quantity: 2,
          size: 'M',
          color: 'Green',
          sku: 'GB-M-GREEN',
        },
        {
          productId: 'p2',
          name: 'Beanie',
          image: '',
          pricePence: 1999,
          quantity: 1,
          size: '',
          color: 'Purple',
          sku: '',
        },
      ],
      shippingAddress: {
        firstName: 'J',
        lastName: 'F',
        address: '1',
        city: 'Leeds',
        postalCode: 'LS1',
        country: 'United Kingdom',
        phone: '1',
      },
      status: 'Processing',
      isPaid: true,
      paidAt: new Date('2025-03-01T10:00:00Z'),
      totalPence: 17997,
      subtotalPence: 19997,
      discount: { code: 'KICKOFF', amountPence: 2000 },
      paymentDetails: {
        provider: 'paypal',
        id: 'PP-1',
        status: 'COMPLETED',
        captureId: 'CAP-1',
        captureStatus: 'COMPLETED',
        amount: '179.97',
        currency: 'GBP',
      },
      createdAt: new Date('2025-03-01T09:59:00Z'),
      statusHistory: [{ refund: { id: 'R1', amountPence: 500 } }],
    };
    const rows = orderRows(order).split('\r\n');
    expect(rows).toHaveLength(3);
    expect(rows[2]).toBe('');
    expect(rows[0]).toBe(
      [
        '65b000000000000000000001',
        '2025-03-01T09:59:00.000Z',
        'Processing',
        'yes',
        '2025-03-01T10:00:00.000Z',
        "'=cmd|calc",
        'jane@example.com',
        'United Kingdom',
        'p1',
        '"Jersey, Home"',
        'GB-M-GREEN',
        'M',
        'Green',
        '2',
        '89.99',
        '179.98',
        '199.97',
        'KICKOFF',
        '20.00',
        '179.97',
        '5.00',
        'PP-1',
        'CAP-1',
      ].join(','),
    );
    expect(rows[1].split(',').slice(8, 16)).toEqual(['p2', 'Beanie', '', '', 'Purple', '1', '19.99', '19.99']);
  });
});
