// Latency at a given rate, as shoppers load a shop: requests arrive at random times (a Poisson process: the gaps
// between them are exponential, drawn from the caller's seeded `random`), and each is sent at its arrival whether
// or not the ones before were answered (an open loop). Its latency runs from its arrival, so time a request waited
// for a free socket counts, and a slow answer never holds back the requests behind it.
//
// autocannon's `overallRate` is not this: each connection sends its share of a second's requests back to back at
// the start of that second (autocannon issue #174), so "200 a second" over 8 connections is a burst of 200 at the
// service's full speed every second, and its latency is a burst's queue.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The value at percentile `p` (0–100) of sorted numbers: the smallest one at least p % of them do not exceed. */
function percentile(sorted, p) {
  return sorted.length ? sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] : 0;
}

/**
 * GETs of `paths` (from index `from` on, wrapping) on `base` for `duration` seconds at `rate` a second on average.
 * Resolves with the latencies' p50, p99 and max in whole milliseconds (as autocannon reports them), the requests
 * answered, errors (no answer in 10 s, or a failed connection), non-2xx answers, and the next path's index.
 */
export async function openLoop(base, paths, { rate, duration, random, from = 0 }) {
  const { hostname, port } = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const latencies = [];
  let errors = 0;
  let non2xx = 0;
  let next = from;
  const inFlight = new Set();
  const send = (arrival) => {
    const path = paths[next++ % paths.length];
    const done = new Promise((resolve) => {
      const req = http.get({ agent, hostname, port, path, timeout: 10_000 }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - arrival);
          if (res.statusCode < 200 || res.statusCode > 299) non2xx++;
          resolve();
        });
        res.on('error', () => {
          errors++;
          resolve();
        });
      });
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', () => {
        errors++;
        resolve();
      });
    });
    inFlight.add(done);
    done.then(() => inFlight.delete(done));
  };
  const start = performance.now();
  const end = start + duration * 1000;
  let arrival = start;
  for (;;) {
    arrival += (-Math.log(1 - random()) / rate) * 1000;
    if (arrival >= end) break;
    const wait = arrival - performance.now();
    if (wait > 0) await sleep(wait);
    send(arrival);
  }
  await Promise.all(inFlight);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    latency: {
      p50: Math.round(percentile(latencies, 50)),
      p99: Math.round(percentile(latencies, 99)),
      max: Math.round(latencies.at(-1) ?? 0),
    },
    requests: latencies.length,
    errors,
    non2xx,
    next,
  };
}
