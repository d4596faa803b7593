import { ApiProperty } from '@nestjs/swagger';
import type { AuthResponse } from '@shop/contracts';
import { PublicUserBody } from '@shop/nest-common';

/** 201/200 of register and login (docs/api.md#users). */
export class AuthResultBody implements AuthResponse {
  @ApiProperty({ type: PublicUserBody }) user!: PublicUserBody;
  @ApiProperty({ description: 'A JWT for `Authorization: Bearer <token>`' }) token!: string;
}

/** What the admin user routes answer: a sentence and the user (clients read `.user`). */
export class UserMessageBody {
  @ApiProperty({ example: 'User updated successfully' }) message!: string;
  @ApiProperty({ type: PublicUserBody }) user!: PublicUserBody;
}
