import {
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type InjectionToken,
  type ModuleMetadata,
  type OnApplicationShutdown,
  type OptionalFactoryDependency,
} from '@nestjs/common';
import { EventBus } from './event-bus';
import type { EventBusOptions } from './event-bus.types';

export const EVENT_BUS_OPTIONS = Symbol('EVENT_BUS_OPTIONS');

export interface EventsModuleAsyncOptions extends Pick<ModuleMetadata, 'imports'> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  useFactory: (...args: any[]) => EventBusOptions | Promise<EventBusOptions>;
  inject?: Array<InjectionToken | OptionalFactoryDependency>;
  /** Register EventBus globally (default true: one bus per service). */
  isGlobal?: boolean;
}

@Injectable()
class EventBusShutdown implements OnApplicationShutdown {
  constructor(@Inject(EventBus) private readonly bus: EventBus) {}

  async onApplicationShutdown(): Promise<void> {
    await this.bus.close();
  }
}

/**
 * Provides a connected EventBus. The bus is started while the module initialises (so `app.init()`
 * fails fast without a broker, and any provider can subscribe in its own onModuleInit), and closed
 * on application shutdown (`app.close()`, or a signal with `enableShutdownHooks()`).
 */
@Module({})
export class EventsModule {
  static forRootAsync(options: EventsModuleAsyncOptions): DynamicModule {
    return {
      module: EventsModule,
      global: options.isGlobal ?? true,
      imports: options.imports ?? [],
      providers: [
        { provide: EVENT_BUS_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] },
        {
          provide: EventBus,
          useFactory: async (busOptions: EventBusOptions) => {
            const bus = new EventBus(busOptions);
            await bus.start();
            return bus;
          },
          inject: [EVENT_BUS_OPTIONS],
        },
        EventBusShutdown,
      ],
      exports: [EventBus],
    };
  }
}
