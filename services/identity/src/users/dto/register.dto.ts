import { EmailField, NameField, NewPasswordField } from './user-fields';

export class RegisterDto {
  @NameField()
  name!: string;

  @EmailField()
  email!: string;

  @NewPasswordField()
  password!: string;
}
