import { BadRequestException, Controller, Get, Query, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { snapshotOf, type CatalogueEntry } from '@shop/catalog-read-model';
import type { Response } from 'express';
import { CatalogueReadModel } from './catalogue-read-model';

/** Most products one request for named products may ask for. */
const MAX_IDS = 1000;
const OBJECT_ID = /^[0-9a-f]{24}$/i;

/**
 * GET /internal/catalogue: the published catalogue as this replica's read model holds it, at the catalog version it
 * says (`snapshotOf`), for a copy kept elsewhere (the gateway's: gateway/README.md, "Catalogue copy");
 * `?ids=a,b`: only those products (the published ones among them), for a copy replaying admin edits. Internal:
 * the gateway routes only /api and /uploads here, and it shows nothing a public read does not.
 */
@ApiExcludeController()
@Controller('internal/catalogue')
export class CatalogueSnapshotController {
  constructor(private readonly model: CatalogueReadModel) {}

  @Get()
  async snapshot(@Query('ids') ids: unknown, @Res() res: Response): Promise<void> {
    const wanted = ids === undefined ? undefined : String(ids).split(',').filter(Boolean);
    if (wanted && (typeof ids !== 'string' || wanted.length > MAX_IDS || !wanted.every((id) => OBJECT_ID.test(id))))
      throw new BadRequestException(`ids must be up to ${MAX_IDS} product ids, comma-separated`);
    const current = await this.model.currentWithVersion();
    if (!current) throw new ServiceUnavailableException('The catalogue version cannot be read');
    const { index, version } = current;
    const entries = wanted
      ? wanted.map((id) => index.get(id.toLowerCase())).filter((e): e is CatalogueEntry => e !== undefined)
      : index.entries();
    res.setHeader('Cache-Control', 'no-store');
    res.type('application/json').send(snapshotOf(version, entries));
  }
}
