import { EmailField } from '../users/dto/user-fields';

export class SubscribeDto {
  @EmailField()
  email!: string;
}
