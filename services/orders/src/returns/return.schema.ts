import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { RETURN_REASONS, RETURN_STATUSES, type ReturnReason, type ReturnStatus } from '@shop/contracts';

/** Units of one order line in a return, and what they refund (pence), fixed when the return was asked for. */
@Schema({ _id: false, versionKey: false })
export class OrderReturnLine {
  /** The line's place in the order's orderItems. */
  @Prop({ required: true, min: 0 }) line!: number;
  @Prop({ required: true }) productId!: string;
  @Prop({ required: true }) name!: string;
  @Prop({ default: '' }) image!: string;
  @Prop({ default: '' }) size!: string;
  @Prop({ default: '' }) color!: string;
  @Prop({ default: '' }) sku!: string;
  @Prop({ required: true, min: 1 }) quantity!: number;
  @Prop({ required: true, min: 0 }) refundPence!: number;
  /** Set when the return is received: whether these units go back on sale. */
  @Prop() restock?: boolean;
}

@Schema({ _id: false, versionKey: false })
export class OrderReturnStep {
  @Prop({ type: String, required: true, enum: RETURN_STATUSES }) status!: ReturnStatus;
  @Prop({ required: true }) at!: Date;
  @Prop({ type: Object }) by?: { _id: string; name: string };
  @Prop() note?: string;
}

@Schema({ _id: false, versionKey: false })
export class OrderReturnRefund {
  @Prop({ required: true }) id!: string;
  @Prop({ required: true, min: 0 }) amountPence!: number;
}

/**
 * A return of some of a delivered order's units, stored in its order (the order's story, and the one document whose
 * conditional write keeps the order's returns within what was bought and paid). `_id` is an ObjectId's hex string.
 */
@Schema({ _id: false, versionKey: false })
export class OrderReturn {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ type: String, required: true, enum: RETURN_STATUSES }) status!: ReturnStatus;
  @Prop({ type: String, required: true, enum: RETURN_REASONS }) reason!: ReturnReason;
  @Prop() comment?: string;
  @Prop({ type: [SchemaFactory.createForClass(OrderReturnLine)], required: true }) lines!: OrderReturnLine[];
  /** The lines' refunds added up. */
  @Prop({ required: true, min: 0 }) refundPence!: number;
  @Prop({ type: SchemaFactory.createForClass(OrderReturnRefund) }) refund?: OrderReturnRefund;
  /** Received and not refunded yet: why the last try did not refund (it is tried again). */
  @Prop() refundError?: string;
  @Prop() refundAttempts?: number;
  @Prop({ type: [SchemaFactory.createForClass(OrderReturnStep)], required: true }) steps!: OrderReturnStep[];
  @Prop({ required: true }) createdAt!: Date;
  @Prop({ required: true }) updatedAt!: Date;
}

export const OrderReturnSchema = SchemaFactory.createForClass(OrderReturn);
