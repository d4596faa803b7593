import * as path from 'node:path';
import proxyAddr from 'proxy-addr';
import { DEFAULT_PORTS, SERVICES, type ServiceName } from '@shop/contracts';

/** Everything the gateway reads from its environment, validated once at boot (loadConfig). */
export type GatewayConfig = ReturnType<typeof loadConfig>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid gateway configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const SIZE_UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** Parses "1mb", "512kb", "1048576" into bytes; undefined when malformed. */
export function parseSize(value: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(value.trim());
  const bytes = match ? Math.floor(Number(match[1]) * SIZE_UNITS[(match[2] ?? 'b').toLowerCase()]) : 0;
  return bytes > 0 ? bytes : undefined;
}

/** What a variable must be, and how its text is read: `parse` throws when the text is not such a value. */
type Kind<T> = readonly [must: string, parse: (raw: string) => T];

const invalid = (): never => {
  throw new Error('invalid');
};
const int = (min: number, max: number): Kind<number> => [
  `be an integer from ${min} to ${max}`,
  (raw) => (/^\d+$/.test(raw) && Number(raw) >= min && Number(raw) <= max ? Number(raw) : invalid()),
];
const size: Kind<number> = ['be a size like 1mb, 512kb or a number of bytes', (raw) => parseSize(raw) ?? invalid()];
const flag: Kind<boolean> = [
  'be on or off', // or true or false, yes or no, 1 or 0
  (raw) => /^(on|true|1|yes)$/i.test(raw) || (/^(off|false|0|no)$/i.test(raw) ? false : invalid()),
];
const url = (...protocols: string[]): Kind<string> => [
  `be a ${protocols.join(' or ')}// URL`,
  (raw) => (protocols.includes(new URL(raw).protocol) ? raw.replace(/\/+$/, '') : invalid()),
];
/** One URL, or a service's replicas as a comma list (each taken in turn: replicas.ts). */
const urlList = (...protocols: string[]): Kind<string[]> => [
  `be a ${protocols.join(' or ')}// URL, or a comma list of them`,
  (raw) => {
    const list = raw
      .split(',')
      .map((one) => one.trim())
      .filter(Boolean)
      .map((one) => url(...protocols)[1](one));
    return list.length > 0 && new Set(list).size === list.length ? list : invalid();
  },
];
const keyPrefix = (min: number): Kind<string> => [
  `be ${min}-100 characters of [A-Za-z0-9:._-]`,
  (raw) => (new RegExp(`^[A-Za-z0-9:._-]{${min},100}$`).test(raw) ? raw : invalid()),
];
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const logLevel: Kind<string> = [
  `be one of ${LOG_LEVELS.join(', ')}`,
  (raw) => (LOG_LEVELS.includes(raw.toLowerCase()) ? raw.toLowerCase() : invalid()),
];
const origins: Kind<string[]> = [
  'be a comma list of origins like https://shop.example.com',
  (raw) =>
    raw
      .split(',')
      .map((origin) => origin.trim().replace(/\/+$/, ''))
      .filter(Boolean)
      .map((origin) => (new URL(origin).origin === origin ? origin : invalid())),
];
/** Express's `trust proxy`: false, true, a hop count, or its list form ("loopback, 10.0.0.0/8"). */
const trustProxy: Kind<boolean | number | string> = [
  'be true, false, a hop count or a list of addresses/subnets',
  (raw) => {
    if (/^(false|0|no)$/i.test(raw)) return false;
    if (/^(true|yes)$/i.test(raw)) return true;
    if (/^\d+$/.test(raw)) return Number(raw);
    proxyAddr.compile(raw.split(/\s*,\s*/)); // as Express compiles it: throws on anything else
    return raw.split(/\s*,\s*/).join(', ');
  },
];
const portOrOff: Kind<number | undefined> = [
  'be off or a port number',
  (raw) => (/^off$/i.test(raw) ? undefined : int(0, 65535)[1](raw)),
];

/** Reads and validates the gateway's configuration; throws one ConfigError listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const problems: string[] = [];
  const text = (name: string, fallback: string): string => env[name]?.trim() || fallback;
  const read = <T>(name: string, [must, parse]: Kind<T>, fallback: string, raw = text(name, fallback)): T => {
    try {
      return parse(raw);
    } catch {
      problems.push(`${name} must ${must} (got "${raw}")`);
      return undefined as T; // never used: the problems are thrown below
    }
  };

  const port = read('PORT', int(0, 65535), String(DEFAULT_PORTS.gateway));
  const host = text('HOST', '0.0.0.0');
  const metricsPort = read('METRICS_PORT', portOrOff, 'off');
  if (metricsPort && metricsPort === port)
    problems.push(`METRICS_PORT must differ from PORT (${port}): metrics are never served on the public port`);
  /** Each service's replicas (one URL, or several: `CATALOG_URL=http://a:3001,http://b:3001`). */
  const upstreams = {} as Record<ServiceName, string[]>;
  for (const service of SERVICES) {
    const fallback = `http://127.0.0.1:${DEFAULT_PORTS[service]}`;
    upstreams[service] = read(`${service.toUpperCase()}_URL`, urlList('http:', 'https:'), fallback);
  }

  const config = {
    port,
    host,
    nodeEnv: text('NODE_ENV', 'development'),
    redisUrl: read('REDIS_URL', url('redis:', 'rediss:'), 'redis://127.0.0.1:6379'),
    upstreams,
    webDist: path.resolve(text('WEB_DIST', path.join(__dirname, '..', '..', 'web', 'dist'))),
    corsOrigins: read('CORS_ORIGINS', origins, ''),
    bodyLimitBytes: read('BODY_LIMIT', size, '1mb'),
    uploadBodyLimitBytes: read('UPLOAD_BODY_LIMIT', size, '6mb'),
    proxyTimeoutMs: read('PROXY_TIMEOUT_MS', int(1, 600_000), '10000'),
    rateLimitLoginPerMin: read('RATE_LIMIT_LOGIN_PER_MIN', int(1, 1_000_000), '300'),
    rateLimitRegisterPerMin: read('RATE_LIMIT_REGISTER_PER_MIN', int(1, 1_000_000), '1200'),
    rateLimitPrefix: read('RATE_LIMIT_PREFIX', keyPrefix(1), 'gw:rl'),
    readyCheckUpstreams: read('READY_CHECK_UPSTREAMS', flag, 'true'),
    trustProxy: read('TRUST_PROXY', trustProxy, 'false'),
    logLevel: read('LOG_LEVEL', logLevel, 'info'),
    /** The HTTP cache in front of the routes marked `cached` in routes.ts (http-cache/). */
    catalogCache: {
      enabled: read('CATALOG_CACHE', flag, 'on'),
      maxEntries: read('CATALOG_CACHE_MAX_ENTRIES', int(1, 1_000_000), '20000'),
      maxBytes: read('CATALOG_CACHE_MAX_BYTES', size, '64mb'),
      /**
       * Key prefix of the catalog's purge channel and its sequence number: the deployment's RABBITMQ_NAMESPACE unless
       * told otherwise, as the catalog names it (an empty value is a namespace too).
       */
      prefix: read('CATALOG_CACHE_PREFIX', keyPrefix(0), '', env.CATALOG_CACHE_PREFIX ?? env.RABBITMQ_NAMESPACE ?? ''),
      /** How often the sequence number is read besides the channel (covers lost messages). */
      versionPollMs: read('CATALOG_VERSION_POLL_MS', int(10, 3_600_000), '1000'),
    },
    /** GET /metrics on a listener of its own, never on the public port; undefined (unset or "off"): none. */
    metricsPort,
    metricsHost: text('METRICS_HOST', host),
  };

  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
