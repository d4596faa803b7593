import {
  BadRequestException,
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  ADMIN_LIST_LIMIT_DEFAULT,
  ADMIN_LIST_LIMIT_MAX,
  ADMIN_LIST_Q_MAX_LENGTH,
  CATEGORIES,
  isPagedRequest,
  parseAdminProductListQuery,
  PRODUCT_LIST_SORTS,
  TOTAL_COUNT_HEADER,
  type ProductJson,
} from '@shop/contracts';
import { ApiErrors, ApiObjectIdParam, Auth, MessageBody } from '@shop/nest-common';
import type { FastifyReply } from 'fastify';
import { AdminCatalogue } from './admin-catalogue';
import { CreateProductDto, UpdateProductDto } from './dto/product.dto';
import { CatalogConfig } from '../config/catalog.config';
import { LowStockBody, ProductBody } from './dto/product.response';
import { productId } from './products.controller';
import { ProductsService } from './products.service';

/** Admin product management: every product, published or not. */
@ApiTags('admin')
@Controller('api/admin/products')
@Auth('admin')
export class AdminProductsController {
  constructor(
    private readonly products: ProductsService,
    private readonly config: CatalogConfig,
    private readonly adminList: AdminCatalogue,
  ) {}

  /**
   * Without `page`: every product, newest first, as always. With it: one page of the products matching `q` and the
   * filters, in the order `sort` asks, and their number in all in the X-Total-Count header.
   */
  @Get()
  @ApiOperation({
    summary: 'All products, including unpublished; paged, searched, filtered and sorted when `page` is given',
  })
  @ApiQuery({
    name: 'page',
    required: false,
    schema: { type: 'integer', minimum: 1 },
    description: 'Pages the list (1-based); without it every product is answered and the other parameters are ignored',
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: ADMIN_LIST_LIMIT_MAX, default: ADMIN_LIST_LIMIT_DEFAULT },
  })
  @ApiQuery({
    name: 'q',
    required: false,
    schema: { type: 'string', maxLength: ADMIN_LIST_Q_MAX_LENGTH },
    description: 'Text in the name, the SKU (the product’s or a variant’s) or the brand, in any case',
  })
  @ApiQuery({ name: 'category', required: false, schema: { type: 'string', enum: [...CATEGORIES] } })
  @ApiQuery({ name: 'published', required: false, schema: { type: 'boolean' } })
  @ApiQuery({
    name: 'lowStock',
    required: false,
    schema: { type: 'string', example: 'true' },
    description:
      'Products with a variant at or below a threshold: `true` (LOW_STOCK_THRESHOLD) or a whole number of units',
  })
  @ApiQuery({
    name: 'sort',
    required: false,
    schema: { type: 'string', enum: PRODUCT_LIST_SORTS.flatMap((f) => [f, `-${f}`]), default: '-createdAt' },
    description: 'A field, with a leading - for descending; equal values are ordered by id',
  })
  @ApiOkResponse({
    type: [ProductBody],
    headers: {
      [TOTAL_COUNT_HEADER]: {
        description: 'With `page`: how many products match in all',
        schema: { type: 'integer', minimum: 0 },
      },
    },
  })
  @ApiErrors({ 400: 'A bad page, limit, q, sort or filter (the message says which)' })
  async list(
    @Query() raw: Record<string, unknown>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ProductJson[] | string> {
    if (!isPagedRequest(raw)) return this.products.listAll();
    const query = parseAdminProductListQuery(raw);
    if (!query.ok) throw new BadRequestException(query.message);
    const page = await this.adminList.page(query.value);
    // The page's JSON as the rows hold it: a string sent as is, not serialized again.
    void reply.header(TOTAL_COUNT_HEADER, String(page.total)).type('application/json');
    return page.body;
  }

  /** The dashboard's list of variants running out. Declared before `:id`, which would take the path otherwise. */
  @Get('low-stock')
  @ApiOperation({ summary: 'Variants at or below a stock threshold, lowest first (published or not)' })
  @ApiQuery({
    name: 'threshold',
    required: false,
    schema: { type: 'integer', minimum: 0, maximum: 1_000_000 },
    description: 'Default: the catalog’s LOW_STOCK_THRESHOLD (5)',
  })
  @ApiOkResponse({ type: LowStockBody })
  @ApiErrors({ 400: 'threshold must be a whole number from 0 to 1000000' })
  lowStock(@Query('threshold') threshold?: unknown) {
    return this.products.lowStock(this.thresholdOf(threshold));
  }

  private thresholdOf(raw: unknown): number {
    if (raw === undefined) return this.config.LOW_STOCK_THRESHOLD;
    const n = typeof raw === 'string' && /^\s*\d{1,7}\s*$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isInteger(n) || n > 1_000_000)
      throw new BadRequestException('threshold must be a whole number from 0 to 1000000');
    return n;
  }

  /** The edit page of an unpublished product (the public GET /api/products/:id shows published ones only). */
  @Get(':id')
  @ApiOperation({ summary: 'One product, published or not (the edit page)' })
  @ApiObjectIdParam('product')
  @ApiOkResponse({ type: ProductBody })
  @ApiErrors({ 400: 'Invalid product id', 404: 'Product not found' })
  findOne(@Param('id', productId) id: string) {
    return this.products.findAny(id);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a product (name, description, category and price required; a missing sku is made)' })
  @ApiCreatedResponse({ type: ProductBody })
  @ApiErrors({
    400: 'A field message; SKU already exists / SKU <variant sku> already exists; a bare countInStock for a product with several variants',
  })
  create(@Body() dto: CreateProductDto) {
    return this.products.create(dto);
  }

  @Put(':id')
  @ApiOperation({ summary: 'Update a product (any subset of the fields)' })
  @ApiObjectIdParam('product')
  @ApiOkResponse({ type: ProductBody })
  @ApiErrors({
    400: 'Invalid product id, a field message, a SKU that exists, or a bare countInStock for several variants',
    404: 'Product not found',
    409: 'A size or colour removed while a checkout holds units of its variant',
  })
  update(@Param('id', productId) id: string, @Body() dto: UpdateProductDto) {
    return this.products.update(id, dto);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Remove a product' })
  @ApiObjectIdParam('product')
  @ApiOkResponse({ type: MessageBody, description: '`{message: "Product removed"}`' })
  @ApiErrors({ 400: 'Invalid product id', 404: 'Product not found' })
  async remove(@Param('id', productId) id: string) {
    await this.products.remove(id);
    return { message: 'Product removed' };
  }
}
