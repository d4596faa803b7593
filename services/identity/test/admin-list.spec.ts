import { getModelToken } from '@nestjs/mongoose';
import {
  ADMIN_LIST_MESSAGES,
  AUTH_MESSAGES,
  ROLES,
  TOTAL_COUNT_HEADER,
  USER_LIST_SORTS,
  type PublicUser,
} from '@shop/contracts';
import { request, startTestService, type TestService } from '@shop/nest-common/testing';
import { Types, type Model } from 'mongoose';
import { AppModule } from '../src/app.module';
import { UserDirectory } from '../src/users/user-directory';
import { User } from '../src/users/user.schema';
import { createAdmin, registerCustomer, startIdentity } from './identity.fixtures';

/** A small deterministic generator, so that a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

const FIRST = ['Ada', 'ada', 'Brook', 'Casey', 'Dana', 'Eli', 'Zoë', 'Pat'];
const LAST = ['Lovelace', 'Stone', 'Jones', 'Park', 'jones'];

type Query = Record<string, string>;

/** The page the list must answer, worked out in plain code over every user (the unpaged list). */
function expected(all: PublicUser[], query: Query): { total: number; ids: string[] } {
  const q = (query.q ?? '').trim().toLowerCase();
  const matching = all.filter(
    (u) =>
      (!query.role || u.role === query.role) &&
      (!q || u.name.toLowerCase().includes(q) || u.email.toLowerCase().includes(q)),
  );
  const sort = query.sort ?? '-createdAt';
  const field = sort.replace(/^-/, '') as (typeof USER_LIST_SORTS)[number];
  const sign = sort.startsWith('-') ? -1 : 1;
  const key = (u: PublicUser) =>
    field === 'createdAt' ? Date.parse(u.createdAt!) : field === 'name' ? u.name.toLowerCase() : u.email;
  matching.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return sign * (x < y ? -1 : x > y ? 1 : a._id < b._id ? -1 : a._id > b._id ? 1 : 0);
  });
  const page = Number(query.page);
  const limit = Number(query.limit ?? 25);
  return { total: matching.length, ids: matching.slice((page - 1) * limit, page * limit).map((u) => u._id) };
}

describe('identity: the paged admin user list', () => {
  let svc: TestService;
  let replica: TestService | undefined;
  let admin: { id: string; email: string; token: string };
  const list = (query: Query, on: TestService = svc) =>
    request<PublicUser[]>(`${on.url}/api/admin/users?${new URLSearchParams(query)}`, { token: admin.token });
  const everyone = async () => (await request<PublicUser[]>(`${svc.url}/api/admin/users`, { token: admin.token })).body;

  beforeAll(async () => {
    svc = await startIdentity();
    admin = await createAdmin(svc);
    // Generated users, written straight into the collection (a password hash each would take minutes), with
    // repeated names and creation times so that ties must be ordered by id; each recorded as identity's writes are.
    const next = random(11);
    const base = Date.now() - 90 * 86_400_000;
    const docs = Array.from({ length: 180 }, (_, i) => {
      const at = new Date(base + Math.floor(next() * 60) * 3_600_000);
      return {
        _id: new Types.ObjectId(),
        name: `${FIRST[Math.floor(next() * FIRST.length)]} ${LAST[Math.floor(next() * LAST.length)]}`,
        email: `user${String(i).padStart(3, '0')}.${next() < 0.5 ? 'shop' : 'mail'}@example.com`,
        passwordHash: 'x',
        role: next() < 0.15 ? 'admin' : 'customer',
        createdAt: at,
        updatedAt: at,
      };
    });
    await svc.app.get<Model<User>>(getModelToken(User.name)).collection.insertMany(docs);
    for (const doc of docs) await svc.app.get(UserDirectory).changed(String(doc._id));
  }, 60_000);
  afterAll(async () => {
    await replica?.close();
    await svc.close();
  });

  it('keeps the list without page as it was: every user, newest first, no total', async () => {
    const res = await request<PublicUser[]>(`${svc.url}/api/admin/users?q=nobody&limit=1&role=admin`, {
      token: admin.token,
    });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(181);
    expect(res.headers.get(TOTAL_COUNT_HEADER)).toBeNull();
  });

  it('answers every page, search, filter and sort as a plain computation over all users does', async () => {
    const all = await everyone();
    const next = random(3);
    const pick = <T>(values: readonly T[]) => values[Math.floor(next() * values.length)]!;
    const queries: Query[] = [
      { page: '1' },
      { page: '2', limit: '100' },
      { page: '1', q: 'ADA' },
      { page: '1', q: 'user01' },
      { page: '1', role: 'admin', sort: 'email' },
      { page: '50' },
    ];
    for (let i = 0; i < 50; i++) {
      const query: Query = { page: String(1 + Math.floor(next() * 4)), limit: String(pick([5, 10, 25, 60])) };
      if (next() < 0.5) query.q = pick(['ada', 'Jones', 'shop', 'user1', '@example', 'zoë', 'nobody']);
      if (next() < 0.4) query.role = pick(ROLES);
      if (next() < 0.8) query.sort = `${pick(['', '-'])}${pick(USER_LIST_SORTS)}`;
      queries.push(query);
    }
    for (const query of queries) {
      const res = await list(query);
      const want = expected(all, query);
      expect([query, res.status]).toEqual([query, 200]);
      expect([query, Number(res.headers.get(TOTAL_COUNT_HEADER)), res.body.map((u) => u._id)]).toEqual([
        query,
        want.total,
        want.ids,
      ]);
    }
    const page = (await list({ page: '1', limit: '5', sort: 'name' })).body;
    expect(page).toEqual(page.map((u) => all.find((a) => a._id === u._id)));
    expect(JSON.stringify(page)).not.toMatch(/password/i);
  });

  it('shows a registration, an edit, a role change and a deletion on the very next read of another replica', async () => {
    replica = await startTestService('identity', AppModule, {
      env: { MONGO_URI: svc.config.MONGO_URI },
      namespace: svc.namespace,
    });
    expect((await list({ page: '1', q: 'quentin' }, replica)).headers.get(TOTAL_COUNT_HEADER)).toBe('0');

    const customer = await registerCustomer(svc, 'Quentin Quill');
    let page = await list({ page: '1', q: 'quentin' }, replica);
    expect(page.body.map((u) => [u.name, u.role])).toEqual([['Quentin Quill', 'customer']]);

    await request(`${svc.url}/api/admin/users/${customer.id}`, {
      method: 'PUT',
      token: admin.token,
      body: { name: 'Quentin Renamed', role: 'admin' },
    });
    page = await list({ page: '1', q: 'quentin', role: 'admin' }, replica);
    expect(page.body.map((u) => [u.name, u.role])).toEqual([['Quentin Renamed', 'admin']]);

    await request(`${replica.url}/api/admin/users/${customer.id}`, { method: 'DELETE', token: admin.token });
    page = await list({ page: '1', q: 'quentin' });
    expect([page.body, page.headers.get(TOTAL_COUNT_HEADER)]).toEqual([[], '0']);
  });

  it.each([
    [{ page: '0' }, ADMIN_LIST_MESSAGES.page],
    [{ page: '-2' }, ADMIN_LIST_MESSAGES.page],
    [{ page: '1', limit: '10000' }, ADMIN_LIST_MESSAGES.limit],
    [{ page: '1', limit: 'ten' }, ADMIN_LIST_MESSAGES.limit],
    [{ page: '1', sort: 'passwordHash' }, ADMIN_LIST_MESSAGES.sort(USER_LIST_SORTS)],
    [{ page: '1', sort: '-role' }, ADMIN_LIST_MESSAGES.sort(USER_LIST_SORTS)],
    [{ page: '1', role: 'superuser' }, ADMIN_LIST_MESSAGES.oneOf('role', ROLES)],
    [{ page: '1', q: 'q'.repeat(101) }, ADMIN_LIST_MESSAGES.q],
    [{ page: '1', 'role[$ne]': 'admin' }, ADMIN_LIST_MESSAGES.plain('role')],
  ])('answers 400 with a message for %j', async (query, message) => {
    expect((await list(query as Query)).body).toEqual({ statusCode: 400, message });
  });

  it('answers 400 for a repeated key, 401 without a token and 403 for a customer', async () => {
    expect((await request(`${svc.url}/api/admin/users?page=1&limit=5&limit=6`, { token: admin.token })).body).toEqual({
      statusCode: 400,
      message: ADMIN_LIST_MESSAGES.plain('limit'),
    });
    const url = `${svc.url}/api/admin/users?page=1&q=ada&role=admin&sort=-email`;
    expect((await request(url)).body).toEqual({ statusCode: 401, message: AUTH_MESSAGES.noToken });
    const customer = await registerCustomer(svc);
    expect((await request(url, { token: customer.token })).body).toEqual({
      statusCode: 403,
      message: AUTH_MESSAGES.notAdmin,
    });
  });
});
