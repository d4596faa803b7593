import { applyDecorators, Controller, Get, Param, Query, Res, StreamableFile } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  ADMIN_LIST_DEFAULT_LIMIT,
  ADMIN_LIST_MAX_LIMIT,
  ADMIN_LIST_MAX_PAGE,
  ADMIN_LIST_MAX_QUERY,
  ADMIN_ORDER_DEFAULT_SORT,
  ADMIN_ORDER_SORT_FIELDS,
  ORDER_STATUSES,
  TOTAL_COUNT_HEADER,
  type OrderJson,
} from '@shop/contracts';
import { ApiErrors, ApiObjectIdParam, Auth, OrderBody } from '@shop/nest-common';
import type { FastifyReply } from 'fastify';
import { orderId } from '../orders/orders.controller';
import { OrdersService } from '../orders/orders.service';
import { parseAdminOrderQuery } from './admin-order-query';
import { AdminOrdersQueryService } from './admin-orders-query.service';

/** The filters the list and the export share (docs/api.md#admin-lists). */
const ApiOrderFilters = () =>
  applyDecorators(
    ApiQuery({
      name: 'q',
      required: false,
      schema: { type: 'string', maxLength: ADMIN_LIST_MAX_QUERY },
      description: "An order id; a whole email (any case); or the beginning of the buyer's name or email (any case)",
    }),
    ApiQuery({ name: 'status', required: false, schema: { type: 'string', enum: [...ORDER_STATUSES] } }),
    ApiQuery({ name: 'paid', required: false, schema: { type: 'string', enum: ['true', 'false'] } }),
    ApiQuery({
      name: 'from',
      required: false,
      schema: { type: 'string' },
      description: 'Placed on or after: YYYY-MM-DD (from 00:00 UTC) or an ISO 8601 time',
    }),
    ApiQuery({
      name: 'to',
      required: false,
      schema: { type: 'string' },
      description: 'Placed on or before: YYYY-MM-DD (the whole day, UTC) or an ISO 8601 time',
    }),
  );

const sorts = ADMIN_ORDER_SORT_FIELDS.flatMap((field) => [field, `-${field}`]);

/** Attachment name of an export made now: orders-2025-03-01.csv */
const exportName = () => `orders-${new Date().toISOString().slice(0, 10)}.csv`;

/**
 * The admin's reads of orders (issue 25): the list — today's stream of every order, or a page of a search, filters
 * and a sort with its total in X-Total-Count — one order with its whole history, and the CSV export. Route order
 * matters: `export.csv` comes before `:id`.
 */
@ApiTags('admin')
@Controller('api/admin/orders')
@Auth('admin')
export class AdminOrderQueriesController {
  constructor(
    private readonly orders: OrdersService,
    private readonly queries: AdminOrdersQueryService,
  ) {}

  @Get()
  @ApiOperation({
    summary:
      'Orders. Without any of the query parameters: every order, newest first, streamed (the buyer’s name kept after the account is deleted). With any: one page of the search, filters and sort, its total in X-Total-Count',
  })
  @ApiQuery({
    name: 'page',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: ADMIN_LIST_MAX_PAGE },
    description: '1-based; 1 when other parameters are given without it',
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: ADMIN_LIST_MAX_LIMIT, default: ADMIN_LIST_DEFAULT_LIMIT },
  })
  @ApiOrderFilters()
  @ApiQuery({
    name: 'sort',
    required: false,
    schema: { type: 'string', enum: sorts, default: ADMIN_ORDER_DEFAULT_SORT },
    description: 'A field, ascending; with a leading - descending. Ties keep the order of the ids',
  })
  @ApiHeader({ name: TOTAL_COUNT_HEADER, required: false, description: 'Paged answers: the total of every page' })
  @ApiOkResponse({ type: [OrderBody] })
  @ApiErrors({ 400: 'A bad page, limit, q, status, paid, date or sort (the message says which)' })
  async list(
    @Query() raw: Record<string, unknown>,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<StreamableFile | OrderJson[]> {
    const query = parseAdminOrderQuery(raw);
    if (!query.paged)
      return new StreamableFile(await this.orders.streamAll(), { type: 'application/json; charset=utf-8' });
    const { orders, total } = await this.queries.page(query);
    res.header(TOTAL_COUNT_HEADER, String(total));
    return orders;
  }

  @Get(['export.csv', 'export'])
  @ApiOperation({
    summary:
      'The orders the filters select as CSV (UTF-8, a header row, one row per line item, amounts with two decimals), streamed',
  })
  @ApiOrderFilters()
  @ApiOkResponse({
    description: 'text/csv; charset=utf-8, as an attachment',
    content: { 'text/csv': { schema: { type: 'string' } } },
  })
  @ApiErrors({ 400: 'A bad q, status, paid or date (the message says which)' })
  async exportCsv(@Query() raw: Record<string, unknown>): Promise<StreamableFile> {
    const { filter } = parseAdminOrderQuery(raw);
    const csv = await this.queries.exportCsv(filter);
    // Once rows have gone out, a failure cuts the connection (StreamableFile's own handling): never a shorter file
    // that looks complete.
    return new StreamableFile(csv, {
      type: 'text/csv; charset=utf-8',
      disposition: `attachment; filename="${exportName()}"`,
    });
  }

  @Get(':id')
  @ApiOperation({
    summary:
      'One order, any buyer’s, with its whole history (status changes, payment, refunds; who and when) — for the admin’s order page',
  })
  @ApiObjectIdParam('order')
  @ApiOkResponse({ type: OrderBody })
  @ApiErrors({ 400: 'Invalid order id', 404: 'Order not found' })
  findOne(@Param('id', orderId) id: string): Promise<OrderJson> {
    return this.queries.findOne(id);
  }
}
