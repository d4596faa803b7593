import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { ProductsModule } from '../products/products.module';
import { AdminReviewsController } from './admin-reviews.controller';
import { Delivery, DeliverySchema } from './delivery.schema';
import { RatingsMigration } from './ratings.migration';
import { Review, ReviewSchema } from './review.schema';
import { MyReviewsController, ReviewsController } from './reviews.controller';
import { ReviewsService } from './reviews.service';

@Module({
  imports: [
    ProductsModule,
    MongooseModule.forFeature([
      { name: Review.name, schema: ReviewSchema },
      { name: Delivery.name, schema: DeliverySchema },
    ]),
  ],
  controllers: [ReviewsController, MyReviewsController, AdminReviewsController],
  providers: [ReviewsService, RatingsMigration],
  exports: [ReviewsService],
})
export class ReviewsModule {}
