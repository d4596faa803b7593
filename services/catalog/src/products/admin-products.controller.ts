import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ApiObjectIdParam, Auth, MessageBody } from '@shop/nest-common';
import { CreateProductDto, UpdateProductDto } from './dto/product.dto';
import { ProductBody } from './dto/product.response';
import { productId } from './products.controller';
import { ProductsService } from './products.service';

/** Admin product management: every product, published or not. */
@ApiTags('admin')
@Controller('api/admin/products')
@Auth('admin')
export class AdminProductsController {
  constructor(private readonly products: ProductsService) {}

  @Get()
  @ApiOperation({ summary: 'All products, including unpublished' })
  @ApiOkResponse({ type: [ProductBody] })
  list() {
    return this.products.listAll();
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
  @ApiErrors({ 400: 'A field message, or SKU already exists' })
  create(@Body() dto: CreateProductDto) {
    return this.products.create(dto);
  }

  @Put(':id')
  @ApiOperation({ summary: 'Update a product (any subset of the fields)' })
  @ApiObjectIdParam('product')
  @ApiOkResponse({ type: ProductBody })
  @ApiErrors({ 400: 'Invalid product id, or a field message', 404: 'Product not found' })
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
