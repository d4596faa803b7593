import 'reflect-metadata';
import { startServiceApp } from '@shop/nest-common';
import { AppModule } from './app.module';

startServiceApp('orders', AppModule).catch((err: Error) => {
  console.error(`orders failed to start: ${err.message}`);
  process.exit(1);
});
