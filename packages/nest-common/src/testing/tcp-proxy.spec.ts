import net from 'node:net';
import { TcpProxy } from './tcp-proxy';

/** How long "nothing arrives" is watched for. */
const QUIET_MS = 300;

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.off('error', reject);
      socket.on('error', () => undefined); // a cut connection is observed through 'close'
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** Resolves once `expected` came back, or with what arrived so far (null if nothing) after timeoutMs. */
function roundTrip(socket: net.Socket, payload: string, timeoutMs = 2000): Promise<string | null> {
  return new Promise((resolve) => {
    let got = '';
    const done = () => {
      clearTimeout(timer);
      socket.off('data', onData);
      resolve(got || null);
    };
    const onData = (chunk: Buffer) => {
      got += chunk.toString();
      if (got.length >= payload.length) done();
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on('data', onData);
    socket.write(payload);
  });
}

/** Resolves true if the socket closes within timeoutMs. */
function closes(socket: net.Socket, timeoutMs = 2000): Promise<boolean> {
  if (socket.destroyed) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

describe('TcpProxy (plain TCP echo server)', () => {
  let echo: net.Server;
  let echoPort: number;
  const upstreamSockets = new Set<net.Socket>();
  const proxies: TcpProxy[] = [];
  const clients: net.Socket[] = [];

  async function proxy(): Promise<TcpProxy> {
    const p = await TcpProxy.start({ host: '127.0.0.1', port: echoPort });
    proxies.push(p);
    return p;
  }

  async function client(port: number): Promise<net.Socket> {
    const socket = await connect(port);
    clients.push(socket);
    return socket;
  }

  beforeAll(async () => {
    echo = net.createServer((socket) => {
      upstreamSockets.add(socket);
      socket.on('close', () => upstreamSockets.delete(socket));
      socket.on('error', () => undefined);
      socket.pipe(socket);
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    echoPort = (echo.address() as net.AddressInfo).port;
  });

  afterEach(async () => {
    clients.splice(0).forEach((c) => c.destroy());
    await Promise.all(proxies.splice(0).map((p) => p.stop()));
  });

  afterAll(async () => {
    upstreamSockets.forEach((s) => s.destroy());
    await new Promise<void>((resolve) => echo.close(() => resolve()));
  });

  it('lets bytes flow both ways while open, large payloads included', async () => {
    const p = await proxy();
    expect(p.current).toBe('open');
    expect(p.listeningPort).toBeGreaterThan(0);
    expect(p.listeningPort).not.toBe(echoPort);
    const socket = await client(p.listeningPort);
    expect(await roundTrip(socket, 'hello')).toBe('hello');
    const big = 'x'.repeat(1024 * 1024);
    expect(await roundTrip(socket, big, 5000)).toBe(big);
  });

  it('close(): cuts open connections and refuses new ones', async () => {
    const p = await proxy();
    const socket = await client(p.listeningPort);
    expect(await roundTrip(socket, 'before')).toBe('before');

    const cut = closes(socket);
    await p.close();
    expect(p.current).toBe('closed');
    expect(await cut).toBe(true);
    await expect(connect(p.listeningPort)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('blackhole(): connections are accepted and held, but nothing flows either way', async () => {
    const p = await proxy();
    const existing = await client(p.listeningPort);
    expect(await roundTrip(existing, 'before')).toBe('before');

    await p.blackhole();
    expect(p.current).toBe('blackhole');
    const existingCut = closes(existing, QUIET_MS);
    expect(await roundTrip(existing, 'held', QUIET_MS)).toBeNull();
    expect(await existingCut).toBe(false);

    const upstreamBefore = upstreamSockets.size;
    const fresh = await client(p.listeningPort); // the connect itself succeeds
    const freshCut = closes(fresh, QUIET_MS);
    expect(await roundTrip(fresh, 'ping', QUIET_MS)).toBeNull();
    expect(await freshCut).toBe(false);
    // Not dialled through: the server cannot time the held connection out and close it under the client.
    expect(upstreamSockets.size).toBe(upstreamBefore);
  });

  it('blackhole(): the upstream closing its side does not reach the held client (a dropped network)', async () => {
    const p = await proxy();
    const socket = await client(p.listeningPort);
    expect(await roundTrip(socket, 'before')).toBe('before');
    expect(upstreamSockets.size).toBeGreaterThan(0);

    await p.blackhole();
    upstreamSockets.forEach((s) => s.destroy()); // e.g. the broker drops a client that missed its heartbeats
    expect(await closes(socket, QUIET_MS)).toBe(false);
  });

  it('open() after close(): works again on the same port', async () => {
    const p = await proxy();
    const port = p.listeningPort;
    await p.close();
    await expect(connect(port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    await p.open();
    expect(p.current).toBe('open');
    expect(p.listeningPort).toBe(port);
    const socket = await client(port);
    expect(await roundTrip(socket, 'again')).toBe('again');
  });

  it('open() after close() waits for its port while another socket holds it, instead of failing', async () => {
    const p = await proxy();
    const port = p.listeningPort;
    await p.close();
    // Something else got the port meanwhile (as the local port of an outgoing connection, say).
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    const opened = p.open();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await new Promise<void>((resolve) => squatter.close(() => resolve()));
    await opened;
    expect(p.listeningPort).toBe(port);
    expect(await roundTrip(await client(port), 'back')).toBe('back');
  });

  it('open() after blackhole(): held connections are cut, new ones flow on the same port', async () => {
    const p = await proxy();
    const port = p.listeningPort;
    await p.blackhole();
    const held = await client(port);
    expect(await roundTrip(held, 'held', QUIET_MS)).toBeNull();

    const cut = closes(held);
    await p.open();
    expect(await cut).toBe(true);
    expect(p.listeningPort).toBe(port);
    const socket = await client(port);
    expect(await roundTrip(socket, 'flowing')).toBe('flowing');
  });

  it('blackhole() after close() listens again on the same port; close → blackhole → open → close cycles', async () => {
    const p = await proxy();
    const port = p.listeningPort;
    for (let i = 0; i < 3; i++) {
      await p.close();
      await expect(connect(port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      await p.blackhole();
      const held = await client(port);
      expect(await roundTrip(held, 'x', 100)).toBeNull();
      await p.open();
      const socket = await client(port);
      expect(await roundTrip(socket, `round ${i}`)).toBe(`round ${i}`);
    }
    expect(p.listeningPort).toBe(port);
  });

  it('cuts the client when the upstream is down (a refused upstream looks like a dead server)', async () => {
    const spare = net.createServer();
    await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
    const deadPort = (spare.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => spare.close(() => resolve()));

    const p = await TcpProxy.start({ host: '127.0.0.1', port: deadPort });
    proxies.push(p);
    const socket = await client(p.listeningPort);
    expect(await closes(socket)).toBe(true);
  });

  it('inFrontOf(): rewrites the URL to go through the proxy, keeping credentials and path', async () => {
    const { proxy: p, url } = await TcpProxy.inFrontOf(`tcp://user:secret@127.0.0.1:${echoPort}/vhost?x=1`, 1);
    proxies.push(p);
    expect(url).toBe(`tcp://user:secret@127.0.0.1:${p.listeningPort}/vhost?x=1`);
    const socket = await client(Number(new URL(url).port));
    expect(await roundTrip(socket, 'via url')).toBe('via url');

    const { proxy: q, url: noPort } = await TcpProxy.inFrontOf('amqp://guest:guest@localhost', 5672);
    proxies.push(q);
    expect(noPort).toBe(`amqp://guest:guest@127.0.0.1:${q.listeningPort}`);
  });

  it('stop(): closes for good', async () => {
    const p = await proxy();
    const socket = await client(p.listeningPort);
    const cut = closes(socket);
    await p.stop();
    expect(await cut).toBe(true);
    await expect(connect(p.listeningPort)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
