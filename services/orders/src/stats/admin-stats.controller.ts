import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AdminStatsJson } from '@shop/contracts';
import { Auth } from '@shop/nest-common';
import { AdminStatsBody } from './admin-stats.response';
import { StatsService } from './stats.service';

@ApiTags('admin')
@Controller('api/admin/stats')
@Auth('admin')
export class AdminStatsController {
  constructor(private readonly stats: StatsService) {}

  @Get()
  @ApiOperation({ summary: 'Dashboard figures: revenue, order and product counts, recent orders, revenue by day' })
  @ApiOkResponse({ type: AdminStatsBody })
  get(): Promise<AdminStatsJson> {
    return this.stats.adminStats();
  }
}
