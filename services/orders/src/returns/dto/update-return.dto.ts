import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import {
  ADMIN_RETURN_STATUSES,
  RETURN_MESSAGES,
  RETURN_NOTE_MAX,
  type AdminReturnStatus,
  type UpdateReturnBody,
} from '@shop/contracts';
import { IsAbsentOr } from '@shop/nest-common';
import { MAX_RETURN_LINES } from './create-return.dto';

/** PUT /api/admin/orders/:id/returns/:returnId. */
export class UpdateReturnDto implements UpdateReturnBody {
  @ApiProperty({ enum: ADMIN_RETURN_STATUSES, enumName: 'AdminReturnStatus' })
  @IsIn(ADMIN_RETURN_STATUSES, { message: RETURN_MESSAGES.badStatus })
  status!: AdminReturnStatus;

  @ApiPropertyOptional({ maxLength: RETURN_NOTE_MAX, description: 'To the customer, with an approval or a rejection' })
  @IsAbsentOr()
  @IsString({ message: RETURN_MESSAGES.badNote })
  @MaxLength(RETURN_NOTE_MAX, { message: RETURN_MESSAGES.badNote })
  note?: string;

  @ApiPropertyOptional({
    type: [Number],
    description: 'Received: the order lines (their place in orderItems) whose units go back on sale',
  })
  @IsAbsentOr()
  @IsArray({ message: RETURN_MESSAGES.badRestock })
  @ArrayMaxSize(MAX_RETURN_LINES, { message: RETURN_MESSAGES.badRestock })
  @IsInt({ each: true, message: RETURN_MESSAGES.badRestock })
  @Min(0, { each: true, message: RETURN_MESSAGES.badRestock })
  @Max(999, { each: true, message: RETURN_MESSAGES.badRestock })
  restock?: number[];
}
