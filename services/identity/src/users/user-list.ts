import { ascendingThenById, type AdminUserListQuery, type PublicUser, type UserListSortField } from '@shop/contracts';

/** One user as the admin list holds it: the public shape, and the lower-cased texts search and sorts read. */
export interface UserRow {
  readonly id: string;
  readonly user: PublicUser;
  readonly name: string;
  readonly email: string;
  readonly createdAt: number;
}

export function rowOf(user: PublicUser): UserRow {
  return {
    id: user._id,
    user,
    name: user.name.toLowerCase(),
    email: user.email.toLowerCase(),
    createdAt: user.createdAt ? Date.parse(user.createdAt) : 0,
  };
}

const KEYS: Record<UserListSortField, (row: UserRow) => string | number> = {
  name: (row) => row.name,
  email: (row) => row.email,
  createdAt: (row) => row.createdAt,
};

/** Ascending by the field, then by id (unique), so that equal values never shuffle between pages. */
export function ascending(field: UserListSortField): (a: UserRow, b: UserRow) => number {
  return ascendingThenById(KEYS[field]);
}

export function matcher(query: AdminUserListQuery): (row: UserRow) => boolean {
  const q = query.q.toLowerCase();
  return (row) =>
    (query.role === undefined || row.user.role === query.role) &&
    (q === '' || row.name.includes(q) || row.email.includes(q));
}

/**
 * One page of rows already sorted ascending by the query's field (walked backwards for a descending sort), and
 * how many rows match in all.
 */
export function pageOf(sorted: readonly UserRow[], query: AdminUserListQuery): { total: number; users: PublicUser[] } {
  const matches = matcher(query);
  const skip = (query.page - 1) * query.limit;
  const users: PublicUser[] = [];
  let total = 0;
  const n = sorted.length;
  for (let i = 0; i < n; i++) {
    const row = sorted[query.sort.direction === 1 ? i : n - 1 - i]!;
    if (!matches(row)) continue;
    if (total >= skip && users.length < query.limit) users.push(row.user);
    total++;
  }
  return { total, users };
}
