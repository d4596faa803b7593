import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { SERVICES, type ServiceName } from '@shop/contracts';
import { createGateway, type Gateway } from '../src/app';
import { loadConfig, type GatewayConfig } from '../src/config';

/** What a stand-in upstream saw. */
export interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export type UpstreamHandler = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) => void;

export interface Upstream {
  name: string;
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

/** Default behaviour: echo who answered, the path it saw and the request id as JSON. */
const echo =
  (name: string): UpstreamHandler =>
  (req, res, body) => {
    res.setHeader('Content-Type', 'application/json');
    res.setHeader('X-Powered-By', 'Express');
    // Like the real catalog: its public answers may be kept by a shared cache (the gateway's).
    if (name === 'catalog') res.setHeader('Surrogate-Control', 'max-age=60');
    const status = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('status') ?? 200);
    if (status !== 200) {
      res.statusCode = status;
      res.end(JSON.stringify({ message: 'Not authorized, token failed', statusCode: status }));
      return;
    }
    res.end(
      JSON.stringify({
        service: name,
        method: req.method,
        url: req.url,
        requestId: req.headers['x-request-id'] ?? null,
        bodyLength: body.length,
      }),
    );
  };

/** A tiny real HTTP server on a free port standing in for a service. */
export async function startUpstream(name: string, handler: UpstreamHandler = echo(name)): Promise<Upstream> {
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    name,
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** An upstream that accepts requests and never answers. */
export function startHungUpstream(name: string): Promise<Upstream> {
  return startUpstream(name, () => undefined);
}

/** A port on which nothing listens. */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** One stand-in per service. */
export async function startAllUpstreams(): Promise<Record<ServiceName, Upstream>> {
  const entries = await Promise.all(SERVICES.map(async (s) => [s, await startUpstream(s)] as const));
  return Object.fromEntries(entries) as Record<ServiceName, Upstream>;
}

export function uniquePrefix(): string {
  return `gw:rl:test:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/** A catalog version key/channel prefix of this test run's own (the gateway only reads and subscribes). */
export function uniqueCatalogPrefix(): string {
  return `gw:test:${process.pid}:${randomUUID().slice(0, 8)}:`;
}

/**
 * A config as main.ts would load it, pointed at the given upstreams, quiet, on a free port, following
 * its own catalog version channel (never the dev one).
 */
export function testConfig(
  upstreams: Partial<Record<ServiceName, Upstream | string>>,
  env: Record<string, string> = {},
): GatewayConfig {
  const urls: Record<string, string> = {};
  for (const [service, upstream] of Object.entries(upstreams)) {
    urls[`${service.toUpperCase()}_URL`] = typeof upstream === 'string' ? upstream : upstream.url;
  }
  return loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PREFIX: uniquePrefix(),
    CATALOG_CACHE_PREFIX: uniqueCatalogPrefix(),
    ...urls,
    ...env,
  });
}

export interface Running {
  gateway: Gateway;
  config: GatewayConfig;
  url: string;
  close(): Promise<void>;
}

export async function startGateway(config: GatewayConfig): Promise<Running> {
  const gateway = createGateway(config);
  const { url } = await gateway.start();
  return {
    gateway,
    config,
    url,
    close: async () => {
      await gateway.close(1000);
      // Leave no rate-limit counters behind (each test config has its own prefix).
      if (config.rateLimitPrefix.startsWith('gw:rl:test:') && config.redisUrl === 'redis://127.0.0.1:6379') {
        await deleteKeys(config.rateLimitPrefix);
      }
    },
  };
}

/** Deletes every Redis key under a prefix; returns how many there were. */
export async function deleteKeys(prefix: string): Promise<number> {
  const redis = new Redis('redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    return keys.length;
  } finally {
    redis.disconnect();
  }
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A request through node:http, for what fetch forbids: a lying Content-Length, chunked bodies,
 * raw paths, or reading compressed bytes as sent.
 */
export function rawRequest(
  baseUrl: string,
  options: { method?: string; path: string; headers?: http.OutgoingHttpHeaders; chunks?: Buffer[] },
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { hostname, port, method: options.method ?? 'GET', path: options.path, headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    // The gateway may answer and close before it has read everything we send: that is the point.
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ECONNRESET') reject(err);
    });
    for (const chunk of options.chunks ?? []) req.write(chunk);
    req.end();
  });
}

/** A response's JSON body, loosely typed for assertions. */
export const json = (res: Response): Promise<any> => res.json();
