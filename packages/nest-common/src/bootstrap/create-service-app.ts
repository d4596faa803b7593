import { Global, Module, type DynamicModule, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { compile as trustedAddresses } from '@fastify/proxy-addr';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { ShopServiceName } from '@shop/contracts';
import type { AddressInfo } from 'node:net';
import type { DestinationStream, Logger } from 'pino';
import { ServiceConfig } from '../config/service-config';
import { createLogger, PinoNestLogger, ROOT_LOGGER } from '../logging/logger';
import { requestLogging } from '../logging/request-logging';
import { httpMetrics } from '../metrics/http-metrics';
import { MessagingMetrics } from '../metrics/messaging-metrics';
import { Metrics } from '../metrics/metrics';
import { RequestQueueServer, rpcServerOptions } from '../rpc/rpc-server';
import { JSON_BODY_LIMIT, parseJsonBodies } from './json-body';

/** How long a service keeps an idle HTTP connection: longer than the gateway keeps its own (60 s). */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export interface ServiceAppOptions {
  /** JSON body limit in bytes (default 1 MiB); the gateway enforces its own limit first. */
  bodyLimit?: number;
  /** Listen on this port instead of the configured one (tests pass 0). */
  port?: number;
  /** Whether to consume the service's request queue (default true). */
  rpc?: boolean;
  /** Where log lines go (default stdout); the test harness collects them. */
  logDestination?: DestinationStream;
}

@Global()
@Module({})
class ServiceRootModule {
  static wrap(rootModule: unknown, logger: Logger): DynamicModule {
    return {
      module: ServiceRootModule,
      imports: [rootModule as DynamicModule],
      providers: [{ provide: ROOT_LOGGER, useValue: logger }],
      exports: [ROOT_LOGGER],
    };
  }
}

/**
 * Creates, configures and starts a service: HTTP on Nest's Fastify adapter (JSON bodies parsed here, with errors as
 * JSON; request id, access line and metrics as Fastify hooks) plus its RabbitMQ request queue, after HTTP is
 * listening so handlers never run before the module graph is ready (docs/pitfalls.md#hybrid-app-start-order).
 */
export async function startServiceApp(
  service: ShopServiceName,
  rootModule: unknown,
  options: ServiceAppOptions = {},
): Promise<INestApplication> {
  const logger = createLogger(service, process.env.LOG_LEVEL ?? 'info', options.logDestination);
  // Which peers' X-Forwarded-For is believed (request.ip) is the service's own config (TRUSTED_PROXIES), known once
  // the module graph is built: the adapter asks this function, which answers from it.
  let trusted = (_address: string, _hop: number): boolean => false;
  const adapter = new FastifyAdapter({
    // Idle keep-alive connections outlive the gateway's (it drops its idle sockets to services after 60 s): closed by
    // the service first (Node's default: 5 s), one raced the gateway's next request on it, a "socket hang up" 503.
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    trustProxy: (address, hop) => trusted(address, hop),
    // Routing as Express did: a trailing slash and the letters' case do not make another route.
    routerOptions: { ignoreTrailingSlash: true, caseSensitive: false },
  });
  const app = await NestFactory.create<NestFastifyApplication>(ServiceRootModule.wrap(rootModule, logger), adapter, {
    bodyParser: false,
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  const config = app.get(ServiceConfig);
  logger.level = config.LOG_LEVEL;
  if (config.TRUSTED_PROXIES?.length) trusted = trustedAddresses(config.TRUSTED_PROXIES);

  const fastify = app.getHttpAdapter().getInstance();
  // GET /metrics (Prometheus) on the service's own, internal port; every other request is counted.
  httpMetrics(fastify, app.get(Metrics));
  requestLogging(fastify, logger);
  parseJsonBodies(fastify, options.bodyLimit ?? JSON_BODY_LIMIT);
  app.enableShutdownHooks();

  if (options.rpc !== false) {
    const { options: rmq } = rpcServerOptions(service, config.RABBITMQ_URL, config.RABBITMQ_NAMESPACE);
    const strategy = new RequestQueueServer(rmq!, app.get(MessagingMetrics));
    app.connectMicroservice({ strategy }, { inheritAppConfig: true });
  }
  app.getHttpServer().headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000;
  await app.listen(options.port ?? config.PORT, config.HOST);
  // Read now: a SIGTERM while the request queue is still being started closes the server (address() is then null).
  const { port } = app.getHttpServer().address() as AddressInfo;
  if (options.rpc !== false) await app.startAllMicroservices();
  logger.info({ port }, `${service} service listening`);
  return app;
}
