import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsISO8601,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  Validate,
  ValidatorConstraint,
  type ValidationArguments,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { DISCOUNT_TYPES, type DiscountCodeBody, type DiscountType } from '@shop/contracts';

/** 3–32 of A–Z, 0–9, `-` and `_` (letters of either case: codes are case-insensitive). */
export const DISCOUNT_CODE = /^[A-Za-z0-9_-]{3,32}$/;
export const CODE_MESSAGE = 'Code must be 3 to 32 letters, digits, - or _';
/** The most a fixed code takes off, and the largest minimum (pounds); limits (uses). */
const MAX_POUNDS = 100_000;
const MAX_LIMIT = 1_000_000;

const trimmed = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

/** `value` by the code's type: a whole percent 1–100, or pounds > 0 with at most two decimals. */
@ValidatorConstraint({ name: 'discountValue' })
class DiscountValue implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    if (typeof value !== 'number' || !Number.isFinite(value)) return false;
    const type = (args.object as { type?: DiscountType }).type;
    if (type === 'percent') return Number.isInteger(value) && value >= 1 && value <= 100;
    return value > 0 && value <= MAX_POUNDS && hasAtMostTwoDecimals(value);
  }
  defaultMessage(args: ValidationArguments): string {
    return (args.object as { type?: DiscountType }).type === 'percent'
      ? 'A percentage must be a whole number from 1 to 100'
      : `A fixed amount must be pounds greater than 0 (at most ${MAX_POUNDS}) with at most two decimals`;
  }
}

/** `endsAt` strictly after `startsAt` when both are given. */
@ValidatorConstraint({ name: 'endsAfterStart' })
class EndsAfterStart implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    const startsAt = (args.object as { startsAt?: unknown }).startsAt;
    if (typeof value !== 'string' || typeof startsAt !== 'string') return true;
    return Date.parse(value) > Date.parse(startsAt);
  }
  defaultMessage(): string {
    return 'endsAt must be after startsAt';
  }
}

export function hasAtMostTwoDecimals(value: number): boolean {
  return Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;
}

/** An optional field that may be null (no limit, no date) or absent; anything else is validated by `rules`. */
const Nullable = (...rules: PropertyDecorator[]) =>
  applyDecorators(
    IsOptional(), // skips null and undefined
    ...rules,
  );

const Limit = (what: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_LIMIT, nullable: true }),
    Nullable(
      IsInt({ message: `${what} must be a whole number from 1 to ${MAX_LIMIT}` }),
      Min(1, { message: `${what} must be a whole number from 1 to ${MAX_LIMIT}` }),
      Max(MAX_LIMIT, { message: `${what} must be a whole number from 1 to ${MAX_LIMIT}` }),
    ),
  );

const When = (what: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }),
    Nullable(
      IsString({ message: `${what} must be an ISO date and time` }),
      IsISO8601({ strict: true }, { message: `${what} must be an ISO date and time` }),
    ),
  );

/** `POST /api/admin/discounts`, `PUT /api/admin/discounts/:id`: every field, as created. */
export class DiscountCodeDto implements DiscountCodeBody {
  @ApiProperty({
    pattern: DISCOUNT_CODE.source,
    example: 'KICKOFF10',
    description: 'Case-insensitive; kept upper-case',
  })
  @trimmed
  @Matches(DISCOUNT_CODE, { message: CODE_MESSAGE })
  @IsString({ message: CODE_MESSAGE })
  @IsDefined({ message: 'Code is required' })
  code!: string;

  @ApiProperty({ enum: DISCOUNT_TYPES })
  @IsIn(DISCOUNT_TYPES, { message: 'Type must be percent or fixed' })
  type!: DiscountType;

  @ApiProperty({ description: 'percent: a whole number 1–100; fixed: pounds, more than 0, two decimals', example: 10 })
  @Validate(DiscountValue)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'Value must be a number' })
  @IsDefined({ message: 'Value is required' })
  value!: number;

  @ApiPropertyOptional({
    type: Number,
    minimum: 0.01,
    nullable: true,
    description: 'Pounds: the least merchandise subtotal (null: none)',
  })
  @Nullable(
    IsNumber(
      { allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 },
      { message: 'Minimum subtotal must be pounds with at most two decimals' },
    ),
    Min(0.01, { message: 'Minimum subtotal must be greater than 0 (null for none)' }),
    Max(MAX_POUNDS, { message: `Minimum subtotal must be at most ${MAX_POUNDS}` }),
  )
  minSubtotal?: number | null;

  @When('startsAt') startsAt?: string | null;

  @When('endsAt')
  @Validate(EndsAfterStart)
  endsAt?: string | null;

  @Limit('Usage limit') usageLimit?: number | null;
  @Limit('Per-customer limit') perCustomerLimit?: number | null;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean({ message: 'firstOrderOnly must be true or false' })
  firstOrderOnly?: boolean;

  @ApiProperty()
  @IsBoolean({ message: 'active must be true or false' })
  @IsDefined({ message: 'active is required' })
  active!: boolean;
}
