import net from 'node:net';

export type TcpProxyState = 'open' | 'closed' | 'blackhole';

/** How long open() or blackhole() after close() waits for the port to be free again. */
const REOPEN_PATIENCE_MS = 20_000;

/**
 * A TCP proxy a test controls, in front of a real dependency (RabbitMQ, Redis, the MongoDB-wire server):
 * - open: bytes flow both ways;
 * - closed: every connection is cut and new ones are refused (a stopped server);
 * - blackhole: connections are accepted and held, but nothing flows (a hung server, a dropped network).
 */
export class TcpProxy {
  private server?: net.Server;
  private state: TcpProxyState = 'open';
  private readonly pairs = new Set<Pair>();
  private port = 0;

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** Listens on a free port of 127.0.0.1 and forwards to host:port. */
  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target.host, target.port);
    await proxy.listen();
    return proxy;
  }

  /** Starts one in front of the server of a URL and gives the URL that goes through it. */
  static async inFrontOf(url: string, defaultPort: number): Promise<{ proxy: TcpProxy; url: string }> {
    const u = new URL(url);
    const proxy = await TcpProxy.start({ host: u.hostname, port: Number(u.port || defaultPort) });
    u.hostname = '127.0.0.1';
    u.port = String(proxy.port);
    return { proxy, url: u.toString().replace(/\/$/, '') };
  }

  get listeningPort(): number {
    return this.port;
  }

  get current(): TcpProxyState {
    return this.state;
  }

  /** Refuse connections (and cut the open ones). */
  async close(): Promise<void> {
    this.state = 'closed';
    this.cutAll();
    await this.stopListening();
  }

  /** Accept connections but let nothing through. */
  async blackhole(): Promise<void> {
    if (this.state === 'closed') await this.listen();
    this.state = 'blackhole';
    for (const pair of this.pairs) hold(pair);
  }

  /** Let traffic flow again; connections held by a blackhole are cut so that clients reconnect cleanly. */
  async open(): Promise<void> {
    const was = this.state;
    this.state = 'open';
    if (was === 'closed') await this.listen();
    if (was === 'blackhole') this.cutAll();
  }

  /** Stops for good. */
  async stop(): Promise<void> {
    this.state = 'closed';
    this.cutAll();
    await this.stopListening();
  }

  /**
   * Listens on our port (a free one the first time). While closed, the port is free for anyone: another socket of
   * the machine may be given it as its local port meanwhile (ports for outgoing connections come from the same
   * range), and listening again fails with EADDRINUSE until that connection ends. Such connections are short, so
   * this tries again for a while rather than leave the dependency away for the rest of the suite.
   */
  private async listen(): Promise<void> {
    const deadline = Date.now() + REOPEN_PATIENCE_MS;
    for (;;) {
      try {
        return await this.listenOnce();
      } catch (err) {
        const inUse = (err as NodeJS.ErrnoException).code === 'EADDRINUSE';
        if (!inUse || this.port === 0 || Date.now() > deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  private listenOnce(): Promise<void> {
    const server = net.createServer((client) => this.accept(client));
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        server.off('error', reject);
        this.server = server;
        this.port = (server.address() as net.AddressInfo).port;
        resolve();
      });
    });
  }

  private stopListening(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }

  private accept(client: net.Socket): void {
    if (this.state === 'closed') {
      client.destroy();
      return;
    }
    const pair: Pair = { client };
    this.pairs.add(pair);
    const end = () => {
      this.pairs.delete(pair);
      client.destroy();
      pair.upstream?.destroy();
    };
    client.on('error', end).on('close', end);
    if (this.state === 'blackhole') {
      // A dropped network: the server never hears of this connection (so cannot time it out and close it).
      client.pause();
      return;
    }
    const upstream = net.connect(this.targetPort, this.targetHost);
    pair.upstream = upstream;
    // While blackholed, the server giving up on a held connection (missed heartbeats, idle timeout) must not
    // reach the client either: it stays hung until open() or close() cuts it.
    const upstreamEnded = () => {
      if (this.state !== 'blackhole') end();
    };
    upstream.on('error', upstreamEnded).on('close', upstreamEnded);
    client.pipe(upstream);
    upstream.pipe(client);
  }

  private cutAll(): void {
    for (const { client, upstream } of this.pairs) {
      client.destroy();
      upstream?.destroy();
    }
    this.pairs.clear();
  }
}

interface Pair {
  client: net.Socket;
  /** Not dialled for a connection accepted while blackholed. */
  upstream?: net.Socket;
}

/** Nothing flows between the two sockets any more; both stay open. */
function hold({ client, upstream }: Pair): void {
  if (upstream) {
    client.unpipe(upstream);
    upstream.unpipe(client);
    upstream.pause();
  }
  client.pause();
}
