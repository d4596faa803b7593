import 'reflect-metadata';
import { startServiceApp } from '@shop/nest-common';
import { AppModule } from './app.module';

startServiceApp('catalog', AppModule).catch((err: Error) => {
  console.error(`catalog failed to start: ${err.message}`);
  process.exit(1);
});
