import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminReturnJson } from '@shop/contracts';
import { initialAuthState } from '@/features/auth/authSlice';
import { aUser, fakeApi, renderWithProviders } from '@/test/utils';
import AdminArea from './AdminArea';

const me = aUser({ _id: '65a0000000000000000000a1', name: 'Ada Admin', email: 'admin@example.com', role: 'admin' });
const ORDER = '65b000000000000000000001';
const RETURN = '65c000000000000000000001';
const renderReturns = () =>
  renderWithProviders(<AdminArea />, {
    route: '/admin/returns',
    path: '/admin/*',
    preloadedState: { auth: { ...initialAuthState(), user: me, token: 't' } },
  });

function aReturn(overrides: Partial<AdminReturnJson> = {}): AdminReturnJson {
  return {
    _id: RETURN,
    orderId: ORDER,
    customer: { _id: '65a0000000000000000000aa', name: 'Jane Fan', email: 'jane@example.com' },
    deliveredAt: '2026-03-01T10:00:00.000Z',
    status: 'Requested',
    reason: 'Too small',
    comment: 'Runs small',
    lines: [
      {
        line: 0,
        productId: 'p1',
        name: 'Packers Jersey',
        image: '',
        size: 'M',
        color: 'Green',
        quantity: 1,
        refund: 40,
      },
      { line: 1, productId: 'p2', name: 'Ravens Cap', image: '', size: '', color: 'Purple', quantity: 2, refund: 15 },
    ],
    amount: 55,
    steps: [{ status: 'Requested', at: '2026-03-02T10:00:00.000Z' }],
    createdAt: '2026-03-02T10:00:00.000Z',
    updatedAt: '2026-03-02T10:00:00.000Z',
    ...overrides,
  };
}

describe('admin returns', () => {
  it('lists the requested returns and approves one with a note to the customer', async () => {
    const calls = fakeApi({
      'GET /api/admin/returns': { body: [aReturn()] },
      [`PUT /api/admin/orders/${ORDER}/returns/${RETURN}`]: {
        body: { returns: [aReturn({ status: 'Approved' })] },
      },
    });
    renderReturns();
    const item = await screen.findByTestId('admin-return');
    expect(calls.find((c) => c.url === '/api/admin/returns')?.params).toEqual({ status: 'Requested' });
    expect(item).toHaveTextContent('Order #65b000000000000000000001 · Jane Fan (jane@example.com)');
    expect(item).toHaveTextContent('“Runs small”');
    expect(item).toHaveTextContent('Refund on receipt: £55.00');
    await userEvent.type(within(item).getByLabelText(/Note to the customer/), 'Post within 14 days');
    await userEvent.click(within(item).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(within(item).getByTestId('admin-return-status')).toHaveTextContent('Approved'));
    expect(calls.at(-1)?.data).toEqual({ status: 'Approved', note: 'Post within 14 days' });
    // Now it can be received: each line back to stock unless unticked; the button names the refund.
    await userEvent.click(within(item).getByTestId('restock-1'));
    expect(within(item).getByRole('button', { name: 'Mark received and refund £55.00' })).toBeEnabled();
  });

  it('receives with the lines to restock, and shows a refund that did not go through, with its retry', async () => {
    const calls = fakeApi({
      'GET /api/admin/returns': { body: [aReturn({ status: 'Approved' })] },
      [`PUT /api/admin/orders/${ORDER}/returns/${RETURN}`]: {
        body: {
          returns: [aReturn({ status: 'Received', refundError: 'Refund refused by PayPal: insufficient funds' })],
        },
      },
    });
    renderReturns();
    await userEvent.selectOptions(await screen.findByLabelText('Status'), 'Approved');
    const item = await screen.findByTestId('admin-return');
    await userEvent.click(within(item).getByTestId('restock-1'));
    await userEvent.click(within(item).getByRole('button', { name: 'Mark received and refund £55.00' }));
    expect(await within(item).findByTestId('refund-error')).toHaveTextContent('insufficient funds');
    expect(calls.at(-1)?.data).toEqual({ status: 'Received', restock: [0] });
    expect(within(item).getByRole('button', { name: 'Try the refund again' })).toBeInTheDocument();
  });

  it('says so when there are none, and shows the server’s message when the list fails', async () => {
    fakeApi({ 'GET /api/admin/returns': { body: [] } });
    renderReturns();
    expect(await screen.findByText('No returns are requested.')).toBeInTheDocument();
    fakeApi({
      'GET /api/admin/returns': { status: 503, body: { statusCode: 503, message: 'Orders service is unavailable' } },
    });
    await userEvent.selectOptions(screen.getByLabelText('Status'), '');
    expect(await screen.findByRole('alert')).toHaveTextContent('Orders service is unavailable');
  });
});
