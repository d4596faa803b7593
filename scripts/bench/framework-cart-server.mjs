// The server end of the framework two-hop (scripts/bench/cart.mjs; framework-proxy.mjs in front of it): a NestJS
// application on the Fastify adapter the services run on (nest-common's bootstrap) with one controller that does
// what bare-cart-server.mjs does — a GET: one Redis GET; any other method: one GET and one SET … EX — and returns
// the same cart JSON. No hook, guard, pipe, body validation or logging: the least a NestJS service answering a cart
// costs. Its own process.
//   node scripts/bench/framework-cart-server.mjs <cart-json-file> <port>   (prints "listening <port>" when ready)
//   REDIS_URL   default redis://127.0.0.1:6379
//   BARE_KEYS   how many distinct keys to rotate over, default 1000
import 'reflect-metadata';
import { Controller, Get, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Redis } from 'ioredis';
import fs from 'node:fs';

const [file, portArg] = process.argv.slice(2);
const cart = JSON.parse(fs.readFileSync(file, 'utf8'));
const text = JSON.stringify(cart);
const KEYS = Number(process.env.BARE_KEYS || 1000);
const prefix = `bench:framework-cart:${process.pid}:`;
const TTL = 30 * 24 * 3600;
const redis = new Redis(process.env.REDIS_URL || 'redis://127.0.0.1:6379');
let n = 0;

class CartController {
  async read() {
    await redis.get(prefix + (n++ % KEYS));
    return cart;
  }
  async add() {
    const key = prefix + (n++ % KEYS);
    await redis.get(key);
    await redis.set(key, text, 'EX', TTL);
    return cart;
  }
}
// Decorators applied by hand: this is plain JavaScript, run as it is.
const method = (name) => Object.getOwnPropertyDescriptor(CartController.prototype, name);
Get()(CartController.prototype, 'read', method('read'));
Post()(CartController.prototype, 'add', method('add'));
HttpCode(200)(CartController.prototype, 'add', method('add')); // as the bare server answers
Controller('api/cart')(CartController);
class AppModule {}
Module({ controllers: [CartController] })(AppModule);

const filling = redis.pipeline();
for (let i = 0; i < KEYS; i++) filling.set(prefix + i, text, 'EX', TTL);
await filling.exec();
const app = await NestFactory.create(AppModule, new FastifyAdapter({ keepAliveTimeout: 65_000 }), { logger: false });
await app.listen(Number(portArg || 0), '127.0.0.1');
process.stdout.write(`listening ${app.getHttpServer().address().port}\n`);

async function stop() {
  await app.close();
  const keys = Array.from({ length: KEYS }, (_, i) => prefix + i);
  for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500)).catch(() => {});
  redis.disconnect();
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
