import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** A newsletter subscriber (the footer's "10% off your first order"). */
@Schema({ collection: 'subscribers', timestamps: true })
export class Subscriber {
  @Prop({ required: true, unique: true, lowercase: true, trim: true })
  email!: string;
}

export const SubscriberSchema = SchemaFactory.createForClass(Subscriber);
