import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { EmailField } from './user-fields';

export class LoginDto {
  @EmailField()
  email!: string;

  @ApiProperty({ format: 'password' })
  @IsNotEmpty({ message: 'Password is required' })
  @IsString({ message: 'Password must be text' })
  @MaxLength(1024, { message: 'Invalid email or password' })
  password!: string;
}
