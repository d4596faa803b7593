import mongoose from 'mongoose';
import { installDriverCloseGuard } from './driver-close-guard';

/** The driver's internals the hang lives in (not part of its public types). */
interface Internals {
  topology: { s: { servers: Map<string, { monitor: { connection: MonitorConnection | null } }> } };
}
interface MonitorConnection {
  socket: { destroy(): void };
  command(ns: { db: string; collection: string; toString(): string }, cmd: object, options: object): Promise<unknown>;
}

const adminCommand = { db: 'admin', collection: '$cmd', toString: () => 'admin.$cmd' };

/**
 * A command written on a connection whose socket has just closed (the connection has not heard yet): what the
 * driver's server monitor does when MongoDB goes away and an operation asks it for an immediate check.
 */
async function commandAsTheSocketCloses(): Promise<string> {
  const client = new mongoose.mongo.MongoClient(process.env.TEST_MONGO_URL ?? 'mongodb://127.0.0.1:27018', {
    serverSelectionTimeoutMS: 2500,
    connectTimeoutMS: 2500,
    socketTimeoutMS: 2500,
  });
  await client.connect();
  try {
    const [server] = (client as unknown as Internals).topology.s.servers.values();
    const connection = server.monitor.connection;
    if (!connection) throw new Error('the monitor has no connection yet');
    connection.socket.destroy();
    const outcome = connection.command(adminCommand, { ping: 1 }, { socketTimeoutMS: 2500 }).then(
      () => 'answered',
      (err: Error) => err.name,
    );
    // Well past the socket timeout: a command still pending then would wait forever.
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('hung'), 4000)));
    return await Promise.race([outcome, hung]).finally(() => clearTimeout(timer));
  } finally {
    await client.close(true);
  }
}

describe('MongoDB driver close guard', () => {
  it('fails a command written as its connection closes with a network error, where the driver alone hangs for good', async () => {
    expect(await commandAsTheSocketCloses()).toBe('hung');
    installDriverCloseGuard();
    installDriverCloseGuard(); // idempotent
    expect(await commandAsTheSocketCloses()).toBe('MongoNetworkError');
  }, 20_000);
});
