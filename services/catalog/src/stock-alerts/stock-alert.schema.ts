import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

export type StockAlertState = 'waiting' | 'triggered' | 'unsubscribed';

/**
 * One "email me when it's back" request: an address, a product's size and colour. `key` is unique: while the request
 * waits it is `<productId>|<size>|<color>|<email>`, so an address has one waiting request per variant (asking again
 * changes nothing); once triggered or unsubscribed it becomes the request's own id, so the address may ask again.
 */
@Schema({ collection: 'stock_alerts', timestamps: true, versionKey: false })
export class StockAlert {
  @Prop({ required: true, unique: true }) key!: string;
  @Prop({ required: true }) productId!: string;
  @Prop({ default: '' }) size!: string;
  @Prop({ default: '' }) color!: string;
  @Prop({ required: true }) email!: string;
  @Prop({ type: String, required: true, default: 'waiting' }) state!: StockAlertState;
  /** The request lapses then (90 days after it was made): never sent, deleted by the TTL index or the sweeper. */
  @Prop({ required: true }) expiresAt!: Date;
  @Prop() triggeredAt?: Date;
  /** Set once the broker confirmed the triggered event; until then the sweeper publishes it again (same id). */
  @Prop() publishedAt?: Date;
}

export const StockAlertSchema = SchemaFactory.createForClass(StockAlert);
StockAlertSchema.index({ productId: 1, state: 1 });
StockAlertSchema.index({ state: 1, publishedAt: 1 });
StockAlertSchema.index({ email: 1, state: 1 });
