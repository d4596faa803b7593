// The admin's order list keeps its whole view in the query string (issue 25): search, filters, sort and page, so a
// link, Back and a reload reopen the same view. These pure functions read and write it, and make the API's query.
import {
  ADMIN_LIST_DEFAULT_LIMIT,
  ADMIN_ORDER_DEFAULT_SORT,
  ADMIN_ORDER_SORT_FIELDS,
  ORDER_STATUSES,
  type AdminOrderListQuery,
  type AdminOrderSort,
  type AdminOrderSortField,
  type OrderStatus,
} from '@shop/contracts';

export interface OrderListView {
  q: string;
  status: OrderStatus | '';
  paid: 'true' | 'false' | '';
  /** YYYY-MM-DD or '' */
  from: string;
  to: string;
  sort: AdminOrderSort;
  page: number;
}

export const DEFAULT_VIEW: OrderListView = {
  q: '',
  status: '',
  paid: '',
  from: '',
  to: '',
  sort: ADMIN_ORDER_DEFAULT_SORT,
  page: 1,
};

export const PAGE_SIZE = ADMIN_LIST_DEFAULT_LIMIT;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function isSort(value: string): value is AdminOrderSort {
  return (ADMIN_ORDER_SORT_FIELDS as readonly string[]).includes(value.replace(/^-/, ''));
}

/** The view a URL names; anything malformed is left at its default (the server would refuse it). */
export function parseOrderListView(params: URLSearchParams): OrderListView {
  const status = params.get('status') ?? '';
  const paid = params.get('paid') ?? '';
  const sort = params.get('sort') ?? '';
  const page = Number(params.get('page'));
  const day = (key: string) => {
    const value = params.get(key) ?? '';
    return DAY.test(value) ? value : '';
  };
  return {
    q: (params.get('q') ?? '').trim().slice(0, 100),
    status: (ORDER_STATUSES as readonly string[]).includes(status) ? (status as OrderStatus) : '',
    paid: paid === 'true' || paid === 'false' ? paid : '',
    from: day('from'),
    to: day('to'),
    sort: isSort(sort) ? sort : ADMIN_ORDER_DEFAULT_SORT,
    page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1,
  };
}

/** The filters of a view as the API reads them (the export's query): empty ones left out. */
export function filterParams(view: OrderListView): AdminOrderListQuery {
  return {
    ...(view.q ? { q: view.q } : {}),
    ...(view.status ? { status: view.status } : {}),
    ...(view.paid ? { paid: view.paid } : {}),
    ...(view.from ? { from: view.from } : {}),
    ...(view.to ? { to: view.to } : {}),
  };
}

/** GET /api/admin/orders's query for a view: always paged. */
export function listParams(view: OrderListView): AdminOrderListQuery {
  return { ...filterParams(view), sort: view.sort, page: view.page, limit: PAGE_SIZE };
}

/** The query string of a view: defaults left out, so the plain list's URL stays /admin/orders. */
export function toSearchParams(view: OrderListView): URLSearchParams {
  const params = new URLSearchParams(filterParams(view) as Record<string, string>);
  if (view.sort !== ADMIN_ORDER_DEFAULT_SORT) params.set('sort', view.sort);
  if (view.page > 1) params.set('page', String(view.page));
  return params;
}

/** The sort of a column a click gives: its own sort reversed, else the column's natural first direction. */
export function nextSort(current: AdminOrderSort, field: AdminOrderSortField): AdminOrderSort {
  if (current === field) return `-${field}`;
  if (current === `-${field}`) return field;
  // dates and money read best largest first; names and statuses A to Z
  return field === 'createdAt' || field === 'totalPrice' ? `-${field}` : field;
}

/** aria-sort of a column under the current sort. */
export function ariaSortOf(current: AdminOrderSort, field: AdminOrderSortField): 'ascending' | 'descending' | 'none' {
  if (current === field) return 'ascending';
  if (current === `-${field}`) return 'descending';
  return 'none';
}

/** "26–50 of 120" (an en dash), "0 of 0" when empty. */
export function rangeText(page: number, shown: number, total: number): string {
  if (!shown) return `0 of ${total}`;
  const first = (page - 1) * PAGE_SIZE + 1;
  return `${first}–${first + shown - 1} of ${total}`;
}
