import 'reflect-metadata';
import { startServiceApp } from '@shop/nest-common';
import { AppModule } from './app.module';

startServiceApp('identity', AppModule).catch((err: Error) => {
  console.error(`identity failed to start: ${err.message}`);
  process.exit(1);
});
