// The database work of the shop's services, read from their GET /metrics: shop_mongo_commands_total{collection, op}
// (nest-common's MongoCommandMetrics, the driver's command monitoring), summed by service, collection and command.
// checkout.mjs reads it before and after what it measures; the difference is the work, whatever the load.
import fs from 'node:fs';
import { defaultPorts } from '../../lib/stack.mjs';
import { stackProcesses } from './rss.mjs';
import { sleep } from './shop.mjs';

const SAMPLE = /^shop_mongo_commands_total\{([^}]*)\}\s+(\S+)/;
const LOCK_SAMPLE = /^shop_redis_lock_acquisitions_total\{([^}]*)\}\s+(\S+)/;
/** The "collection" of a Redis lock's count among the commands (its "op" is the lock's name): see isLock. */
export const REDIS_LOCK = '(redis lock)';
export const isLock = (key) => key.split('\t')[1] === REDIS_LOCK;
const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;

/** The PORT a running process was started with (its environment in /proc), or undefined. */
function portOf(pid) {
  try {
    const env = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    const port = env.find((e) => e.startsWith('PORT='))?.slice(5);
    return port ? Number(port) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * service → its /metrics URL: BENCH_METRICS_URLS (JSON {service: url}) when set; else, for each service of
 * DEFAULT_PORTS, the port its process of stack `scope` (npm start's pid files, .data/run/<scope>-<service>.pid) was
 * started on, or the default port; on the gateway's host.
 */
export function serviceMetricsUrls({ gateway, scope }) {
  if (process.env.BENCH_METRICS_URLS) {
    const { gateway: _gateway, ...urls } = JSON.parse(process.env.BENCH_METRICS_URLS); // the gateway has no database
    return urls;
  }
  const host = new URL(gateway).hostname;
  const running = stackProcesses(scope);
  const urls = {};
  for (const [service, port] of Object.entries(defaultPorts())) {
    if (service === 'gateway') continue;
    const pid = running.get(service);
    urls[service] = `http://${host}:${(pid && portOf(pid)) || port}/metrics`;
  }
  return urls;
}

/**
 * Every service's command counts now: Map "service\tcollection\top" → count, with the Redis locks it took
 * (shop_redis_lock_acquisitions_total) as "service\t(redis lock)\t<lock>" (isLock tells them apart). A service that does not answer is
 * left out and named in `unreachable`.
 */
export async function readCommands(urls) {
  const counts = new Map();
  const unreachable = [];
  await Promise.all(
    Object.entries(urls).map(async ([service, url]) => {
      let text;
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
        text = await res.text();
        if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
      } catch {
        unreachable.push(service);
        return;
      }
      for (const line of text.split('\n')) {
        const command = SAMPLE.exec(line);
        const lock = command ? undefined : LOCK_SAMPLE.exec(line);
        const m = command ?? lock;
        if (!m) continue;
        const labels = Object.fromEntries([...m[1].matchAll(LABEL)].map(([, k, v]) => [k, v]));
        const key = command
          ? `${service}\t${labels.collection}\t${labels.op}`
          : `${service}\t${REDIS_LOCK}\t${labels.lock}`;
        counts.set(key, (counts.get(key) ?? 0) + Number(m[2]));
      }
    }),
  );
  return Object.assign(counts, { unreachable });
}

/** after − before, only the keys that moved. */
export function commandsBetween(before, after) {
  const moved = new Map();
  for (const [key, n] of after) {
    const d = n - (before.get(key) ?? 0);
    if (d > 0) moved.set(key, d);
  }
  return moved;
}

export const total = (counts) => [...counts.values()].reduce((a, b) => a + b, 0);

/**
 * Reads until the counts stop moving (two reads `quietMs` apart equal) or `maxMs` passed: the commands a request
 * starts after answering (events, outbox relays) are then in. Returns the last read.
 */
export async function settledCommands(urls, { quietMs = 250, maxMs = 4000 } = {}) {
  const deadline = Date.now() + maxMs;
  let last = await readCommands(urls);
  while (Date.now() < deadline) {
    await sleep(quietMs);
    const next = await readCommands(urls);
    if (total(next) === total(last)) return next;
    last = next;
  }
  return last;
}

/** The median of each key over `samples` (Maps), keys with a median of 0 left out. */
export function medianCounts(samples) {
  const keys = new Set(samples.flatMap((s) => [...s.keys()]));
  const medians = new Map();
  for (const key of keys) {
    const values = samples.map((s) => s.get(key) ?? 0).sort((a, b) => a - b);
    const mid = values.length >> 1;
    const median = values.length % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
    if (median > 0) medians.set(key, median);
  }
  return medians;
}

/** Sums counts by service: Map service → count. */
export function byService(counts) {
  const sums = new Map();
  for (const [key, n] of counts) {
    const service = key.split('\t')[0];
    sums.set(service, (sums.get(service) ?? 0) + n);
  }
  return sums;
}
