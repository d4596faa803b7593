import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** A data migration that has run to its end on this database: its `_id` (the migration's versioned name) is unique. */
@Schema({ collection: 'migrations', versionKey: false })
export class MigrationRecord {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ required: true })
  ranAt!: Date;

  /** Documents it changed. */
  @Prop({ required: true, default: 0 })
  changed!: number;
}

export const MigrationRecordSchema = SchemaFactory.createForClass(MigrationRecord);
