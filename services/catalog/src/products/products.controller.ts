import { Body, Controller, Delete, Get, Param, Put, Req, Res } from '@nestjs/common';
import { Auth, ParseObjectIdPipe } from '@shop/nest-common';
import type { Request, Response } from 'express';
import { CatalogCache, sendCached } from '../cache/catalog-cache';
import { UpdateProductDto } from './dto/product.dto';
import { cacheKeyOf, parseProductListQuery } from './product-query';
import { ProductsService } from './products.service';

export const productId = new ParseObjectIdPipe('product');

/**
 * Public catalogue reads (published products only), answered from pre-serialised bytes with an
 * ETag, plus the two admin writes the SPA calls on this path. Route order matters: the named
 * routes come before `:id`.
 */
@Controller('api/products')
export class ProductsController {
  constructor(
    private readonly products: ProductsService,
    private readonly cache: CatalogCache,
  ) {}

  @Get()
  async list(@Req() req: Request, @Res() res: Response) {
    const q = parseProductListQuery(req.query as Record<string, unknown>);
    sendCached(req, res, await this.cache.get(`list:${cacheKeyOf(q)}`, () => this.products.list(q)));
  }

  @Get('new-arrivals')
  async newArrivals(@Req() req: Request, @Res() res: Response) {
    sendCached(req, res, await this.cache.get('new-arrivals', () => this.products.newArrivals()));
  }

  @Get('best-seller')
  async bestSeller(@Req() req: Request, @Res() res: Response) {
    sendCached(req, res, await this.cache.get('best-seller', () => this.products.bestSeller()));
  }

  @Get('similar/:id')
  async similar(@Param('id', productId) id: string, @Req() req: Request, @Res() res: Response) {
    sendCached(req, res, await this.cache.get(`similar:${id}`, () => this.products.similar(id)));
  }

  @Get(':id')
  async findOne(@Param('id', productId) id: string, @Req() req: Request, @Res() res: Response) {
    sendCached(req, res, await this.cache.get(`product:${id}`, () => this.products.findPublished(id)));
  }

  @Put(':id')
  @Auth('admin')
  update(@Param('id', productId) id: string, @Body() dto: UpdateProductDto) {
    return this.products.update(id, dto);
  }

  @Delete(':id')
  @Auth('admin')
  async remove(@Param('id', productId) id: string) {
    await this.products.remove(id);
    return { message: 'Product removed' };
  }
}
