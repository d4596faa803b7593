import { BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';
import { ValidateIf } from 'class-validator';

function flatten(errors: ValidationError[], parent = ''): Array<{ field: string; message: string }> {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/**
 * Global validation: unknown fields are stripped (clients of this API family send extra
 * fields such as guestId), types are checked strictly (an object where a string belongs is
 * a 400, never a query operator), and the first problem becomes the message.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: false,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    stopAtFirstError: true,
    exceptionFactory: (errors) => {
      const details = flatten(errors);
      return new BadRequestException({ message: details[0]?.message ?? 'Invalid request', details });
    },
  });
}

/**
 * For a field a client may leave out, but not send as null: `IsOptional()` skips validation for null too, so a
 * `"role": null` would pass as if absent. With this, an absent field is skipped and null is validated (and refused
 * by the field's own rules) like any other value.
 */
export function IsAbsentOr(): PropertyDecorator {
  return ValidateIf((_object, value) => value !== undefined);
}
