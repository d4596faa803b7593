import * as path from 'node:path';
import express from 'express';
import { DEFAULT_PORTS, SERVICES, type ServiceName } from '@shop/contracts';

/** Everything the gateway reads from its environment, validated once at boot (loadConfig). */
export type GatewayConfig = ReturnType<typeof loadConfig>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid gateway configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const SIZE_UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** Parses "1mb", "512kb", "1048576" into bytes; undefined when malformed. */
export function parseSize(value: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(value.trim());
  if (!match) return undefined;
  const bytes = Math.floor(Number(match[1]) * SIZE_UNITS[(match[2] ?? 'b').toLowerCase()]);
  return bytes > 0 ? bytes : undefined;
}

/** Reads and validates the gateway's configuration; throws one ConfigError listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const problems: string[] = [];
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };

  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < min || n > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return n;
  };

  const size = (name: string, fallback: string): number => {
    const raw = read(name) ?? fallback;
    const bytes = parseSize(raw);
    if (bytes === undefined) {
      problems.push(`${name} must be a size like 1mb, 512kb or a number of bytes (got "${raw}")`);
      return parseSize(fallback) as number;
    }
    return bytes;
  };

  const url = (name: string, fallback: string, protocols: string[]): string => {
    const raw = read(name) ?? fallback;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) throw new Error('protocol');
      return raw.replace(/\/+$/, '');
    } catch {
      problems.push(`${name} must be a ${protocols.join(' or ')}// URL (got "${raw}")`);
      return fallback;
    }
  };

  const flag = (name: string, fallback: boolean): boolean => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (/^(on|true|1|yes)$/i.test(raw)) return true;
    if (/^(off|false|0|no)$/i.test(raw)) return false;
    problems.push(`${name} must be on or off (got "${raw}")`); // or true or false, yes or no, 1 or 0
    return fallback;
  };

  const upstreams = {} as Record<ServiceName, string>;
  for (const service of SERVICES) {
    const name = `${service.toUpperCase()}_URL`;
    upstreams[service] = url(name, `http://127.0.0.1:${DEFAULT_PORTS[service]}`, ['http:', 'https:']);
  }

  const corsOrigins = (read('CORS_ORIGINS') ?? '')
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  for (const origin of corsOrigins) {
    let ok = false;
    try {
      ok = new URL(origin).origin === origin;
    } catch {
      ok = false;
    }
    if (!ok) problems.push(`CORS_ORIGINS entries must be origins like https://shop.example.com (got "${origin}")`);
  }

  const logLevel = (read('LOG_LEVEL') ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  }

  const keyPrefix = (name: string, value: string, min: number): string => {
    if (!new RegExp(`^[A-Za-z0-9:._-]{${min},100}$`).test(value))
      problems.push(`${name} must be ${min}-100 characters of [A-Za-z0-9:._-] (got "${value}")`);
    return value;
  };
  const rateLimitPrefix = keyPrefix('RATE_LIMIT_PREFIX', read('RATE_LIMIT_PREFIX') ?? 'gw:rl', 1);
  // The catalog names its purge channel with the deployment's RABBITMQ_NAMESPACE: follow it unless told otherwise
  // (an empty value is a namespace too).
  const catalogCachePrefix = keyPrefix(
    'CATALOG_CACHE_PREFIX',
    env.CATALOG_CACHE_PREFIX ?? env.RABBITMQ_NAMESPACE ?? '',
    0,
  );

  const port = int('PORT', DEFAULT_PORTS.gateway, 0, 65535);
  const host = read('HOST') ?? '0.0.0.0';
  const metricsPort = /^off$/i.test(read('METRICS_PORT') ?? 'off') ? undefined : int('METRICS_PORT', 0, 0, 65535);
  if (metricsPort !== undefined && metricsPort !== 0 && metricsPort === port) {
    problems.push(`METRICS_PORT must differ from PORT (${port}): metrics are never served on the public port`);
  }

  const config = {
    port,
    host,
    nodeEnv: read('NODE_ENV') ?? 'development',
    redisUrl: url('REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:']),
    upstreams,
    webDist: path.resolve(read('WEB_DIST') ?? path.join(__dirname, '..', '..', 'web', 'dist')),
    corsOrigins,
    /** Largest request body (bytes) on every proxied route except uploads. */
    bodyLimitBytes: size('BODY_LIMIT', '1mb'),
    /** Largest request body (bytes) on the upload route (streamed, never parsed here). */
    uploadBodyLimitBytes: size('UPLOAD_BODY_LIMIT', '6mb'),
    proxyTimeoutMs: int('PROXY_TIMEOUT_MS', 10_000, 1, 600_000),
    rateLimitLoginPerMin: int('RATE_LIMIT_LOGIN_PER_MIN', 300, 1, 1_000_000),
    rateLimitRegisterPerMin: int('RATE_LIMIT_REGISTER_PER_MIN', 1200, 1, 1_000_000),
    rateLimitPrefix,
    /** Whether GET /ready also asks every upstream's /health. */
    readyCheckUpstreams: flag('READY_CHECK_UPSTREAMS', true),
    trustProxy: parseTrustProxy(read('TRUST_PROXY'), problems),
    logLevel,
    /** The HTTP cache in front of the routes marked `cached` in routes.ts (http-cache/). */
    catalogCache: {
      enabled: flag('CATALOG_CACHE', true),
      /** Most responses kept (least recently used go first). */
      maxEntries: int('CATALOG_CACHE_MAX_ENTRIES', 20_000, 1, 1_000_000),
      /** Most bytes kept (raw + gzip variants together). */
      maxBytes: size('CATALOG_CACHE_MAX_BYTES', '64mb'),
      /** Key prefix of the catalog's purge channel and its sequence number: the deployment's RABBITMQ_NAMESPACE. */
      prefix: catalogCachePrefix,
      /** How often the sequence number is read besides the channel (covers lost messages). */
      versionPollMs: int('CATALOG_VERSION_POLL_MS', 1000, 10, 3_600_000),
    },
    /** GET /metrics on a listener of its own, never on the public port; undefined (unset or "off"): none. */
    metricsPort,
    metricsHost: read('METRICS_HOST') ?? host,
  };

  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/**
 * TRUST_PROXY: false (default), true, a hop count, or Express's list form ("loopback", "10.0.0.0/8, 127.0.0.1"),
 * which Express itself refuses anything else in.
 */
function parseTrustProxy(raw: string | undefined, problems: string[]): boolean | number | string {
  if (raw === undefined || /^(false|0|no)$/i.test(raw)) return false;
  if (/^(true|yes)$/i.test(raw)) return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const list = raw
    .split(',')
    .map((part) => part.trim())
    .join(', ');
  try {
    express().set('trust proxy', list);
    return list;
  } catch {
    problems.push(`TRUST_PROXY must be true, false, a hop count or a list of addresses/subnets (got "${raw}")`);
    return false;
  }
}
