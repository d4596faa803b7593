import { Controller, Get } from '@nestjs/common';
import type { AdminStatsJson } from '@shop/contracts';
import { Auth } from '@shop/nest-common';
import { StatsService } from './stats.service';

@Controller('api/admin/stats')
@Auth('admin')
export class AdminStatsController {
  constructor(private readonly stats: StatsService) {}

  @Get()
  get(): Promise<AdminStatsJson> {
    return this.stats.adminStats();
  }
}
