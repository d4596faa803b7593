import 'reflect-metadata';
import { loadConfig } from '@shop/nest-common';
import mongoose from 'mongoose';
import { IdentityConfig } from '../config/identity.config';
import { hashPassword } from '../users/password';
import { User, UserSchema } from '../users/user.schema';

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

/** Seeds an admin and a customer when the users database is empty; otherwise changes nothing. */
async function main() {
  const config = loadConfig(IdentityConfig);
  const connection = await mongoose.createConnection(config.MONGO_URI, { serverSelectionTimeoutMS: 5000 }).asPromise();
  try {
    const users = connection.model(User.name, UserSchema);
    await users.init();
    if ((await users.estimatedDocumentCount()) > 0) {
      console.log('identity: users exist, nothing seeded');
      return;
    }
    for (const u of SEED_USERS) {
      await users.create({ name: u.name, email: u.email, role: u.role, passwordHash: await hashPassword(u.password) });
      const shown = config.NODE_ENV === 'production' ? '(password from the environment)' : u.password;
      console.log(`identity: seeded ${u.role} ${u.email} / ${shown}`);
    }
  } finally {
    await connection.close();
  }
}

main().catch((err: Error) => {
  console.error(`identity seed failed: ${err.message}`);
  process.exit(1);
});
