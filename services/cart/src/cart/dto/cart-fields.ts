import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsNotEmpty, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { MAX_CART_LINE_QUANTITY } from '@shop/contracts';

const lowerCase = Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value));
const trimmed = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));
/** Rabbit-family clients send `userId: null` or '' for a guest: both mean "not given". */
const blankIsAbsent = Transform(({ value }) => (value === null || value === '' ? undefined : value));

export const ProductIdField = () =>
  applyDecorators(
    ApiProperty({ pattern: '^[0-9a-f]{24}$', example: '665f1c2ab7e4a1c3d2e0f9a1' }),
    lowerCase,
    IsNotEmpty({ message: 'productId is required' }),
    IsString({ message: 'Invalid product id' }),
    Matches(/^[0-9a-f]{24}$/, { message: 'Invalid product id' }),
  );

/** Size or colour of a line: '' (or absent) for a product that has none. Checked against the product later. */
export const OptionField = (what: 'Size' | 'Color') =>
  applyDecorators(
    ApiPropertyOptional({ maxLength: 50, description: "'' or absent when the product has none" }),
    trimmed,
    IsOptional(),
    IsString({ message: `${what} must be text` }),
    MaxLength(50, { message: `${what} must be at most 50 characters` }),
  );

export const QuantityField = (min: 0 | 1) =>
  applyDecorators(
    ApiProperty({ type: 'integer', minimum: min, maximum: MAX_CART_LINE_QUANTITY }),
    IsNotEmpty({ message: 'Quantity is required' }),
    IsInt({ message: `Quantity must be a whole number from ${min} to ${MAX_CART_LINE_QUANTITY}` }),
    Min(min, { message: `Quantity must be a whole number from ${min} to ${MAX_CART_LINE_QUANTITY}` }),
    Max(MAX_CART_LINE_QUANTITY, {
      message: `Quantity must be a whole number from ${min} to ${MAX_CART_LINE_QUANTITY}`,
    }),
  );

/** Whose cart, as the client names it; checked against the token by cartOwner(). */
export const OwnerIdField = (name: 'guestId' | 'userId') =>
  applyDecorators(
    ApiPropertyOptional(
      name === 'guestId'
        ? { description: 'A guest cart: `guest_` + 1–64 of [A-Za-z0-9_-] (ignored when a token is sent)' }
        : { description: 'Must equal the token user (403 otherwise; 401 without a token)' },
    ),
    blankIsAbsent,
    IsOptional(),
    IsString({ message: `Invalid ${name}` }),
    MaxLength(100, { message: `Invalid ${name}` }),
  );
