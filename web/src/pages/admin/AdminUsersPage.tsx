import { useEffect, useState, type FormEvent } from 'react';
import {
  PASSWORD_MIN_LENGTH,
  ROLES,
  sortParam,
  USER_LIST_DEFAULT_SORT,
  type PublicUser,
  type Role,
} from '@shop/contracts';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { addUser, deleteUser, fetchUsers, selectAdminUsers, updateUser } from '@/features/admin/adminUsersSlice';
import { FilterSelect, ListToolbar, Pager, SearchBox, useListView } from '@/features/admin/AdminListControls';
import { AdminHeading, Empty, ErrorNotice, Loading } from '@/features/admin/AdminStates';
import { Cell, DataTable, Row, RowHeader, sortableColumns } from '@/features/admin/AdminTable';
import { Field } from '@/features/auth/AuthLayout';
import { notify } from '@/lib/notify';
import { usePageMeta } from '@/lib/usePageMeta';

/** The exact confirmation (docs/product.md#roles). */
export const DELETE_USER_CONFIRMATION = 'Are you sure you want to delete this user?';
const ROLE_LABELS: Record<Role, string> = { customer: 'Customer', admin: 'Admin' };
const EMPTY_FORM = { name: '', email: '', password: '', role: 'customer' as Role };

/** Name, email and password required; the role defaults to customer (docs/product.md#validation). */
function AddUserForm() {
  const dispatch = useAppDispatch();
  const adding = useAppSelector((s) => selectAdminUsers(s).adding);
  const [form, setForm] = useState(EMPTY_FORM);
  const [error, setError] = useState<string | null>(null);
  const set = (field: keyof typeof EMPTY_FORM) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [field]: e.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      const user = await dispatch(addUser({ ...form, name: form.name.trim(), email: form.email.trim() })).unwrap();
      notify.success(`User ${user.name} added`);
      setForm(EMPTY_FORM);
    } catch (message) {
      setError(String(message));
    }
  };

  return (
    <form
      onSubmit={submit}
      className="rounded-lg border border-gray-200 bg-white p-5 shadow-sm"
      aria-labelledby="add-user"
    >
      <h2 id="add-user" className="mb-4 text-xl font-bold">
        Add New User
      </h2>
      {error && (
        <p role="alert" className="mb-4 rounded border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {error}
        </p>
      )}
      <div className="grid gap-x-4 sm:grid-cols-2">
        <Field id="new-user-name" label="Name" required autoComplete="off" value={form.name} onChange={set('name')} />
        <Field
          id="new-user-email"
          label="Email"
          type="email"
          required
          autoComplete="off"
          value={form.email}
          onChange={set('email')}
        />
        <Field
          id="new-user-password"
          label="Password"
          type="password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          autoComplete="new-password"
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
          value={form.password}
          onChange={set('password')}
        />
        <div className="mb-4">
          <label htmlFor="new-user-role" className="mb-1 block text-sm font-semibold">
            Role
          </label>
          <select
            id="new-user-role"
            value={form.role}
            onChange={set('role')}
            className="w-full rounded border border-gray-400 bg-white p-2"
          >
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <button
        type="submit"
        disabled={adding}
        className="rounded-lg bg-green-700 px-5 py-2 font-semibold text-white hover:bg-green-800 disabled:opacity-60"
      >
        {adding ? 'Adding...' : 'Add User'}
      </button>
    </form>
  );
}

function UserRow({ user, me }: { user: PublicUser; me: boolean }) {
  const dispatch = useAppDispatch();
  const busy = useAppSelector((s) => selectAdminUsers(s).busy.includes(user._id));

  const changeRole = async (role: Role) => {
    try {
      await dispatch(updateUser({ id: user._id, changes: { role } })).unwrap();
      notify.success(`${user.name} is now ${role === 'admin' ? 'an admin' : 'a customer'}`);
    } catch (message) {
      notify.error(String(message)); // e.g. demoting yourself or the last admin: the select keeps the old role
    }
  };

  const remove = async () => {
    if (!window.confirm(DELETE_USER_CONFIRMATION)) return;
    try {
      await dispatch(deleteUser(user._id)).unwrap();
      notify.success(`User ${user.name} deleted`);
    } catch (message) {
      notify.error(String(message));
    }
  };

  return (
    <Row testId="user-row">
      <RowHeader>
        {user.name}
        {me && <span className="ml-2 rounded bg-gray-200 px-1.5 py-0.5 text-xs font-semibold text-gray-700">You</span>}
      </RowHeader>
      <Cell label="Email" className="break-all">
        {user.email}
      </Cell>
      <Cell label="Role">
        <select
          value={user.role}
          onChange={(e) => void changeRole(e.target.value as Role)}
          disabled={busy}
          aria-label={`Role of ${user.name}`}
          className="rounded border border-gray-400 bg-white p-1.5 disabled:opacity-60"
        >
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </select>
      </Cell>
      <Cell label="Joined" className="whitespace-nowrap tabular-nums">
        {user.createdAt ? JOINED.format(new Date(user.createdAt)) : ''}
      </Cell>
      <Cell label="Actions">
        <button
          type="button"
          onClick={() => void remove()}
          disabled={busy}
          aria-label={`Delete ${user.name}`}
          className="rounded bg-red-600 px-3 py-1.5 font-semibold text-white hover:bg-red-700 disabled:opacity-60"
        >
          Delete
        </button>
      </Cell>
    </Row>
  );
}

const JOINED = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

const USER_COLUMNS = [
  { label: 'Name', sortField: 'name' },
  { label: 'Email', sortField: 'email' },
  { label: 'Role' },
  { label: 'Joined', sortField: 'createdAt' },
  { label: 'Actions' },
];

/** What the list takes besides `page` (packages/contracts admin-lists.ts). */
const LIST_PARAMS = ['limit', 'q', 'role', 'sort'] as const;
const DEFAULT_SORT = sortParam(USER_LIST_DEFAULT_SORT);
const ROLE_OPTIONS = [['', 'All roles'], ...ROLES.map((role) => [role, ROLE_LABELS[role]] as const)] as const;

/**
 * /admin/users (docs/product.md#admin-area): add users, change a role between customer and admin, delete after
 * confirming. The list comes a page at a time — searched (name, email), filtered by role and sorted by the server, the
 * view in the query string.
 */
export default function AdminUsersPage() {
  usePageMeta('User management');
  const dispatch = useAppDispatch();
  const { list, total, shown: answered } = useAppSelector(selectAdminUsers);
  const myId = useAppSelector((s) => s.auth.user?._id);
  const view = useListView(LIST_PARAMS, { sort: DEFAULT_SORT });
  const key = new URLSearchParams(view.params).toString();
  const load = () => void dispatch(fetchUsers(view.params));
  useEffect(() => {
    void dispatch(fetchUsers(Object.fromEntries(new URLSearchParams(key))));
  }, [dispatch, key]);
  const filtered = view.get('q') !== '' || view.get('role') !== '';
  const shown = list.status !== 'failed' && total !== null && answered !== null;

  return (
    <>
      <AdminHeading title="User Management" />
      <div className="space-y-8">
        <AddUserForm />
        <section aria-labelledby="users-heading">
          <h2 id="users-heading" className="mb-4 text-xl font-bold">
            Users
          </h2>
          <ListToolbar>
            <SearchBox
              label="Search users"
              placeholder="Name or email"
              value={view.get('q')}
              onSearch={(q) => view.set({ q })}
            />
            <FilterSelect
              label="Show"
              value={view.get('role')}
              options={ROLE_OPTIONS}
              onChange={(role) => view.set({ role })}
            />
          </ListToolbar>
          {list.status === 'failed' && <ErrorNotice message={list.error ?? 'Something went wrong'} onRetry={load} />}
          {list.status === 'loading' && !list.data.length && <Loading label="Loading users..." />}
          {list.status === 'succeeded' && !list.data.length && (
            <Empty>{filtered ? 'No users match.' : 'No users found.'}</Empty>
          )}
          {list.data.length > 0 && list.status !== 'failed' && (
            <DataTable
              label="Users"
              columns={sortableColumns(USER_COLUMNS, view.get('sort'), (sort) => view.set({ sort }))}
              busy={list.status === 'loading' || answered?.key !== key}
            >
              {list.data.map((user) => (
                <UserRow key={user._id} user={user} me={user._id === myId} />
              ))}
            </DataTable>
          )}
          {shown && (
            <Pager
              label="Users pages"
              page={answered.page}
              limit={answered.limit}
              total={total}
              onPage={(page) => view.set({ page: String(page) })}
            />
          )}
        </section>
      </div>
    </>
  );
}
