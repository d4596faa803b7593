import { BadRequestException, Injectable, PipeTransform } from '@nestjs/common';
import { isValidObjectId, Types } from 'mongoose';

/** `@Param('id', new ParseObjectIdPipe('user'))` → 400 "Invalid user id" for anything but an ObjectId string. */
@Injectable()
export class ParseObjectIdPipe implements PipeTransform<unknown, string> {
  constructor(private readonly thing: string) {}

  transform(value: unknown): string {
    if (typeof value !== 'string' || !/^[0-9a-fA-F]{24}$/.test(value) || !isValidObjectId(value)) {
      throw new BadRequestException(`Invalid ${this.thing} id`);
    }
    return new Types.ObjectId(value).toHexString();
  }
}
