import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DiscountCodeJson } from '@shop/contracts';
import { initialAuthState } from '@/features/auth/authSlice';
import { aUser, fakeApi, holdApi, renderWithProviders } from '@/test/utils';
import AdminArea from './AdminArea';
import { DEACTIVATE_DISCOUNT_CONFIRMATION } from './AdminDiscountsPage';

const me = aUser({ _id: '65a0000000000000000000a1', name: 'Ada Admin', email: 'admin@example.com', role: 'admin' });
const renderDiscounts = () =>
  renderWithProviders(<AdminArea />, {
    route: '/admin/discounts',
    path: '/admin/*',
    preloadedState: { auth: { ...initialAuthState(), user: me, token: 't' } },
  });

function aCode(overrides: Partial<DiscountCodeJson> = {}): DiscountCodeJson {
  return {
    _id: '65d000000000000000000001',
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
    uses: 3,
    held: 0,
    status: 'active',
    createdAt: '2025-03-01T10:00:00.000Z',
    updatedAt: '2025-03-01T10:00:00.000Z',
    ...overrides,
  };
}

const CODES = [
  aCode(),
  aCode({
    _id: '65d000000000000000000002',
    code: 'FIVER',
    type: 'fixed',
    value: 5,
    minSubtotal: 30,
    usageLimit: 100,
    uses: 100,
    held: 0,
    status: 'used up',
  }),
  aCode({ _id: '65d000000000000000000003', code: 'SPRING', status: 'scheduled', startsAt: '2099-03-01T10:00:00.000Z' }),
  aCode({ _id: '65d000000000000000000004', code: 'XMAS24', status: 'expired', endsAt: '2024-12-27T00:00:00.000Z' }),
  aCode({
    _id: '65d000000000000000000005',
    code: 'WELCOME-7KQ2M9',
    status: 'inactive',
    active: false,
    firstOrderOnly: true,
    usageLimit: 1,
    perCustomerLimit: 1,
    uses: 0,
    held: 1,
    email: 'jane@example.com',
  }),
];

let confirm: jest.SpyInstance;
beforeEach(() => {
  confirm = jest.spyOn(window, 'confirm').mockReturnValue(true);
});
afterEach(() => confirm.mockRestore());

const rowOf = (code: string) =>
  screen
    .getAllByTestId('discount-row')
    .find((row) => within(row).queryByRole('rowheader', { name: new RegExp(code) }))!;
const cell = (row: HTMLElement, label: string) => row.querySelector(`[data-label="${label}"]`)?.textContent;

describe('admin discounts', () => {
  it('lists the codes: value, minimum, validity, uses of the limit, held, status and active', async () => {
    fakeApi({ 'GET /api/admin/discounts': { body: CODES } });
    const release = holdApi();
    renderDiscounts();
    expect(await screen.findByText('Loading discount codes...')).toBeInTheDocument();
    release();
    const table = await screen.findByRole('table', { name: 'Discount codes' });
    expect(within(table).getAllByTestId('discount-row')).toHaveLength(5);

    const save10 = rowOf('SAVE10');
    expect(cell(save10, 'Discount')).toBe('10 %');
    expect(cell(save10, 'Minimum')).toBe('—');
    expect(cell(save10, 'Valid')).toBe('Always');
    expect(cell(save10, 'Uses')).toBe('3');
    expect(cell(save10, 'Status')).toBe('active');
    expect(cell(save10, 'Active')).toBe('Yes');

    const fiver = rowOf('FIVER');
    expect(cell(fiver, 'Discount')).toBe('£5.00');
    expect(cell(fiver, 'Minimum')).toBe('£30.00');
    expect(cell(fiver, 'Uses')).toBe('100 / 100');
    expect(cell(fiver, 'Status')).toBe('used up');

    expect(cell(rowOf('SPRING'), 'Status')).toBe('scheduled');
    expect(cell(rowOf('SPRING'), 'Valid')).toMatch(/^From 1 Mar 2099/);
    expect(cell(rowOf('XMAS24'), 'Status')).toBe('expired');
    expect(cell(rowOf('XMAS24'), 'Valid')).toMatch(/^Until 27 Dec 2024/);

    const welcome = rowOf('WELCOME-7KQ2M9');
    expect(within(welcome).getByRole('rowheader')).toHaveTextContent(
      'First order only · 1 per customer · For jane@example.com',
    );
    expect(cell(welcome, 'Held')).toBe('1');
    expect(cell(welcome, 'Status')).toBe('inactive');
    expect(cell(welcome, 'Active')).toBe('No');
    // an inactive code has nothing to deactivate
    expect(within(welcome).queryByRole('button', { name: /Deactivate/ })).not.toBeInTheDocument();
  });

  it('says when there are no codes, and shows a failure with Try again', async () => {
    let calls = 0;
    fakeApi({
      'GET /api/admin/discounts': () =>
        ++calls === 1
          ? { status: 503, body: { message: 'Checkout is unavailable, try again shortly', statusCode: 503 } }
          : { body: [] },
    });
    renderDiscounts();
    expect(await screen.findByRole('alert')).toHaveTextContent('Checkout is unavailable, try again shortly');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No discount codes yet.')).toBeInTheDocument();
  });

  it('checks the form as the server would before sending, then creates the code with the whole body', async () => {
    const created = aCode({ _id: '65d000000000000000000009', code: 'FIVER-OFF', type: 'fixed', value: 5 });
    const calls = fakeApi({
      'GET /api/admin/discounts': { body: [aCode()] },
      'POST /api/admin/discounts': { status: 201, body: created },
    });
    renderDiscounts();
    await screen.findByRole('table', { name: 'Discount codes' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add discount code' }));
    const form = screen.getByRole('form', { name: 'New discount code' });
    const code = within(form).getByLabelText(/^Code/);
    expect(code).toHaveFocus();

    // mistakes are named beside their fields, and nothing is sent
    await user.type(code, 'x');
    await user.type(within(form).getByLabelText(/^Percentage \(%\)/), '150');
    await user.type(within(form).getByLabelText('Usage limit'), '0');
    await user.type(within(form).getByLabelText('Starts'), '2025-03-10T10:00');
    await user.type(within(form).getByLabelText('Ends'), '2025-03-01T10:00');
    await user.click(within(form).getByRole('button', { name: 'Create Code' }));
    expect(code).toHaveValue('X');
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(code).toHaveAccessibleDescription(/Use 3 to 32 letters, digits, hyphens or underscores/);
    expect(code).toHaveFocus();
    expect(within(form).getByLabelText(/^Percentage \(%\)/)).toHaveAccessibleDescription(
      /A percentage is a whole number from 1 to 100/,
    );
    expect(within(form).getByLabelText('Usage limit')).toHaveAccessibleDescription(/A limit is a whole number from 1/);
    expect(within(form).getByLabelText('Ends')).toHaveAccessibleDescription(/The end must be after the start/);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    // fixed: pounds; the code is upper-cased as typed
    await user.clear(code);
    await user.type(code, 'fiver-off');
    expect(code).toHaveValue('FIVER-OFF');
    await user.click(within(form).getByLabelText('Fixed amount off'));
    const amount = within(form).getByLabelText(/^Amount/);
    await user.clear(amount);
    await user.type(amount, '5');
    await user.type(within(form).getByLabelText('Minimum subtotal (£)'), '30');
    await user.clear(within(form).getByLabelText('Usage limit'));
    await user.clear(within(form).getByLabelText('Starts'));
    await user.clear(within(form).getByLabelText('Ends'));
    await user.type(within(form).getByLabelText('Per-customer limit'), '1');
    await user.click(within(form).getByLabelText('First order only'));
    await user.click(within(form).getByRole('button', { name: 'Create Code' }));

    await waitFor(() => expect(screen.queryByRole('form')).not.toBeInTheDocument());
    expect(calls.find((c) => c.method === 'POST')?.data).toEqual({
      code: 'FIVER-OFF',
      type: 'fixed',
      value: 5,
      minSubtotal: 30,
      startsAt: null,
      endsAt: null,
      usageLimit: null,
      perCustomerLimit: 1,
      firstOrderOnly: true,
      active: true,
    });
    expect(await screen.findByText('FIVER-OFF created')).toBeInTheDocument();
    expect(screen.getAllByTestId('discount-row')[0]).toHaveTextContent('FIVER-OFF');
    // focus went to the new code in the list, not to the top of the page
    await waitFor(() => expect(within(screen.getAllByTestId('discount-row')[0]).getByText('FIVER-OFF')).toHaveFocus());
  }, 15_000);

  it('shows a limited code whose last use an unpaid checkout holds as held, not active', async () => {
    fakeApi({
      'GET /api/admin/discounts': {
        body: [
          aCode({ _id: '65d000000000000000000001', code: 'ONEHELD', usageLimit: 1, uses: 0, held: 1 }),
          aCode({ _id: '65d000000000000000000002', code: 'TWOOFTHREE', usageLimit: 3, uses: 1, held: 2 }),
          aCode({ _id: '65d000000000000000000003', code: 'ROOMLEFT', usageLimit: 3, uses: 1, held: 1 }),
          aCode({
            _id: '65d000000000000000000004',
            code: 'ALLUSED',
            usageLimit: 1,
            uses: 1,
            held: 0,
            status: 'used up',
          }),
        ],
      },
    });
    renderDiscounts();
    await screen.findByRole('table', { name: 'Discount codes' });
    const statusOf = (code: string) =>
      within(screen.getByRole('row', { name: new RegExp(`^${code}`) })).getByTestId('discount-status');
    expect(statusOf('ONEHELD')).toHaveTextContent(/^1 held \/ 1$/);
    expect(statusOf('TWOOFTHREE')).toHaveTextContent(/^1 used \+ 2 held \/ 3$/);
    expect(statusOf('ROOMLEFT')).toHaveTextContent(/^active$/);
    expect(statusOf('ALLUSED')).toHaveTextContent(/^used up$/);
  });

  it("keeps the form and shows the server's message when the code is refused", async () => {
    fakeApi({
      'GET /api/admin/discounts': { body: [aCode()] },
      'POST /api/admin/discounts': {
        status: 409,
        body: { message: 'A discount code with this name already exists', statusCode: 409 },
      },
    });
    renderDiscounts();
    await screen.findByRole('table', { name: 'Discount codes' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add discount code' }));
    const form = screen.getByRole('form', { name: 'New discount code' });
    await user.type(within(form).getByLabelText(/^Code/), 'save10');
    await user.type(within(form).getByLabelText(/^Percentage \(%\)/), '10');
    await user.click(within(form).getByRole('button', { name: 'Create Code' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('A discount code with this name already exists');
    expect(within(form).getByLabelText(/^Code/)).toHaveValue('SAVE10');
  });

  it('edits a code from its saved values and sends every field with PUT', async () => {
    const code = aCode({ usageLimit: 50, minSubtotal: 20 });
    const calls = fakeApi({
      'GET /api/admin/discounts': { body: [code] },
      [`PUT /api/admin/discounts/${code._id}`]: ({ data }) => ({
        body: { ...code, ...(data as object), status: 'active' },
      }),
    });
    renderDiscounts();
    await screen.findByRole('table', { name: 'Discount codes' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Edit SAVE10' }));
    const form = screen.getByRole('form', { name: 'Edit SAVE10' });
    expect(within(form).getByLabelText(/^Percentage \(%\)/)).toHaveValue(10);
    expect(within(form).getByLabelText('Minimum subtotal (£)')).toHaveValue(20);
    const percent = within(form).getByLabelText(/^Percentage \(%\)/);
    await user.clear(percent);
    await user.type(percent, '15');
    await user.click(within(form).getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(screen.queryByRole('form')).not.toBeInTheDocument());
    expect(calls.find((c) => c.method === 'PUT')?.data).toEqual({
      code: 'SAVE10',
      type: 'percent',
      value: 15,
      minSubtotal: 20,
      startsAt: null,
      endsAt: null,
      usageLimit: 50,
      perCustomerLimit: null,
      firstOrderOnly: false,
      active: true,
    });
    expect(cell(rowOf('SAVE10'), 'Discount')).toBe('15 %');
    expect(screen.getByRole('button', { name: 'Add discount code' })).toBeInTheDocument();
  });

  it('deactivates a code only after confirming', async () => {
    const calls = fakeApi({
      'GET /api/admin/discounts': { body: [aCode()] },
      [`DELETE /api/admin/discounts/${aCode()._id}`]: { body: { message: 'Discount code deactivated' } },
    });
    renderDiscounts();
    await screen.findByRole('table', { name: 'Discount codes' });
    confirm.mockReturnValueOnce(false);
    await userEvent.click(screen.getByRole('button', { name: 'Deactivate SAVE10' }));
    expect(confirm).toHaveBeenCalledWith(DEACTIVATE_DISCOUNT_CONFIRMATION);
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Deactivate SAVE10' }));
    expect(await screen.findByText('SAVE10 deactivated')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
    expect(cell(rowOf('SAVE10'), 'Status')).toBe('inactive');
    expect(cell(rowOf('SAVE10'), 'Active')).toBe('No');
    expect(screen.queryByRole('button', { name: 'Deactivate SAVE10' })).not.toBeInTheDocument();
  });
});
