import { MongoClient } from 'mongodb';
const c = await new MongoClient('mongodb://127.0.0.1:27032').connect();
const o = c.db('shop_orders').collection('orders');
let t = performance.now();
await o.createIndexes([{ key: { createdAt: -1 } }]).catch((e) => console.log(e.message));
console.log('createIndexes one:', Math.round(performance.now() - t), 'ms');
await c.close();
