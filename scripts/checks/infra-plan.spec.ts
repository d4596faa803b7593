/**
 * What `npm start` and `npm test` do about Redis and RabbitMQ on a machine (scripts/lib/infra-plan.cjs), with the
 * probes (listening? installed? root?) and the actions (apt-get, start) faked: no real server or apt is touched.
 */
import { ensureServers, planInfra } from '../lib/infra-plan.cjs';

type Server = { name: string; binary: string; pkg: string; envVar: string; host: string; port: number };

const REDIS: Server = {
  name: 'Redis',
  binary: 'redis-server',
  pkg: 'redis-server',
  envVar: 'REDIS_URL',
  host: '127.0.0.1',
  port: 6379,
};
const RABBITMQ: Server = {
  name: 'RabbitMQ',
  binary: 'rabbitmq-server',
  pkg: 'rabbitmq-server',
  envVar: 'RABBITMQ_URL',
  host: '127.0.0.1',
  port: 5672,
};

/**
 * A fake machine: which ports listen, which binaries exist, whether we are root. apt-get installs binaries (and,
 * when `aptStarts`, starts their servers as Debian's packages may); start() opens the port. Every action is recorded.
 */
function machine({
  listening = [] as number[],
  installed = [] as string[],
  root = true,
  aptStarts = false,
  aptFails = false,
} = {}) {
  const open = new Set(listening);
  const binaries = new Set(installed);
  const actions: string[] = [];
  const io = {
    portOpen: async (_host: string, port: number) => open.has(port),
    installed: (binary: string) => (binaries.has(binary) ? `/usr/sbin/${binary}` : null),
    isRoot: () => root,
    aptInstall: async (packages: string[]) => {
      actions.push(`apt-get install -y ${packages.join(' ')}`);
      if (aptFails) throw new Error('apt-get install failed');
      for (const p of packages) {
        binaries.add(p);
        if (aptStarts) open.add(p === 'redis-server' ? 6379 : 5672);
      }
    },
    start: async (server: Server, binary: string) => {
      actions.push(`start ${binary}`);
      open.add(server.port);
    },
    fail: (message: string) => new Error(message),
  };
  return { io, actions };
}

describe('Redis and RabbitMQ on a fresh machine', () => {
  it('does nothing when both listen', async () => {
    const { io, actions } = machine({ listening: [6379, 5672], root: false });
    await expect(ensureServers([REDIS, RABBITMQ], io)).resolves.toEqual([
      'Redis is up on 127.0.0.1:6379',
      'RabbitMQ is up on 127.0.0.1:5672',
    ]);
    expect(actions).toEqual([]);
  });

  it('starts an installed server that is stopped, without apt-get', async () => {
    const { io, actions } = machine({ listening: [5672], installed: ['redis-server', 'rabbitmq-server'] });
    await expect(ensureServers([REDIS, RABBITMQ], io)).resolves.toEqual([
      'Redis started on 127.0.0.1:6379',
      'RabbitMQ is up on 127.0.0.1:5672',
    ]);
    expect(actions).toEqual(['start /usr/sbin/redis-server']);
  });

  it('as root installs every absent server with one apt-get, then starts each', async () => {
    const { io, actions } = machine({ root: true });
    await expect(ensureServers([REDIS, RABBITMQ], io)).resolves.toEqual([
      'Redis installed and started on 127.0.0.1:6379',
      'RabbitMQ installed and started on 127.0.0.1:5672',
    ]);
    expect(actions).toEqual([
      'apt-get install -y redis-server rabbitmq-server',
      'start /usr/sbin/redis-server',
      'start /usr/sbin/rabbitmq-server',
    ]);
  });

  it('as root installs only what is absent, and starts only what the package did not start itself', async () => {
    const { io, actions } = machine({ installed: ['redis-server'], root: true, aptStarts: true });
    await expect(ensureServers([REDIS, RABBITMQ], io)).resolves.toEqual([
      'Redis started on 127.0.0.1:6379',
      'RabbitMQ installed and running on 127.0.0.1:5672',
    ]);
    expect(actions).toEqual(['apt-get install -y rabbitmq-server', 'start /usr/sbin/redis-server']);
  });

  it('as non-root stops before anything, with the exact command for what is absent', async () => {
    const { io, actions } = machine({ listening: [6379], root: false });
    await expect(ensureServers([REDIS, RABBITMQ], io)).rejects.toThrow(
      'RabbitMQ is not installed and this user is not root. ' +
        'Run `sudo apt-get update && sudo apt-get install -y rabbitmq-server`, then retry ' +
        '(or set RABBITMQ_URL to a running RabbitMQ).',
    );
    expect(actions).toEqual([]);
  });

  it('as non-root names both packages in one command when both are absent', async () => {
    const { io } = machine({ root: false });
    await expect(ensureServers([REDIS, RABBITMQ], io)).rejects.toThrow(
      'Redis and RabbitMQ are not installed and this user is not root. ' +
        'Run `sudo apt-get update && sudo apt-get install -y redis-server rabbitmq-server`, then retry ' +
        '(or set REDIS_URL and RABBITMQ_URL to running servers).',
    );
  });

  it('as non-root still starts an installed server that is stopped (as before)', async () => {
    const { io, actions } = machine({ installed: ['redis-server'], listening: [5672], root: false });
    await expect(ensureServers([REDIS, RABBITMQ], io)).resolves.toEqual([
      'Redis started on 127.0.0.1:6379',
      'RabbitMQ is up on 127.0.0.1:5672',
    ]);
    expect(actions).toEqual(['start /usr/sbin/redis-server']);
  });

  it('never installs or starts a server on another host: it says to start it or fix the URL', async () => {
    const remote = { ...REDIS, host: 'redis.internal' };
    const { io, actions } = machine({ root: true });
    await expect(ensureServers([remote, RABBITMQ], io)).rejects.toThrow(
      'Redis is not running on redis.internal:6379: start it or fix REDIS_URL.',
    );
    expect(actions).toEqual([]); // not even the local RabbitMQ's install: the run cannot go on anyway
  });

  it('fails when apt-get fails, without starting anything', async () => {
    const { io, actions } = machine({ root: true, aptFails: true });
    await expect(ensureServers([REDIS, RABBITMQ], io)).rejects.toThrow('apt-get install failed');
    expect(actions).toEqual(['apt-get install -y redis-server rabbitmq-server']);
  });

  it('fails when the package did not bring the binary', async () => {
    const { io } = machine({ root: true });
    io.aptInstall = async () => undefined; // "installed", yet nothing on disk
    await expect(ensureServers([REDIS], io)).rejects.toThrow(
      'apt-get installed redis-server, but redis-server is still not found.',
    );
  });
});

describe('planInfra', () => {
  const probed = (s: Server, up: boolean, installed: boolean) => ({ ...s, up, installed });

  it('treats localhost and ::1 as this machine', () => {
    for (const host of ['localhost', '::1']) {
      expect(planInfra([{ ...probed(REDIS, false, false), host }], { root: true })).toEqual({
        install: ['redis-server'],
        start: ['Redis'],
        problem: null,
      });
    }
  });

  it('plans nothing for servers that listen, whoever runs it', () => {
    for (const root of [true, false])
      expect(planInfra([probed(REDIS, true, false), probed(RABBITMQ, true, false)], { root })).toEqual({
        install: [],
        start: [],
        problem: null,
      });
  });
});
