import { writeFileSync } from 'node:fs';
import { Global, Module, RequestMethod, type DynamicModule, type INestApplication, type Type } from '@nestjs/common';
import { GUARDS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { NestContainer } from '@nestjs/core/injector/container';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { ServiceName } from '@shop/contracts';
import { AUTH_METADATA } from '../auth/auth.guard';
import { ROOT_LOGGER } from '../logging/logger';
import { BEARER_SCHEME } from './decorators';
import { ApiErrorBody } from './schemas';

/** Stands in for startServiceApp's root module: what it provides globally (the root logger, never called here). */
@Global()
@Module({})
class DocumentRootModule {
  static wrap(rootModule: unknown): DynamicModule {
    return {
      module: DocumentRootModule,
      imports: [rootModule as DynamicModule],
      providers: [{ provide: ROOT_LOGGER, useValue: undefined }],
      exports: [ROOT_LOGGER],
    };
  }
}

/** One HTTP route as Nest registered it from a controller's decorators (for the completeness test). */
export interface ControllerRoute {
  method: string;
  /** OpenAPI form: `/api/products/{id}`. */
  path: string;
  controller: string;
  handler: string;
  /** Roles `@Auth(...)` requires ([] = any signed-in user); undefined when the route takes no token. */
  roles?: string[];
  /** `@OptionalAuth()`: a guest or a signed-in user. */
  optional: boolean;
}

const joinPath = (...parts: string[]) =>
  `/${parts
    .map((p) => p.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/')}`.replace(/:(\w+)/g, '{$1}');

function controllerRoutes(app: INestApplication): ControllerRoute[] {
  const routes: ControllerRoute[] = [];
  const container = (app as unknown as { container: NestContainer }).container;
  for (const module of container.getModules().values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type | null;
      if (!controller) continue;
      const prefixes = [Reflect.getMetadata(PATH_METADATA, controller) ?? ''].flat() as string[];
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method === undefined) continue; // a RabbitMQ handler, or a helper
        const paths = [Reflect.getMetadata(PATH_METADATA, handler) ?? ''].flat() as string[];
        const read = <T>(key: string): T | undefined =>
          Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, controller);
        const guarded = [
          Reflect.getMetadata(GUARDS_METADATA, handler),
          Reflect.getMetadata(GUARDS_METADATA, controller),
        ]
          .flat()
          .some(Boolean);
        const optional = read<boolean>(AUTH_METADATA.optional) ?? false;
        const roles = guarded && !optional ? (read<string[]>(AUTH_METADATA.roles) ?? []) : undefined;
        for (const prefix of prefixes)
          for (const path of paths)
            routes.push({
              method: RequestMethod[method].toLowerCase(),
              path: joinPath(prefix, path),
              controller: controller.name,
              handler: name,
              roles,
              optional,
            });
      }
    }
  }
  return routes;
}

/**
 * The OpenAPI document of one service, from its controllers' and DTOs' decorators, and the routes Nest registered
 * (read from the same metadata the router uses). The app is created in preview mode: Nest scans the modules and
 * resolves the graph but instantiates no provider, so no database, Redis or RabbitMQ is touched and no
 * configuration is read. The gateway merges the five documents (gateway/src/api-docs).
 */
export async function inspectService(
  service: ServiceName,
  rootModule: unknown,
): Promise<{ document: OpenAPIObject; routes: ControllerRoute[] }> {
  const app = await NestFactory.create(DocumentRootModule.wrap(rootModule), new FastifyAdapter(), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  try {
    const config = new DocumentBuilder()
      .setTitle(`${service} service`)
      .setVersion('1.0.0')
      .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, BEARER_SCHEME)
      .build();
    const document = SwaggerModule.createDocument(app, config, {
      extraModels: [ApiErrorBody],
      operationIdFactory: (controllerKey: string, methodKey: string) =>
        `${service}_${controllerKey.replace(/Controller$/, '')}_${methodKey}`,
    });
    return { document, routes: controllerRoutes(app) };
  } finally {
    await app.close();
  }
}

export async function createServiceDocument(service: ServiceName, rootModule: unknown): Promise<OpenAPIObject> {
  return (await inspectService(service, rootModule)).document;
}

/** Build step: `node dist/openapi.js` in a service writes its document (see scripts/openapi.mjs). */
export async function writeServiceDocument(service: ServiceName, rootModule: unknown, file: string): Promise<void> {
  const document = await createServiceDocument(service, rootModule);
  writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
}
