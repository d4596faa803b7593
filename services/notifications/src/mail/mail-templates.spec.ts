import { EVENTS, type EventEnvelope } from '@shop/contracts';
import {
  backInStock,
  newsletterConfirmation,
  orderConfirmation,
  orderStatusChanged,
  passwordReset,
  returnStatusChanged,
  welcome,
  type Composed,
  type ComposeSettings,
} from '../notifications/messages';
import { MAIL_KINDS, MailTemplates, type MailKind } from './mail-templates';
import { formatDate, formatPounds } from './format';

const settings: ComposeSettings = {
  publicUrl: 'https://shop.example',
  estimatedDeliveryDays: 10,
  now: new Date('2026-03-02T10:00:00Z'),
};
const evil = '<script>alert("x")</script>';
const envelope = (type: string, data: unknown, occurredAt = '2026-03-02T10:00:00.000Z'): EventEnvelope => ({
  eventId: 'e1',
  type,
  occurredAt,
  data,
});
const address = {
  firstName: evil,
  lastName: 'B',
  address: '1 Way',
  city: 'Leeds',
  postalCode: 'LS1',
  country: 'UK',
  phone: '1',
};

/** One event per kind of email, every customer-given value carrying markup. */
const EXAMPLES: Record<MailKind, Composed> = {
  'order-confirmation': orderConfirmation(
    envelope(EVENTS.orders.orderPlaced, {
      orderId: 'o1',
      summary: {
        customer: { name: evil, email: 'a@example.com' },
        lines: [{ name: `Jersey ${evil}`, quantity: 3, price: 1234.5, size: 'XL', color: evil }],
        subtotal: 3703.5,
        discount: { code: `WELCOME-${evil}`, amount: 370.35 },
        totalPrice: 3333.15,
        shippingAddress: address,
        placedAt: '2026-03-02T23:30:00.000Z',
      },
    }),
    settings,
  ),
  'order-shipped': orderStatusChanged(
    envelope(EVENTS.orders.orderStatusChanged, {
      orderId: 'o1',
      status: 'Shipped',
      changedAt: '2026-03-03T08:00:00Z',
      customer: { name: evil, email: 'a@example.com' },
    }),
    settings,
  ),
  'order-delivered': orderStatusChanged(
    envelope(EVENTS.orders.orderStatusChanged, {
      orderId: 'o1',
      status: 'Delivered',
      changedAt: '2026-03-04T08:00:00Z',
      customer: { name: evil, email: 'a@example.com' },
    }),
    settings,
  ),
  'order-cancelled': orderStatusChanged(
    envelope(EVENTS.orders.orderStatusChanged, {
      orderId: 'o1',
      status: 'Cancelled',
      changedAt: '2026-03-04T08:00:00Z',
      customer: { name: evil, email: 'a@example.com' },
      refund: { amount: 10, currency: 'GBP' },
    }),
    settings,
  ),
  'return-update': returnStatusChanged(
    envelope(EVENTS.orders.returnStatusChanged, {
      orderId: 'o1',
      returnId: 'r1',
      status: 'Rejected',
      changedAt: '2026-03-04T08:00:00Z',
      customer: { name: evil, email: 'a@example.com' },
      lines: [{ productId: 'p', name: `Jersey ${evil}`, quantity: 1, size: 'M', color: evil }],
      amount: 12.5,
      note: `Worn ${evil}`,
    }),
    settings,
  ),
  welcome: welcome(
    envelope(EVENTS.identity.userRegistered, { userId: 'u', name: evil, email: 'a@example.com' }),
    settings,
  ),
  'password-reset': passwordReset(
    envelope(EVENTS.identity.passwordResetRequested, {
      userId: 'u',
      name: evil,
      email: 'a@example.com',
      token: 'abcdefghijklmnopqrstuvwxyz012345',
      expiresAt: '2026-03-02T10:30:00.000Z',
    }),
    settings,
  ),
  'newsletter-confirmation': newsletterConfirmation(
    envelope(EVENTS.checkout.welcomeCodeIssued, { email: 'a@example.com', code: evil, percentOff: 10, usable: true }),
    settings,
  ),
  'back-in-stock': backInStock(
    envelope(EVENTS.catalog.stockAlertTriggered, {
      requestId: 'r1',
      email: 'a@example.com',
      productId: '665f1c2ab7e4a1c3d2e0f9a1',
      name: `Hoodie ${evil}`,
      image: '/uploads/seed/hoodie.svg',
      pricePence: 123450,
      size: 'M',
      color: evil,
      countInStock: 3,
      requestedAt: '2026-02-01T10:00:00.000Z',
      unsubscribeToken: 'YUBleGFtcGxlLmNvbQ.abcdefghijklmnopqrstuvwxyz',
    }),
    settings,
  ),
};

describe('the email templates', () => {
  let templates: MailTemplates;
  beforeAll(async () => {
    templates = await MailTemplates.load();
  });

  it.each(MAIL_KINDS)('renders %s: a subject, HTML with every value escaped, the same values in plain text', (kind) => {
    const composed = EXAMPLES[kind];
    if (!('mail' in composed)) throw new Error(`no mail: ${composed.skip}`);
    expect(composed.mail.kind).toBe(kind);
    const { subject, html, text } = templates.render(kind, composed.mail.values);
    expect(subject.length).toBeGreaterThan(5);
    expect(subject).not.toMatch(/\n|\{\{/);
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('{{');
    // the shared partials are in: the header, the brand's button colour, the footer's link to the shop
    expect(html).toMatch(/Gridiron <span style="color: #ff4d4d">Store<\/span>/);
    expect(html).toMatch(/background(-color)?:#d50a0a/);
    expect(html).toContain('Gridiron Store · NFL-themed clothing');
    expect(text).toContain(evil); // plain text is not HTML: nothing to escape
    expect(text).not.toContain('{{');
    expect(text).toContain('https://shop.example');
  });

  it('writes money as £1,234.50 and dates in en-GB (the shop’s time zone)', () => {
    expect(formatPounds(1234.5)).toBe('£1,234.50');
    expect(formatPounds(0.1 + 0.2)).toBe('£0.30');
    expect(formatDate(new Date('2026-03-02T23:30:00Z'))).toBe('2 March 2026');
    expect(formatDate(new Date('2026-07-02T23:30:00Z'))).toBe('3 July 2026'); // BST
    const c = EXAMPLES['order-confirmation'];
    if (!('mail' in c)) throw new Error('no mail');
    const { text } = templates.render('order-confirmation', c.mail.values);
    expect(text).toContain('3 × £1,234.50 = £3,703.50');
    expect(text).toContain('Estimated delivery: 12 March 2026');
  });

  it('shows the subtotal and the discount line of an order placed with a code, and none without', () => {
    const c = EXAMPLES['order-confirmation'];
    if (!('mail' in c)) throw new Error('no mail');
    const { text, html } = templates.render('order-confirmation', c.mail.values);
    expect(text).toContain('Subtotal: £3,703.50');
    expect(text).toContain(`Discount (WELCOME-${evil}): −£370.35`);
    expect(text).toContain('Total: £3,333.15');
    expect(html).toContain('Discount (WELCOME-&lt;script&gt;');
    const plain = orderConfirmation(
      envelope(EVENTS.orders.orderPlaced, {
        orderId: 'o2',
        summary: {
          customer: { name: 'Ada', email: 'a@example.com' },
          lines: [{ name: 'Jersey', quantity: 1, price: 10 }],
          totalPrice: 10,
          shippingAddress: address,
          placedAt: '2026-03-02T10:00:00.000Z',
        },
      }),
      settings,
    );
    if (!('mail' in plain)) throw new Error('no mail');
    expect(templates.render('order-confirmation', plain.mail.values).text).not.toMatch(/Subtotal|Discount/);
  });

  it('offers the welcome code while it is usable, and not once it is used', () => {
    const issued = (usable: boolean) =>
      newsletterConfirmation(
        envelope(EVENTS.checkout.welcomeCodeIssued, {
          email: 'a@example.com',
          code: 'WELCOME-7KQ2M9',
          percentOff: 10,
          usable,
        }),
        settings,
      );
    const usable = issued(true);
    const used = issued(false);
    if (!('mail' in usable) || !('mail' in used)) throw new Error('no mail');
    expect(templates.render('newsletter-confirmation', usable.mail.values).text).toContain(
      '10% off your first order with this code at checkout: WELCOME-7KQ2M9',
    );
    expect(templates.render('newsletter-confirmation', used.mail.values).text).not.toMatch(/WELCOME-|% off/);
  });

  it('links a back-in-stock email to the product with its size and colour chosen, and to the unsubscribe page', () => {
    const c = EXAMPLES['back-in-stock'];
    if (!('mail' in c)) throw new Error(c.skip);
    const { subject, text } = templates.render('back-in-stock', c.mail.values);
    expect(subject).toBe(`Back in stock: Hoodie ${evil}`);
    expect(text).toContain(`https://shop.example/product/665f1c2ab7e4a1c3d2e0f9a1?size=M&color=`);
    expect(text).toContain('£1,234.50');
    expect(text).toContain('1 February 2026');
    expect(text).toContain(
      'https://shop.example/back-in-stock/unsubscribe?token=YUBleGFtcGxlLmNvbQ.abcdefghijklmnopqrstuvwxyz',
    );
    expect(c.mail.values.productUrl).toBe(
      `https://shop.example/product/665f1c2ab7e4a1c3d2e0f9a1?size=M&color=${new URLSearchParams({ c: evil }).toString().slice(2)}`,
    );
  });

  it('fails loudly on a placeholder without a value instead of sending a blank', () => {
    expect(() => templates.render('welcome', { shopUrl: 'x' })).toThrow(/customerName/);
  });
});
