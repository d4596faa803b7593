import { Types, type Model } from 'mongoose';
import { hashPassword } from '../users/password';
import type { User } from '../users/user.schema';

/**
 * Many synthetic users, for benchmarks only (`seed.main --synthetic=<count>`; `npm start` never makes them):
 * names from short lists (so searches and sorts meet many ties), `synthetic.<n>@example.com`, one in twenty an
 * admin, joined over the last year — deterministically from the user's number. They share one password hash
 * (`SYNTHETIC_PASSWORD`): a scrypt per user would take minutes and is not what such a bench measures.
 */
export const SYNTHETIC_PASSWORD = 'Synthetic!2345';
const FIRST = ['Ada', 'Brook', 'Casey', 'Dana', 'Eli', 'Frankie', 'Gale', 'Harper', 'Indy', 'Jordan', 'Kai', 'Lee'];
const LAST = ['Lovelace', 'Stone', 'Jones', 'Park', 'Rivera', 'Nguyen', 'Smith', 'Okafor', 'Brown', 'Murphy'];
const BATCH = 1000;

export async function seedSyntheticUsers(users: Model<User>, count: number): Promise<{ inserted: number }> {
  if ((await users.estimatedDocumentCount()) > 0) return { inserted: 0 };
  const passwordHash = await hashPassword(SYNTHETIC_PASSWORD);
  const now = Date.now();
  for (let start = 0; start < count; start += BATCH) {
    const docs = [];
    for (let n = start; n < Math.min(count, start + BATCH); n++) {
      const at = new Date(now - ((n * 7919) % 365) * 86_400_000 - n * 1000);
      docs.push({
        _id: new Types.ObjectId(),
        name: `${FIRST[n % FIRST.length]} ${LAST[(n * 7) % LAST.length]}`,
        email: `synthetic.${n}@example.com`,
        passwordHash,
        role: n % 20 === 0 ? 'admin' : 'customer',
        createdAt: at,
        updatedAt: at,
      });
    }
    await users.collection.insertMany(docs);
  }
  return { inserted: count };
}
