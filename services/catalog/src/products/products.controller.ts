import { Body, Controller, Delete, Get, Param, Put, Req, Res } from '@nestjs/common';
import { Auth, ParseObjectIdPipe } from '@shop/nest-common';
import type { Request, Response } from 'express';
import { PublicReads } from '../read-model/public-reads';
import { sendPublic } from '../read-model/public-response';
import { UpdateProductDto } from './dto/product.dto';
import { parseProductListQuery } from './product-query';
import { ProductsService } from './products.service';

export const productId = new ParseObjectIdPipe('product');

/**
 * Public catalogue reads (published products only), answered from the in-memory read model as bytes with an
 * ETag, plus the two admin writes the SPA calls on this path. Well-formed reads usually never get here: the
 * PublicReadsLane answers them in front of Express; this is where their errors are answered. Route order
 * matters: the named routes come before `:id`.
 */
@Controller('api/products')
export class ProductsController {
  constructor(
    private readonly products: ProductsService,
    private readonly reads: PublicReads,
  ) {}

  @Get()
  async list(@Req() req: Request, @Res() res: Response) {
    sendPublic(req, res, await this.reads.list(parseProductListQuery(req.query as Record<string, unknown>)));
  }

  @Get('new-arrivals')
  async newArrivals(@Req() req: Request, @Res() res: Response) {
    sendPublic(req, res, await this.reads.newArrivals());
  }

  @Get('best-seller')
  async bestSeller(@Req() req: Request, @Res() res: Response) {
    sendPublic(req, res, await this.reads.bestSeller());
  }

  @Get('similar/:id')
  async similar(@Param('id', productId) id: string, @Req() req: Request, @Res() res: Response) {
    sendPublic(req, res, await this.reads.similar(id));
  }

  @Get(':id')
  async findOne(@Param('id', productId) id: string, @Req() req: Request, @Res() res: Response) {
    sendPublic(req, res, await this.reads.product(id));
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
