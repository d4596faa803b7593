import 'reflect-metadata';
import mongoose from 'mongoose';
import { Order, OrderSchema } from '../orders/order.schema';
import { rebuildSalesDays } from '../stats/sales-day.schema';
import { removeSyntheticOrders, seedSyntheticOrders } from './synthetic-orders';

/**
 * `MONGO_URI=… node dist/seed/synthetic-orders.main.js --count=100000` inserts that many synthetic orders into the
 * orders database (synthetic-orders.ts), for scripts/bench/admin-orders.mjs; `--remove` takes them out again. The
 * service's own program writing its own database: a benchmark never writes another service's data itself.
 */
async function main() {
  const uri = process.env.MONGO_URI;
  if (!uri) throw new Error('MONGO_URI is required (the orders database, e.g. mongodb://127.0.0.1:27017/shop_orders)');
  const count = /^--count=(\d+)$/.exec(process.argv[2] ?? '');
  const remove = process.argv[2] === '--remove';
  if (!count && !remove) throw new Error('usage: synthetic-orders.main.js --count=<n> | --remove');
  const connection = await mongoose.createConnection(uri, { serverSelectionTimeoutMS: 5000 }).asPromise();
  try {
    const orders = connection.model(Order.name, OrderSchema);
    if (remove) {
      const removed = await removeSyntheticOrders(orders);
      if (removed) await rebuildSalesDays(connection);
      console.log(`orders: removed ${removed} synthetic orders`);
      return;
    }
    const started = Date.now();
    const { inserted } = await seedSyntheticOrders(orders, Number(count![1]));
    // Orders dated up to a year back, last changed then: the dashboard's days are built again to count them.
    if (inserted) await rebuildSalesDays(connection);
    console.log(`orders: seeded ${inserted} synthetic orders (${count![1]} wanted) in ${Date.now() - started} ms`);
  } finally {
    await connection.close();
  }
}

main().catch((err: Error) => {
  console.error(`orders synthetic seed failed: ${err.message}`);
  process.exit(1);
});
