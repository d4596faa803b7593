import { DynamicModule, Global, Module, Type } from '@nestjs/common';
import { loadConfig, ServiceConfig } from './service-config';

/** Provides the validated config under its own class and under the base `ServiceConfig`. */
@Global()
@Module({})
export class ServiceConfigModule {
  static forRoot<C extends ServiceConfig>(cls: Type<C>): DynamicModule {
    return {
      module: ServiceConfigModule,
      providers: [
        { provide: cls, useFactory: () => loadConfig(cls) },
        ...(cls === (ServiceConfig as Type<ServiceConfig>) ? [] : [{ provide: ServiceConfig, useExisting: cls }]),
      ],
      exports: cls === (ServiceConfig as Type<ServiceConfig>) ? [cls] : [cls, ServiceConfig],
    };
  }
}
