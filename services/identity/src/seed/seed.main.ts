import 'reflect-metadata';
import { createRedis, loadConfig } from '@shop/nest-common';
import mongoose from 'mongoose';
import { IdentityConfig } from '../config/identity.config';
import { hashPassword } from '../users/password';
import { userFeedKeysOf } from '../users/user-directory';
import { User, UserSchema } from '../users/user.schema';
import { seedSyntheticUsers } from './synthetic';

/**
 * The logins a fresh shop starts with (also in the README). A deployment sets its own
 * passwords through SEED_ADMIN_PASSWORD / SEED_CUSTOMER_PASSWORD.
 */
export const SEED_USERS = [
  {
    name: 'Admin User',
    email: 'admin@example.com',
    password: process.env.SEED_ADMIN_PASSWORD || 'Admin!2345',
    role: 'admin' as const,
  },
  {
    name: 'Casey Customer',
    email: 'customer@example.com',
    password: process.env.SEED_CUSTOMER_PASSWORD || 'Customer!2345',
    role: 'customer' as const,
  },
];

/**
 * Seeds an admin and a customer when the users database is empty; otherwise changes nothing.
 * `--synthetic=<count>` seeds that many synthetic users instead (see synthetic.ts): for benchmarks only.
 */
async function main() {
  const config = loadConfig(IdentityConfig);
  const synthetic = /^--synthetic=(\d+)$/.exec(process.argv[2] ?? '');
  const connection = await mongoose.createConnection(config.MONGO_URI, { serverSelectionTimeoutMS: 5000 }).asPromise();
  try {
    const users = connection.model(User.name, UserSchema);
    await users.init();
    if (synthetic) {
      const { inserted } = await seedSyntheticUsers(users, Number(synthetic[1]));
      console.log(inserted ? `identity: seeded ${inserted} synthetic users` : 'identity: users exist, nothing seeded');
      if (inserted) await usersWrittenBehindTheService(config);
      return;
    }
    if ((await users.estimatedDocumentCount()) > 0) {
      console.log('identity: users exist, nothing seeded');
      return;
    }
    for (const u of SEED_USERS) {
      await users.create({ name: u.name, email: u.email, role: u.role, passwordHash: await hashPassword(u.password) });
      const shown = config.NODE_ENV === 'production' ? '(password from the environment)' : u.password;
      console.log(`identity: seeded ${u.role} ${u.email} / ${shown}`);
    }
    await usersWrittenBehindTheService(config);
  } finally {
    await connection.close();
  }
}

/**
 * Replicas already running keep their copy of the users for the admin list (UserDirectory) unless told: a
 * version bumped with no log entry is a gap, after which they load every user again.
 */
async function usersWrittenBehindTheService(config: IdentityConfig): Promise<void> {
  const redis = createRedis(config.REDIS_URL);
  try {
    await redis.incr(userFeedKeysOf(config.RABBITMQ_NAMESPACE).version);
  } catch {
    // Redis away: a replica that reads no version reads the database, and reloads its copy after.
  } finally {
    redis.disconnect();
  }
}

main().catch((err: Error) => {
  console.error(`identity seed failed: ${err.message}`);
  process.exit(1);
});
