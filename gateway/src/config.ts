import * as path from 'node:path';
import express from 'express';
import { DEFAULT_PORTS, SERVICES, type ServiceName } from '@shop/contracts';

/** Everything the gateway reads from its environment, validated once at boot. */
export interface GatewayConfig {
  port: number;
  host: string;
  nodeEnv: string;
  redisUrl: string;
  upstreams: Record<ServiceName, string>;
  webDist: string;
  corsOrigins: string[];
  /** Largest request body (bytes) on every proxied route except uploads. */
  bodyLimitBytes: number;
  /** Largest request body (bytes) on the upload route (streamed, never parsed here). */
  uploadBodyLimitBytes: number;
  proxyTimeoutMs: number;
  rateLimitLoginPerMin: number;
  rateLimitRegisterPerMin: number;
  rateLimitPrefix: string;
  /** Whether GET /ready also asks every upstream's /health. */
  readyCheckUpstreams: boolean;
  trustProxy: boolean | number | string;
  logLevel: string;
  /** The HTTP cache in front of the routes marked `cached` in routes.ts (http-cache/). */
  catalogCache: CatalogCacheConfig;
  /**
   * METRICS_PORT: where GET /metrics (Prometheus) is served, on a listener of its own and never on the public
   * port; undefined (unset or "off") serves no metrics. METRICS_HOST defaults to HOST.
   */
  metricsPort: number | undefined;
  metricsHost: string;
}

export interface CatalogCacheConfig {
  /** CATALOG_CACHE=on|off. */
  enabled: boolean;
  /** Most responses kept (least recently used go first). */
  maxEntries: number;
  /** Most bytes kept (raw + gzip variants together). */
  maxBytes: number;
  /** Key prefix of the catalog's purge channel and its sequence number: the deployment's RABBITMQ_NAMESPACE. */
  prefix: string;
  /** How often the sequence number is read besides the channel (covers lost messages). */
  versionPollMs: number;
}

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
export function loadConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
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

  const bool = (name: string, fallback: boolean): boolean => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (/^(true|1|yes)$/i.test(raw)) return true;
    if (/^(false|0|no)$/i.test(raw)) return false;
    problems.push(`${name} must be true or false (got "${raw}")`);
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

  const rateLimitPrefix = read('RATE_LIMIT_PREFIX') ?? 'gw:rl';
  if (!/^[A-Za-z0-9:._-]{1,100}$/.test(rateLimitPrefix)) {
    problems.push(`RATE_LIMIT_PREFIX must be 1-100 characters of [A-Za-z0-9:._-] (got "${rateLimitPrefix}")`);
  }

  const onOff = (name: string, fallback: boolean): boolean => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (/^(on|true|1|yes)$/i.test(raw)) return true;
    if (/^(off|false|0|no)$/i.test(raw)) return false;
    problems.push(`${name} must be on or off (got "${raw}")`);
    return fallback;
  };

  // The catalog names its purge channel with the deployment's RABBITMQ_NAMESPACE: follow it unless told otherwise
  // (an empty value is a namespace too).
  const catalogCachePrefix = env.CATALOG_CACHE_PREFIX ?? env.RABBITMQ_NAMESPACE ?? '';
  if (!/^[A-Za-z0-9:._-]{0,100}$/.test(catalogCachePrefix))
    problems.push(`CATALOG_CACHE_PREFIX must be 0-100 characters of [A-Za-z0-9:._-] (got "${catalogCachePrefix}")`);

  const port = int('PORT', DEFAULT_PORTS.gateway, 0, 65535);
  const host = read('HOST') ?? '0.0.0.0';
  const metricsPort = /^off$/i.test(read('METRICS_PORT') ?? 'off') ? undefined : int('METRICS_PORT', 0, 0, 65535);
  if (metricsPort !== undefined && metricsPort !== 0 && metricsPort === port) {
    problems.push(`METRICS_PORT must differ from PORT (${port}): metrics are never served on the public port`);
  }

  const config: GatewayConfig = {
    port,
    host,
    nodeEnv: read('NODE_ENV') ?? 'development',
    redisUrl: url('REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:']),
    upstreams,
    webDist: path.resolve(read('WEB_DIST') ?? path.join(__dirname, '..', '..', 'web', 'dist')),
    corsOrigins,
    bodyLimitBytes: size('BODY_LIMIT', '1mb'),
    uploadBodyLimitBytes: size('UPLOAD_BODY_LIMIT', '6mb'),
    proxyTimeoutMs: int('PROXY_TIMEOUT_MS', 10_000, 1, 600_000),
    rateLimitLoginPerMin: int('RATE_LIMIT_LOGIN_PER_MIN', 300, 1, 1_000_000),
    rateLimitRegisterPerMin: int('RATE_LIMIT_REGISTER_PER_MIN', 1200, 1, 1_000_000),
    rateLimitPrefix,
    readyCheckUpstreams: bool('READY_CHECK_UPSTREAMS', true),
    trustProxy: parseTrustProxy(read('TRUST_PROXY'), problems),
    logLevel,
    catalogCache: {
      enabled: onOff('CATALOG_CACHE', true),
      maxEntries: int('CATALOG_CACHE_MAX_ENTRIES', 20_000, 1, 1_000_000),
      maxBytes: size('CATALOG_CACHE_MAX_BYTES', '64mb'),
      prefix: catalogCachePrefix,
      versionPollMs: int('CATALOG_VERSION_POLL_MS', 1000, 10, 3_600_000),
    },
    metricsPort,
    metricsHost: read('METRICS_HOST') ?? host,
  };

  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/**
 * TRUST_PROXY: false (default), true, a hop count, or Express's list form
 * ("loopback", "10.0.0.0/8, 127.0.0.1").
 */
function parseTrustProxy(raw: string | undefined, problems: string[]): boolean | number | string {
  if (raw === undefined || /^(false|0|no)$/i.test(raw)) return false;
  if (/^(true|yes)$/i.test(raw)) return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const known = /^(loopback|linklocal|uniquelocal)$/;
  const ipLike = /^[0-9a-fA-F:.]+(\/\d{1,3})?$/;
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.every((p) => known.test(p) || ipLike.test(p))) {
    try {
      express().set('trust proxy', parts.join(', ')); // Express itself rejects bad addresses here
      return parts.join(', ');
    } catch {
      // reported below
    }
  }
  problems.push(`TRUST_PROXY must be true, false, a hop count or a list of addresses/subnets (got "${raw}")`);
  return false;
}
