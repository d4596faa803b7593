import 'reflect-metadata';
import { startServiceApp } from '@shop/nest-common';
import { AppModule } from './app.module';
import { CatalogueReadModel } from './read-model/catalogue-read-model';

startServiceApp('catalog', AppModule)
  // Load the catalogue now rather than at the first shopper's request (which would wait for it).
  .then((app) => app.get(CatalogueReadModel).current())
  .catch((err: Error) => {
    console.error(`catalog failed to start: ${err.message}`);
    process.exit(1);
  });
