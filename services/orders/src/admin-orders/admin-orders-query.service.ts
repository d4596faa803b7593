import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { ORDER_MESSAGES, type OrderJson } from '@shop/contracts';
import type { Model } from 'mongoose';
import { Readable } from 'node:stream';
import { toOrderJson } from '../orders/order.mapper';
import { Order, ORDER_PROJECTION, type LeanOrder } from '../orders/order.schema';
import { toMongoFilter, toMongoSort, type AdminOrderFilter, type AdminOrderQuery } from './admin-order-query';
import { CSV_HEADER, CSV_PROJECTION, orderRows, type CsvOrder } from './orders-csv';

/** Orders read from the database per round trip while exporting. */
const EXPORT_BATCH_SIZE = 500;
/** The export goes out in pieces of about this many characters, not one write per row. */
const EXPORT_CHUNK_CHARS = 64 * 1024;

export interface OrderPage {
  orders: OrderJson[];
  /** Every order the filter selects, all pages together (the X-Total-Count header). */
  total: number;
}

/** The header row, then the rows of each order, in pieces of about EXPORT_CHUNK_CHARS; closes the cursor. */
async function* csvChunks(
  first: CsvOrder | null,
  rest: AsyncIterable<CsvOrder> & { close(): Promise<unknown> },
): AsyncGenerator<string> {
  try {
    let chunk = CSV_HEADER + (first ? orderRows(first) : '');
    if (first) {
      for await (const order of rest) {
        chunk += orderRows(order);
        if (chunk.length >= EXPORT_CHUNK_CHARS) {
          yield chunk;
          chunk = '';
        }
      }
    }
    if (chunk) yield chunk;
  } finally {
    await rest.close().catch(() => undefined);
  }
}

/**
 * The admin's reads of orders at a real shop's size: a page of a filtered, sorted list and its total, one order,
 * and the CSV of every order a filter selects, streamed from a cursor. Every query is an equality or a range on a
 * field the order schema indexes (order.schema.ts), never a regex scan.
 */
@Injectable()
export class AdminOrdersQueryService {
  constructor(@InjectModel(Order.name) private readonly orders: Model<Order>) {}

  async page(query: AdminOrderQuery): Promise<OrderPage> {
    const filter = toMongoFilter(query.filter);
    const [docs, total] = await Promise.all([
      this.orders
        .find(filter, ORDER_PROJECTION)
        .sort(toMongoSort(query.sort))
        .skip((query.page - 1) * query.limit)
        .limit(query.limit)
        .lean<LeanOrder[]>()
        .exec(),
      this.orders.countDocuments(filter).exec(),
    ]);
    return { orders: docs.map(toOrderJson), total };
  }

  async findOne(id: string): Promise<OrderJson> {
    const order = await this.orders.findById(id, ORDER_PROJECTION).lean<LeanOrder>().exec();
    if (!order) throw new NotFoundException(ORDER_MESSAGES.notFound);
    return toOrderJson(order);
  }

  /**
   * The CSV of the orders `filter` selects: one row per line, read a batch at a time, so that memory stays flat
   * however many orders match. Rows come in the database's natural order (on both servers in practice the order the
   * orders were placed): a sort would make the dev server read every match before the first row. The first batch
   * is read before this resolves, so a database that is away fails the request with a 503 rather than an empty file.
   */
  async exportCsv(filter: AdminOrderFilter): Promise<Readable> {
    const cursor = this.orders
      .find(toMongoFilter(filter), CSV_PROJECTION)
      .lean<CsvOrder>()
      .cursor({ batchSize: EXPORT_BATCH_SIZE });
    let first: CsvOrder | null;
    try {
      first = await cursor.next();
    } catch (err) {
      await cursor.close().catch(() => undefined);
      throw err;
    }
    return Readable.from(csvChunks(first, cursor), { objectMode: false });
  }
}
