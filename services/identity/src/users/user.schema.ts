import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { ROLES, type PublicUser, type Role } from '@shop/contracts';
import type { HydratedDocument } from 'mongoose';

@Schema({ collection: 'users', timestamps: true })
export class User {
  @Prop({ required: true, trim: true, maxlength: 100 })
  name!: string;

  /**
   * Trimmed and lower-cased before it is stored or looked up; unique, and so always required
   * (docs/pitfalls.md#unique-indexes-on-ferretdb).
   */
  @Prop({ required: true, unique: true, lowercase: true, trim: true })
  email!: string;

  @Prop({ required: true })
  passwordHash!: string;

  @Prop({ type: String, required: true, enum: ROLES, default: 'customer' })
  role!: Role;

  createdAt!: Date;
  updatedAt!: Date;
}

export type UserDocument = HydratedDocument<User>;
export const UserSchema = SchemaFactory.createForClass(User);
UserSchema.index({ role: 1 });
// The admin list's orders (issue 25): the unpaged list reads newest first; a list answered from MongoDB sorts by
// these, ties by _id (email is unique, and so ordered by its own index).
UserSchema.index({ createdAt: -1, _id: -1 });
UserSchema.index({ name: 1, _id: 1 });

/** The only shape a user leaves this service in: no password hash, ever. */
export function toPublicUser(user: UserDocument | (User & { _id: unknown })): PublicUser {
  return {
    _id: String(user._id),
    name: user.name,
    email: user.email,
    role: user.role,
    createdAt: user.createdAt?.toISOString(),
    updatedAt: user.updatedAt?.toISOString(),
  };
}
