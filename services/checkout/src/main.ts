import 'reflect-metadata';
import { startServiceApp } from '@shop/nest-common';
import { AppModule } from './app.module';

startServiceApp('checkout', AppModule).catch((err: Error) => {
  console.error(`checkout failed to start: ${err.message}`);
  process.exit(1);
});
