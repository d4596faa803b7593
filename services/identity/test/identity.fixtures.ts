import { request, startTestService, type TestService } from '@shop/nest-common/testing';
import { randomBytes } from 'node:crypto';
import { AppModule } from '../src/app.module';
import { UsersService } from '../src/users/users.service';

export const PASSWORD = 'Sup3r-secret';

export function startIdentity(env: Record<string, string> = {}): Promise<TestService> {
  return startTestService('identity', AppModule, { env });
}

export function uniqueEmail(tag = 'user'): string {
  return `${tag}.${randomBytes(5).toString('hex')}@example.com`;
}

/** Registers a customer through the API and returns its id, email and token. */
export async function registerCustomer(svc: TestService, name = 'Pat Shopper') {
  const email = uniqueEmail();
  const res = await request(`${svc.url}/api/users/register`, { body: { name, email, password: PASSWORD } });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.user._id as string, email, token: res.body.token as string };
}

/** Creates an admin directly (there is no public way to become one) and logs in. */
export async function createAdmin(svc: TestService, name = 'Ada Admin') {
  const email = uniqueEmail('admin');
  const user = await svc.app.get(UsersService).insert({ name, email, password: PASSWORD, role: 'admin' });
  const res = await request(`${svc.url}/api/users/login`, { body: { email, password: PASSWORD } });
  return { id: String(user._id), email, token: res.body.token as string };
}
