import 'reflect-metadata';
import { startServiceApp } from '@shop/nest-common';
import { AppModule } from './app.module';

// No request queue: nothing asks this service anything; it consumes events and answers /health, /ready, /metrics.
startServiceApp('notifications', AppModule, { rpc: false }).catch((err: Error) => {
  console.error(`notifications failed to start: ${err.message}`);
  process.exit(1);
});
