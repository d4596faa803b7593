// The server end of the bare two-hop for scripts/bench/cart.mjs (bare-proxy.mjs in front of it): a bare Node
// http server that does, per request, the Redis work the cart cannot go below on one process, and answers a cart
// JSON the size of a real 3-line cart — a GET (a guest cart read): one Redis GET; any other method (an add): one
// GET and one SET … EX of that JSON, the read and the write of a cart write. No lock, no pricing, no body parsing,
// no framework. Its own process, like the services, so the load generator never shares its event loop.
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
    if (req.method !== 'GET') await redis.set(key, text, 'EX', TTL); // an add writes it back
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  } catch (err) {
    res.writeHead(500, { 'Content-Type': 'text/plain' });
    res.end(String(err?.message || err));
  }
});
server.keepAliveTimeout = 65_000;
// Every key holds the cart before the first request, so a read gets a cart of real size, as the cart's reads do.
redis.once('ready', async () => {
  const filling = redis.pipeline();
  for (let i = 0; i < KEYS; i++) filling.set(prefix + i, text, 'EX', TTL);
  await filling.exec();
  server.listen(Number(portArg || 0), '127.0.0.1', () => {
    process.stdout.write(`listening ${server.address().port}\n`);
  });
});

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
