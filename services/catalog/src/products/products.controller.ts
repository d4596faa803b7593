import { applyDecorators, Body, Controller, Delete, Get, Param, Put, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { SORT_OPTIONS } from '@shop/contracts';
import { ApiErrors, ApiObjectIdParam, Auth, MessageBody, ParseObjectIdPipe } from '@shop/nest-common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PublicReads } from '../read-model/public-reads';
import { sendPublic } from '../read-model/public-response';
import { UpdateProductDto } from './dto/product.dto';
import { ProductBody, ProductSuggestionsBody } from './dto/product.response';
import { parseProductListQuery, parseSuggestQuery } from './product-query';
import { ProductsService } from './products.service';

export const productId = new ParseObjectIdPipe('product');

const text = (name: string, description: string) =>
  ApiQuery({ name, required: false, description, schema: { type: 'string', maxLength: 200 } });

/** The filters of GET /api/products (docs/api.md#product-filters): all optional, ANDed, unknown keys ignored. */
const ApiProductFilters = () =>
  applyDecorators(
    text('collection', 'A collection name; `all` (any case) or absent: no filter'),
    text('category', 'Equality; `all`: no filter'),
    text('gender', 'Equality; `all`: no filter'),
    text('size', 'Comma-separated list, any matches (`M,L`)'),
    text('color', 'Comma-separated list, any matches (`Red,Navy`)'),
    text('material', 'Comma-separated list, any matches'),
    text('brand', 'Comma-separated list, any matches'),
    ApiQuery({ name: 'minPrice', required: false, schema: { type: 'number', minimum: 0 }, description: 'GBP' }),
    ApiQuery({ name: 'maxPrice', required: false, schema: { type: 'number', minimum: 0 }, description: 'GBP' }),
    text(
      'search',
      'Words of the name, team or description, forgiving one typo a word and matching word starts ("pack" → Packers) ' +
        'and team nicknames ("niners"); every product containing the text as typed too. Without sortBy: exact matches ' +
        'first, then by relevance. Over 100 characters: cut',
    ),
    ApiQuery({
      name: 'sortBy',
      required: false,
      schema: { type: 'string', enum: [...SORT_OPTIONS] },
      description: 'Anything else: newest first',
    }),
    ApiQuery({
      name: 'limit',
      required: false,
      schema: { type: 'integer', minimum: 0, maximum: 100 },
      description: 'Absent or 0: no limit; capped at 100',
    }),
  );

/**
 * Public catalogue reads (published products only), answered from the in-memory read model as bytes with an
 * ETag, plus the two admin writes the SPA calls on this path. Route order matters: the named routes come before
 * `:id`.
 */
@ApiTags('products')
@Controller('api/products')
export class ProductsController {
  constructor(
    private readonly products: ProductsService,
    private readonly reads: PublicReads,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Published products, filtered and sorted' })
  @ApiProductFilters()
  @ApiOkResponse({ type: [ProductBody] })
  @ApiErrors({ 400: 'A malformed filter value' })
  async list(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    sendPublic(req, reply, await this.reads.list(parseProductListQuery(req.query as Record<string, unknown>)));
  }

  @Get('suggest')
  @ApiOperation({
    summary: 'Up to 8 products for a search as it is typed, best first; "did you mean" when none',
    description:
      'Found as GET /api/products?search= finds them (typos, word starts, team nicknames). A q shorter than 2 ' +
      'characters answers no suggestions. Cacheable for a minute by a shared cache.',
  })
  @ApiQuery({ name: 'q', required: false, schema: { type: 'string', maxLength: 100 } })
  @ApiOkResponse({ type: ProductSuggestionsBody })
  @ApiErrors({ 400: 'q over 100 characters, repeated, or not a string' })
  async suggest(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    sendPublic(req, reply, await this.reads.suggest(parseSuggestQuery(req.query as Record<string, unknown>)));
  }

  @Get('new-arrivals')
  @ApiOperation({ summary: 'The 8 newest published products' })
  @ApiOkResponse({ type: [ProductBody] })
  async newArrivals(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    sendPublic(req, reply, await this.reads.newArrivals());
  }

  @Get('best-seller')
  @ApiOperation({ summary: 'The best-selling product (rating breaks ties, or decides with no sales)' })
  @ApiOkResponse({ type: ProductBody })
  @ApiErrors({ 404: 'No best seller found' })
  async bestSeller(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    sendPublic(req, reply, await this.reads.bestSeller());
  }

  @Get('similar/:id')
  @ApiOperation({ summary: 'Up to 4 products of the same gender and category, not this one' })
  @ApiObjectIdParam('product')
  @ApiOkResponse({ type: [ProductBody] })
  @ApiErrors({ 400: 'Invalid product id', 404: 'Product not found' })
  async similar(@Param('id', productId) id: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    sendPublic(req, reply, await this.reads.similar(id));
  }

  @Get(':id')
  @ApiOperation({ summary: 'One published product' })
  @ApiObjectIdParam('product')
  @ApiOkResponse({ type: ProductBody })
  @ApiErrors({ 400: 'Invalid product id', 404: 'Product not found' })
  async findOne(@Param('id', productId) id: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    sendPublic(req, reply, await this.reads.product(id));
  }

  @Put(':id')
  @Auth('admin')
  @ApiTags('admin')
  @ApiOperation({ summary: 'Update a product (any subset of the fields); as PUT /api/admin/products/{id}' })
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
  @Auth('admin')
  @ApiTags('admin')
  @ApiOperation({ summary: 'Remove a product' })
  @ApiObjectIdParam('product')
  @ApiOkResponse({ type: MessageBody, description: '`{message: "Product removed"}`' })
  @ApiErrors({ 400: 'Invalid product id', 404: 'Product not found' })
  async remove(@Param('id', productId) id: string) {
    await this.products.remove(id);
    return { message: 'Product removed' };
  }
}
