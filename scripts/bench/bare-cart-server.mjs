// The yardstick for scripts/bench/cart.mjs: a bare Node http server that, per request, does the Redis work the
// cart cannot go below on one process — one GET and one SET (with EX) of a cart JSON string the size of a real
// 3-line cart — and answers that JSON. No lock, no pricing, no framework. Runs as its own process, like the
// services, so the load generator never shares its event loop.
//   node scripts/bench/bare-cart-server.mjs <cart-json-file> <port>   (prints "listening <port>" when ready)
//   REDIS_URL   default redis://127.0.0.1:6379
//   BARE_KEYS   how many distinct keys to rotate over, default 1000 (like many guest carts)
import fs from 'node:fs';
import http from 'node:http';
import { Redis } from 'ioredis';

const [file, portArg] = process.argv.slice(2);
const body = fs.readFileSync(file);
const text = body.toString('utf8');
const KEYS = Number(process.env.BARE_KEYS || 1000);
const prefix = `bench:bare-cart:${process.pid}:`;
const TTL = 30 * 24 * 3600;
const redis = new Redis(process.env.REDIS_URL || 'redis://127.0.0.1:6379', { lazyConnect: false });

let n = 0;
const server = http.createServer(async (req, res) => {
  const key = prefix + (n++ % KEYS);
  try {
    await redis.get(key); // read the cart (its value is not needed: the answer is the fixed JSON)
    await redis.set(key, text, 'EX', TTL);
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  } catch (err) {
    res.writeHead(500, { 'Content-Type': 'text/plain' });
    res.end(String(err?.message || err));
  }
});
server.keepAliveTimeout = 65_000;
redis.once('ready', () =>
  server.listen(Number(portArg || 0), '127.0.0.1', () => {
    process.stdout.write(`listening ${server.address().port}\n`);
  }),
);

async function stop() {
  server.close();
  // remove the keys this run wrote
  const keys = Array.from({ length: KEYS }, (_, i) => prefix + i);
  for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500)).catch(() => {});
  redis.disconnect();
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
