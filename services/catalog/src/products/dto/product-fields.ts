import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CATEGORIES, COLORS, GENDERS, SIZES, type VariantInput } from '@shop/contracts';
import { plainToInstance, Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsObject,
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

/**
 * Sizes are typed comma-separated and trimmed (docs/product.md#validation); an array works too. Known words get their
 * canonical case.
 */
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

/** An image hosted elsewhere (or no URL at all): the shop's pages could not show it (AssetUrls.isShopImage). */
export const FOREIGN_IMAGE =
  'Image url must be an image of this shop: upload it, or give its path on the shop (like /uploads/photo.webp)';

export class ProductImageDto {
  @ApiProperty({
    maxLength: 2048,
    description:
      'One of the shop’s own images: a path on the shop like /uploads/photo.webp (what POST /api/upload answers), ' +
      'or that path under the shop’s ASSET_URL_PREFIX or UPLOADS_PUBLIC_URL. Images hosted elsewhere are refused ' +
      '(400): the shop’s Content-Security-Policy loads images from the shop only.',
  })
  @trim
  @IsNotEmpty({ message: 'Every image needs a url' })
  @IsString({ message: 'Image url must be text' })
  @MaxLength(2048, { message: 'Image url is too long' })
  // the syntax here; whether an http(s) URL is the shop's depends on the configuration (ProductsService)
  @Matches(/^(\/[^/\\]|https?:\/\/)/, { message: FOREIGN_IMAGE })
  url!: string;

  @ApiPropertyOptional({ maxLength: 300 })
  @IsOptional()
  @trim
  @IsString({ message: 'Image alt text must be text' })
  @MaxLength(300, { message: 'Image alt text must be at most 300 characters' })
  altText?: string;
}

const list = (what: string, vocabulary: readonly string[]) => `${what} must be from: ${vocabulary.join(', ')}`;

/** A variant's size or colour: a known word gets its canonical case; '' and null mean "none" (null). */
function toOption(vocabulary: readonly string[]) {
  return Transform(({ value }) => {
    if (value === undefined || value === null) return value;
    if (typeof value !== 'string') return value;
    const v = value.trim();
    if (v === '') return null;
    return vocabulary.find((w) => w.toLowerCase() === v.toLowerCase()) ?? v;
  });
}

const SKU_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 ._-]*$/;
const SKU_CHARACTERS = 'SKU may hold only letters, digits, spaces, dots, dashes and underscores';

/** Most variants a product can have: every size × every colour. */
export const MAX_VARIANTS = SIZES.length * COLORS.length;

/**
 * One variant as an admin sets it: which one (size and colour; null or absent where the product offers none), its
 * stock, and optionally its SKU (default `<product sku>-<size>-<color>`).
 */
export class VariantInputDto implements VariantInput {
  // Rules run in the order listed (applyDecorators); the first that fails is the message.
  @applyDecorators(
    ApiPropertyOptional({ enum: SIZES, nullable: true, description: 'null when the product offers no sizes' }),
    toOption(SIZES),
    IsOptional(),
    IsIn(SIZES, { message: list('Variant size', SIZES) }),
  )
  size?: string | null;

  @applyDecorators(
    ApiPropertyOptional({ enum: COLORS, nullable: true, description: 'null when the product offers no colours' }),
    toOption(COLORS),
    IsOptional(),
    IsIn(COLORS, { message: list('Variant color', COLORS) }),
  )
  color?: string | null;

  @applyDecorators(
    ApiProperty({ type: 'integer', minimum: 0, maximum: 1_000_000 }),
    toNumber,
    IsDefined({ message: 'Every variant needs its countInStock' }),
    IsInt({ message: 'Variant stock must be a whole number' }),
    Min(0, { message: 'Variant stock cannot be negative' }),
    Max(1_000_000, { message: 'Variant stock must be at most 1000000' }),
  )
  countInStock!: number;

  @applyDecorators(
    ApiPropertyOptional({
      maxLength: 80,
      pattern: SKU_PATTERN.source,
      description: 'Unique across the catalogue; default `<product sku>-<size>-<color>`, upper-case',
    }),
    trim,
    IsOptional(),
    IsString({ message: 'Variant SKU must be text' }),
    IsNotEmpty({ message: 'Variant SKU cannot be empty' }),
    MaxLength(80, { message: 'Variant SKU must be at most 80 characters' }),
    Matches(SKU_PATTERN, { message: `Variant ${SKU_CHARACTERS}` }),
  )
  sku?: string;
}

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
      ApiProperty({
        type: 'integer',
        minimum: 0,
        maximum: 1_000_000,
        description:
          'Read-only sum of the variants. Accepted only for a product with one variant (no sizes or colours ' +
          'beyond one of each); otherwise send `variants`. Ignored when `variants` is sent',
      }),
      toNumber,
      IsInt({ message: 'Stock must be a whole number' }),
      Min(0, { message: 'Stock cannot be negative' }),
      Max(1_000_000, { message: 'Stock must be at most 1000000' }),
    ),
  sku: () =>
    applyDecorators(
      ApiProperty({
        maxLength: 64,
        pattern: SKU_PATTERN.source,
        description: 'Unique; generated when absent',
      }),
      trim,
      IsNotEmpty({ message: 'SKU cannot be empty' }),
      IsString({ message: 'SKU must be text' }),
      MaxLength(64, { message: 'SKU must be at most 64 characters' }),
      Matches(SKU_PATTERN, { message: SKU_CHARACTERS }),
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
  variants: () =>
    applyDecorators(
      ApiProperty({
        type: [VariantInputDto],
        maxItems: MAX_VARIANTS,
        description:
          'Stock (and optionally SKU) per size × colour. Cells left out keep their stock on update (0 on create); ' +
          "a cell not among the product's sizes × colours is refused",
      }),
      Transform(({ value }) =>
        Array.isArray(value)
          ? value.map((v) =>
              v && typeof v === 'object' && !Array.isArray(v) ? plainToInstance(VariantInputDto, v) : v,
            )
          : value,
      ),
      IsArray({ message: 'Variants must be a list' }),
      ArrayMaxSize(MAX_VARIANTS, { message: `A product has at most ${MAX_VARIANTS} variants` }),
      IsObject({ each: true, message: 'Each variant must be an object' }),
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
