import { Module } from '@nestjs/common';
import { getConnectionToken } from '@nestjs/mongoose';
import { Schema, type Connection } from 'mongoose';
import { ServiceConfig } from '../config/service-config';
import { startTestService, type TestService } from '../testing';
import { ServiceDefaultsModule } from './service-defaults.module';

@Module({ imports: [ServiceDefaultsModule.forRoot({ service: 'catalog', config: ServiceConfig })] })
class PlainService {}

describe('ServiceDefaultsModule: the database connection (real dev MongoDB-wire server)', () => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await startTestService('catalog', PlainService);
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('formats no stack per query (mongoose skipOriginalStackTraces): a query run twice is refused without one', async () => {
    const connection = svc.app.get<Connection>(getConnectionToken());
    const Thing = connection.model('Thing', new Schema({ name: String }));
    await Thing.create({ name: 'jersey' });
    const query = Thing.findOne({ name: 'jersey' }).lean<{ name: string }>();
    expect((await query.exec())?.name).toBe('jersey');
    const refused = await query.exec().then(
      () => undefined,
      (err: Error & { originalStack?: string }) => err,
    );
    expect(refused?.message).toMatch(/Query was already executed/);
    expect(refused?.originalStack).toBeUndefined(); // a string (where it first ran) without the option
  });
});
