import 'reflect-metadata';
import { startServiceApp } from '@shop/nest-common';
import { AppModule } from './app.module';

startServiceApp('cart', AppModule).catch((err: Error) => {
  console.error(`cart failed to start: ${err.message}`);
  process.exit(1);
});
