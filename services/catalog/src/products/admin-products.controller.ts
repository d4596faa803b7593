import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { Auth } from '@shop/nest-common';
import { CreateProductDto, UpdateProductDto } from './dto/product.dto';
import { productId } from './products.controller';
import { ProductsService } from './products.service';

/** Admin product management: every product, published or not. */
@Controller('api/admin/products')
@Auth('admin')
export class AdminProductsController {
  constructor(private readonly products: ProductsService) {}

  @Get()
  list() {
    return this.products.listAll();
  }

  /** The edit page of an unpublished product (the public GET /api/products/:id shows published ones only). */
  @Get(':id')
  findOne(@Param('id', productId) id: string) {
    return this.products.findAny(id);
  }

  @Post()
  @HttpCode(201)
  create(@Body() dto: CreateProductDto) {
    return this.products.create(dto);
  }

  @Put(':id')
  update(@Param('id', productId) id: string, @Body() dto: UpdateProductDto) {
    return this.products.update(id, dto);
  }

  @Delete(':id')
  async remove(@Param('id', productId) id: string) {
    await this.products.remove(id);
    return { message: 'Product removed' };
  }
}
