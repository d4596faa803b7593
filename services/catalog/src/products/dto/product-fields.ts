import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CATEGORIES, COLORS, GENDERS, SIZES } from '@shop/contracts';
import { plainToInstance, Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

/** The edit form sends what the inputs hold: numbers may arrive as text ("39.99"). */
const toNumber = Transform(({ value }) =>
  typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value,
);
const trim = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));
const toBoolean = Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value));

/** SPEC §5: sizes are typed comma-separated and trimmed; an array works too. Known words get their canonical case. */
function toList(vocabulary?: readonly string[]) {
  return Transform(({ value }) => {
    const items = typeof value === 'string' ? value.split(',') : value;
    if (!Array.isArray(items)) return items;
    const cleaned = items.map((v) => (typeof v === 'string' ? v.trim() : v)).filter((v) => v !== '');
    const canonical = cleaned.map((v) =>
      typeof v === 'string' && vocabulary ? (vocabulary.find((w) => w.toLowerCase() === v.toLowerCase()) ?? v) : v,
    );
    return [...new Set(canonical)];
  });
}

export class ProductImageDto {
  @ApiProperty({ maxLength: 2048, description: 'A path like /uploads/photo.webp or an http(s) URL' })
  @trim
  @IsNotEmpty({ message: 'Every image needs a url' })
  @IsString({ message: 'Image url must be text' })
  @MaxLength(2048, { message: 'Image url is too long' })
  @Matches(/^(\/[^/\\]|https?:\/\/)/, {
    message: 'Image url must be a path like /uploads/photo.webp or an http(s) URL',
  })
  url!: string;

  @ApiPropertyOptional({ maxLength: 300 })
  @IsOptional()
  @trim
  @IsString({ message: 'Image alt text must be text' })
  @MaxLength(300, { message: 'Image alt text must be at most 300 characters' })
  altText?: string;
}

const list = (what: string, vocabulary: readonly string[]) => `${what} must be from: ${vocabulary.join(', ')}`;

/** Field rules shared by create and update, with the sentences an admin reads. */
export const Fields = {
  name: () =>
    applyDecorators(
      ApiProperty({ minLength: 1, maxLength: 200, example: 'Chiefs Home Jersey' }),
      trim,
      IsNotEmpty({ message: 'Name is required' }),
      IsString({ message: 'Name must be text' }),
      MaxLength(200, { message: 'Name must be at most 200 characters' }),
    ),
  description: () =>
    applyDecorators(
      ApiProperty({ minLength: 1, maxLength: 5000 }),
      trim,
      IsNotEmpty({ message: 'Description is required' }),
      IsString({ message: 'Description must be text' }),
      MaxLength(5000, { message: 'Description must be at most 5000 characters' }),
    ),
  price: (what = 'Price') =>
    applyDecorators(
      ApiProperty({
        type: Number,
        minimum: 0.01,
        maximum: 100000,
        description: 'GBP, at most two decimals',
        example: 39.99,
      }),
      toNumber,
      IsDefined({ message: `${what} is required` }),
      IsNumber(
        { allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 },
        { message: `${what} must be a number of pounds with at most two decimals` },
      ),
      Min(0.01, { message: `${what} must be greater than 0` }),
      Max(100000, { message: `${what} must be at most 100000` }),
    ),
  countInStock: () =>
    applyDecorators(
      ApiProperty({ type: 'integer', minimum: 0, maximum: 1_000_000 }),
      toNumber,
      IsInt({ message: 'Stock must be a whole number' }),
      Min(0, { message: 'Stock cannot be negative' }),
      Max(1_000_000, { message: 'Stock must be at most 1000000' }),
    ),
  sku: () =>
    applyDecorators(
      ApiProperty({
        maxLength: 64,
        pattern: '^[A-Za-z0-9][A-Za-z0-9 ._-]*$',
        description: 'Unique; generated when absent',
      }),
      trim,
      IsNotEmpty({ message: 'SKU cannot be empty' }),
      IsString({ message: 'SKU must be text' }),
      MaxLength(64, { message: 'SKU must be at most 64 characters' }),
      Matches(/^[A-Za-z0-9][A-Za-z0-9 ._-]*$/, {
        message: 'SKU may hold only letters, digits, spaces, dots, dashes and underscores',
      }),
    ),
  category: () =>
    applyDecorators(
      ApiProperty({ enum: CATEGORIES, enumName: 'Category' }),
      IsNotEmpty({ message: 'Category is required' }),
      IsIn(CATEGORIES, { message: `Category must be one of: ${CATEGORIES.join(', ')}` }),
    ),
  text: (what: string, max = 100) =>
    applyDecorators(
      ApiProperty({ maxLength: max }),
      trim,
      IsString({ message: `${what} must be text` }),
      MaxLength(max, { message: `${what} must be at most ${max} characters` }),
    ),
  sizes: () =>
    applyDecorators(
      ApiProperty({ enum: SIZES, isArray: true, description: 'A list, or one comma-separated string' }),
      toList(SIZES),
      IsArray({ message: 'Sizes must be a list' }),
      IsIn(SIZES, { each: true, message: list('Sizes', SIZES) }),
    ),
  colors: () =>
    applyDecorators(
      ApiProperty({ enum: COLORS, isArray: true, description: 'A list, or one comma-separated string' }),
      toList(COLORS),
      IsArray({ message: 'Colors must be a list' }),
      ArrayMaxSize(COLORS.length, { message: 'Too many colors' }),
      IsIn(COLORS, { each: true, message: list('Colors', COLORS) }),
    ),
  gender: () =>
    applyDecorators(
      ApiProperty({ enum: GENDERS, enumName: 'Gender' }),
      IsIn(GENDERS, { message: `Gender must be one of: ${GENDERS.join(', ')}` }),
    ),
  images: () =>
    applyDecorators(
      ApiProperty({ type: [ProductImageDto], maxItems: 12, description: 'Objects, or plain URL strings' }),
      Transform(({ value }) =>
        Array.isArray(value)
          ? value.map((v) => plainToInstance(ProductImageDto, typeof v === 'string' ? { url: v } : v))
          : value,
      ),
      IsArray({ message: 'Images must be a list' }),
      ArrayMaxSize(12, { message: 'A product can have at most 12 images' }),
      ValidateNested({ each: true }),
    ),
  flag: (what: string) =>
    applyDecorators(ApiProperty({ type: Boolean }), toBoolean, IsBoolean({ message: `${what} must be true or false` })),
  tags: () =>
    applyDecorators(
      ApiProperty({ type: [String], maxItems: 30, description: 'A list, or one comma-separated string' }),
      toList(),
      IsArray({ message: 'Tags must be a list' }),
      ArrayMaxSize(30, { message: 'A product can have at most 30 tags' }),
      IsString({ each: true, message: 'Tags must be text' }),
      MaxLength(50, { each: true, message: 'Each tag must be at most 50 characters' }),
    ),
};
