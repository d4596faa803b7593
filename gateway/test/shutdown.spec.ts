// A real service process stopped with SIGTERM (a deploy, a scale-down, Ctrl-C) while a request is half-way
// through: the service finishes what it accepted and exits; meanwhile, and until it is back, the gateway answers
// a JSON 503 naming the service — never a 502, an HTML page or a hung request — and the service answers again
// once restarted (issue 12). Runs the built identity (services/identity/dist, built by `npm test` first) against
// the test servers, with a database and queue namespace of its own.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as http from 'node:http';
import type { Socket } from 'node:net';
import * as path from 'node:path';
import amqp from 'amqplib';
import { MongoClient } from 'mongodb';
import { testMongoUrl, waitFor, withDatabase } from '@shop/nest-common/testing';
import { closedPort, startGateway, testConfig, type Running } from './helpers';

jest.setTimeout(60_000);

const IDENTITY_MAIN = path.join(__dirname, '../../services/identity/dist/main.js');
const MONGO_BASE = testMongoUrl();
const RABBITMQ_URL = process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const PASSWORD = 'Shutdown!2345';

describe('a service stopped with SIGTERM behind the gateway', () => {
  const suffix = randomBytes(4).toString('hex');
  const namespace = `t${suffix}.`;
  const database = `test_identity_shutdown_${suffix}`;
  let port: number;
  let serviceUrl: string;
  let gw: Running;
  let child: ChildProcess | undefined;
  const output: string[] = [];

  /** Starts the built identity on `port`. */
  function spawnIdentity(): ChildProcess {
    const proc = spawn(process.execPath, [IDENTITY_MAIN], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        PORT: String(port),
        HOST: '127.0.0.1',
        MONGO_URI: withDatabase(MONGO_BASE, database),
        REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        RABBITMQ_URL,
        RABBITMQ_NAMESPACE: namespace,
        JWT_SECRET: 'test-secret-for-the-shutdown-suite',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proc.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    proc.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    return proc;
  }

  /** Starts the built identity on `port`; resolves once it reports ready. */
  async function startIdentity(): Promise<ChildProcess> {
    const proc = spawnIdentity();
    await waitFor(
      'identity ready',
      async () => {
        if (proc.exitCode !== null) throw new Error(`identity exited at start:\n${output.join('')}`);
        return (await fetch(`${serviceUrl}/ready`).catch(() => undefined))?.status === 200;
      },
      30_000,
    );
    return proc;
  }

  /** Resolves once the process has exited and all it wrote has been read. */
  const exited = (proc: ChildProcess) =>
    new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      const done = () => resolve({ code: proc.exitCode, signal: proc.signalCode });
      if ((proc.exitCode !== null || proc.signalCode !== null) && proc.stdout!.closed) done();
      else proc.once('close', done);
    });

  beforeAll(async () => {
    if (!existsSync(IDENTITY_MAIN)) throw new Error(`${IDENTITY_MAIN} is missing: build first (npm run build)`);
    port = await closedPort();
    serviceUrl = `http://127.0.0.1:${port}`;
    const nowhere = `http://127.0.0.1:${await closedPort()}`;
    gw = await startGateway(
      testConfig({ identity: serviceUrl, catalog: nowhere, cart: nowhere, checkout: nowhere, orders: nowhere }),
    );
    child = await startIdentity();
  }, 45_000);

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited(child);
    }
    await gw?.close();
    const mongo = await MongoClient.connect(MONGO_BASE, { serverSelectionTimeoutMS: 5000 });
    await mongo
      .db(database)
      .dropDatabase()
      .catch(() => undefined);
    await mongo.close();
    const connection = await amqp.connect(RABBITMQ_URL);
    for (const queue of [`${namespace}identity_queue`]) {
      const channel = await connection.createChannel();
      await channel.deleteQueue(queue).catch(() => undefined);
      await channel.close().catch(() => undefined);
    }
    const channel = await connection.createChannel();
    await channel.deleteExchange(`${namespace}shop.events`).catch(() => undefined);
    await connection.close();
  });

  /** A gateway answer as the browser sees it. */
  async function viaGateway(path: string, init: RequestInit = {}) {
    const res = await fetch(`${gw.url}${path}`, init);
    const type = res.headers.get('content-type') ?? '';
    const text = await res.text();
    return { status: res.status, type, body: type.includes('application/json') ? JSON.parse(text) : text };
  }
  const login = (email: string) =>
    viaGateway('/api/users/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });

  it('finishes the registration it was reading, while the gateway answers JSON 503 for the gap; back after a restart', async () => {
    const email = `shutdown-${suffix}@example.com`;
    const body = Buffer.from(JSON.stringify({ name: 'Sigterm Sam', email, password: PASSWORD }));

    // A shopper on a slow line: the headers and half the body are in when the service is told to stop.
    const req = http.request(`${serviceUrl}/api/users/register`, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': body.length },
    });
    const answer = new Promise<{ status: number; body: { token?: string; user?: { email?: string } } }>(
      (resolve, reject) => {
        req.on('error', reject);
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) }));
        });
      },
    );
    req.write(body.subarray(0, body.length / 2));
    const socket = await new Promise<Socket>((resolve) => req.once('socket', resolve));
    if (socket.connecting) await new Promise((resolve) => socket.once('connect', resolve));
    // Answered on a later connection: the service has accepted ours and read what we sent by then.
    expect((await fetch(`${serviceUrl}/health`)).status).toBe(200);

    const stopping = exited(child!);
    child!.kill('SIGTERM');

    // The gap: the gateway answers for the service that no longer takes connections.
    const seen = new Set<string>();
    await waitFor('the gateway answering 503 for identity', async () => {
      const res = await login(email);
      seen.add(`${res.status} ${res.type.split(';')[0]}`);
      return res.status === 503;
    });
    expect([...seen].filter((s) => !/^(401|503) application\/json$/.test(s))).toEqual([]);
    expect(await login(email)).toMatchObject({
      status: 503,
      body: { statusCode: 503, message: 'Identity service is unavailable' },
    });

    // The rest of the body arrives: the request the service accepted is completed, not dropped.
    req.end(body.subarray(body.length / 2));
    const registered = await answer;
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({ user: { email } });
    expect(typeof registered.body.token).toBe('string');

    // Then it exits, by itself and promptly, as it was asked to.
    const { code, signal } = await stopping;
    expect(code === 0 || signal === 'SIGTERM').toBe(true);
    const down = await login(email);
    expect(down).toMatchObject({ status: 503, type: expect.stringContaining('application/json') });

    // Back: the registration it finished was stored.
    child = await startIdentity();
    await waitFor('login through the gateway', async () => (await login(email)).status === 200, 15_000);
  });

  it('stopped the moment it starts answering (a deploy rolled back at once), it still drains and exits cleanly', async () => {
    const before = child!;
    before.kill('SIGTERM');
    await exited(before);
    const from = output.length;
    const proc = (child = spawnIdentity());
    // HTTP answers before the request queue is consumed: stop it in that window, as soon as it answers at all.
    while (
      !(await fetch(`${serviceUrl}/health`)
        .then((r) => r.ok)
        .catch(() => false))
    ) {
      if (proc.exitCode !== null) throw new Error(`identity exited at start:\n${output.join('')}`);
    }
    proc.kill('SIGTERM');
    const { code, signal } = await exited(proc);
    expect({ code, signal, failed: output.slice(from).join('').includes('failed to start') }).toEqual({
      code: signal === null ? 0 : null,
      signal: signal === null ? null : 'SIGTERM',
      failed: false,
    });
    expect(await login(`nobody-${suffix}@example.com`)).toMatchObject({
      status: 503,
      type: expect.stringContaining('json'),
    });
  });
});
