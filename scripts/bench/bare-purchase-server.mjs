// The bare purchase server of scripts/bench/checkout.mjs: the fewest database writes a purchase needs, indexed, on
// plain Node http and the MongoDB driver (no framework, no gateway, no events), in a fresh database on the same
// MongoDB-wire server as the shop, so the shop's figures have their limit beside them. Same routes, bodies and
// answers (the fields the bench reads) as the shop's, so the bench drives both with one buyer loop:
//   POST /api/cart {productId, quantity, size, color}      one findOneAndUpdate upserting the line into the buyer's
//                                                          cart (one document per buyer), answering the cart
//   POST /api/checkout {checkoutItems, shippingAddress, …} one insert (the lines priced from the product list)
//   PUT  /api/checkout/:id/pay {paymentStatus, paymentDetails: {id}}
//                                                          one conditional update: paid where unpaid (and the
//                                                          buyer's); 409 when there is no such unpaid checkout
//   POST /api/checkout/:id/finalize                        the paid checkout read, the order inserted (unique index
//                                                          on checkoutId: a second finalize answers the same order),
//                                                          the cart deleted — 3 commands
//   GET  /api/orders/my-orders                             the buyer's orders (for the bench's count)
// Six commands per purchase. What it leaves out, and the shop must do: verify the token (the bearer token itself is
// the buyer's id) and the payment, reserve and commit stock, price from the catalogue (prices come from the product
// list the bench gives it), events, outbox, sweeps. Its own process, like the services.
//   node scripts/bench/bare-purchase-server.mjs <products-json-file> <port>   (prints "listening <port>" when ready)
//   <products-json-file>: [{_id, name, price}] of the products the bench sells
//   BENCH_MONGO_URL  default mongodb://127.0.0.1:27017; database BENCH_BARE_DB, default bench_bare_purchase
//                    (dropped at start)
import fs from 'node:fs';
import http from 'node:http';
import { MongoClient, ObjectId } from 'mongodb';

const [file, portArg] = process.argv.slice(2);
const products = new Map(JSON.parse(fs.readFileSync(file, 'utf8')).map((p) => [String(p._id), p]));
const client = new MongoClient(process.env.BENCH_MONGO_URL || 'mongodb://127.0.0.1:27017', {
  serverSelectionTimeoutMS: 5000,
  maxPoolSize: 100,
});
const db = client.db(process.env.BENCH_BARE_DB || 'bench_bare_purchase');
const carts = db.collection('carts');
const checkouts = db.collection('checkouts');
const orders = db.collection('orders');

await client.connect();
await db.dropDatabase();
await orders.createIndex({ checkoutId: 1 }, { unique: true });
await orders.createIndex({ user: 1, createdAt: -1 }); // a buyer's orders, newest first
await checkouts.createIndex({ user: 1, createdAt: -1 });

class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

const pence = (pounds) => Math.round(pounds * 100);
const lineKey = (l) => `${l.productId}|${l.size}|${l.color}`.replace(/[.$]/g, '_');
const cartAnswer = (cart) => {
  const lines = Object.values(cart?.lines ?? {});
  return { products: lines, totalPrice: lines.reduce((p, l) => p + pence(l.price) * l.quantity, 0) / 100 };
};

function product(id) {
  const p = products.get(String(id));
  if (!p) throw new HttpError(404, 'Product not found');
  return p;
}

async function add(user, body) {
  const { productId, size, color } = body;
  const quantity = Number(body.quantity);
  if (!Number.isInteger(quantity) || quantity < 1) throw new HttpError(400, 'quantity must be a positive integer');
  const p = product(productId);
  const at = `lines.${lineKey({ productId, size, color })}`;
  const cart = await carts.findOneAndUpdate(
    { _id: user },
    {
      $inc: { [`${at}.quantity`]: quantity },
      $set: {
        [`${at}.productId`]: p._id,
        [`${at}.name`]: p.name,
        [`${at}.price`]: p.price,
        [`${at}.size`]: size,
        [`${at}.color`]: color,
        updatedAt: new Date(),
      },
    },
    { upsert: true, returnDocument: 'after' },
  );
  return [200, cartAnswer(cart)];
}

async function createCheckout(user, body) {
  if (!Array.isArray(body.checkoutItems) || body.checkoutItems.length === 0)
    throw new HttpError(400, 'checkoutItems must not be empty');
  const checkoutItems = body.checkoutItems.map((l) => {
    const p = product(l.productId);
    return { productId: p._id, name: p.name, price: p.price, quantity: l.quantity, size: l.size, color: l.color };
  });
  const doc = {
    _id: new ObjectId(),
    user,
    checkoutItems,
    shippingAddress: body.shippingAddress,
    paymentMethod: body.paymentMethod,
    totalPrice: checkoutItems.reduce((t, l) => t + pence(l.price) * l.quantity, 0) / 100,
    isPaid: false,
    createdAt: new Date(),
  };
  await checkouts.insertOne(doc);
  return [201, doc];
}

function checkoutId(id) {
  if (!ObjectId.isValid(id)) throw new HttpError(400, 'Invalid checkout id');
  return new ObjectId(id);
}

async function pay(user, id, body) {
  if (body.paymentStatus !== 'paid' || typeof body.paymentDetails?.id !== 'string')
    throw new HttpError(400, 'paymentStatus must be paid, with paymentDetails.id');
  const _id = checkoutId(id);
  const paidAt = new Date();
  const { matchedCount } = await checkouts.updateOne(
    { _id, user, isPaid: false },
    { $set: { isPaid: true, paidAt, paymentDetails: body.paymentDetails } },
  );
  if (matchedCount !== 1) throw new HttpError(409, 'No unpaid checkout of yours with this id');
  return [200, { _id, isPaid: true, paidAt }];
}

async function finalize(user, id) {
  const checkout = await checkouts.findOne({ _id: checkoutId(id), user, isPaid: true });
  if (!checkout) throw new HttpError(409, 'No paid checkout of yours with this id');
  const order = {
    _id: new ObjectId(),
    user,
    checkoutId: checkout._id,
    orderItems: checkout.checkoutItems,
    shippingAddress: checkout.shippingAddress,
    totalPrice: checkout.totalPrice,
    isPaid: true,
    paidAt: checkout.paidAt,
    createdAt: new Date(),
  };
  try {
    await orders.insertOne(order);
  } catch (err) {
    if (err?.code !== 11000 && !/E11000|UNIQUE constraint/.test(String(err?.message))) throw err;
    return [201, await orders.findOne({ checkoutId: checkout._id })]; // finalized before: the same order
  }
  await carts.deleteOne({ _id: user });
  return [201, order];
}

async function route(req, user, body) {
  const path = req.url.split('?')[0];
  if (req.method === 'POST' && path === '/api/cart') return add(user, body);
  if (req.method === 'POST' && path === '/api/checkout') return createCheckout(user, body);
  if (req.method === 'GET' && path === '/api/orders/my-orders')
    return [200, await orders.find({ user }).sort({ createdAt: -1 }).toArray()];
  let m = /^\/api\/checkout\/([^/]+)\/pay$/.exec(path);
  if (req.method === 'PUT' && m) return pay(user, m[1], body);
  m = /^\/api\/checkout\/([^/]+)\/finalize$/.exec(path);
  if (req.method === 'POST' && m) return finalize(user, m[1]);
  throw new HttpError(404, `No route ${req.method} ${path}`);
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    let status;
    let answer;
    try {
      const user = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!user) throw new HttpError(401, 'Not authorized, no token');
      let body = {};
      if (chunks.length) {
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          throw new HttpError(400, 'Malformed JSON body');
        }
      }
      [status, answer] = await route(req, user, body ?? {});
    } catch (err) {
      status = err instanceof HttpError ? err.status : 503;
      answer = { message: err instanceof HttpError ? err.message : `database: ${err?.message ?? err}` };
    }
    const text = JSON.stringify(answer);
    res.writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(text),
    });
    res.end(text);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(portArg || 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});

async function stop() {
  server.close();
  await client.close().catch(() => {});
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
