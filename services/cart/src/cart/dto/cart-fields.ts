import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsInt, IsNotEmpty, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { MAX_CART_LINE_QUANTITY } from '@shop/contracts';

const lowerCase = Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value));
const trimmed = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));
/** Rabbit-family clients send `userId: null` or '' for a guest: both mean "not given". */
const blankIsAbsent = Transform(({ value }) => (value === null || value === '' ? undefined : value));

export const ProductIdField = () =>
  applyDecorators(
    lowerCase,
    IsNotEmpty({ message: 'productId is required' }),
    IsString({ message: 'Invalid product id' }),
    Matches(/^[0-9a-f]{24}$/, { message: 'Invalid product id' }),
  );

/** Size or colour of a line: '' (or absent) for a product that has none. Checked against the product later. */
export const OptionField = (what: 'Size' | 'Color') =>
  applyDecorators(
    trimmed,
    IsOptional(),
    IsString({ message: `${what} must be text` }),
    MaxLength(50, { message: `${what} must be at most 50 characters` }),
  );

export const QuantityField = (min: 0 | 1) =>
  applyDecorators(
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
    blankIsAbsent,
    IsOptional(),
    IsString({ message: `Invalid ${name}` }),
    MaxLength(100, { message: `Invalid ${name}` }),
  );
