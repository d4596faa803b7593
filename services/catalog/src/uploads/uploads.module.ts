import { Module } from '@nestjs/common';
import { ImageUploadInterceptor } from './image-upload.interceptor';
import { UploadsController } from './uploads.controller';
import { UploadsService } from './uploads.service';

@Module({
  controllers: [UploadsController],
  providers: [UploadsService, ImageUploadInterceptor],
})
export class UploadsModule {}
