import { Global, Module, type DynamicModule, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { ShopServiceName } from '@shop/contracts';
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DestinationStream, Logger } from 'pino';
import { ServiceConfig } from '../config/service-config';
import { toApiError } from '../errors/error-body';
import { createLogger, PinoNestLogger, ROOT_LOGGER } from '../logging/logger';
import { requestLogging } from '../logging/request-logging.middleware';
import { httpMetrics } from '../metrics/http-metrics';
import { Metrics } from '../metrics/metrics';
import { ResilientServerRMQ } from '../rpc/rmq-channels';
import { rpcServerOptions } from '../rpc/rpc-server';
import { jsonBodyProblem } from './json-body';

/** How long a service keeps an idle HTTP connection: longer than the gateway keeps its own (60 s). */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export interface ServiceAppOptions {
  /** JSON body limit; the gateway enforces its own limit first. */
  bodyLimit?: string;
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
 * Creates, configures and starts a service: HTTP (JSON bodies parsed here, with errors as
 * JSON) plus its RabbitMQ request queue, after HTTP is listening so handlers never run
 * before the module graph is ready (PITFALLS §1.10).
 */
export async function startServiceApp(
  service: ShopServiceName,
  rootModule: unknown,
  options: ServiceAppOptions = {},
): Promise<INestApplication> {
  const logger = createLogger(service, process.env.LOG_LEVEL ?? 'info', options.logDestination);
  const app = await NestFactory.create<NestExpressApplication>(ServiceRootModule.wrap(rootModule, logger), {
    bodyParser: false,
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  const config = app.get(ServiceConfig);
  logger.level = config.LOG_LEVEL;

  app.disable('x-powered-by');
  if (config.TRUSTED_PROXIES?.length) app.set('trust proxy', config.TRUSTED_PROXIES);
  // GET /metrics (Prometheus) on the service's own, internal port; every other request is counted.
  app.use(httpMetrics(app.get(Metrics)));
  app.use(requestLogging(logger));
  const json = express.json({ limit: options.bodyLimit ?? '1mb' });
  app.use((req: express.Request, res: express.Response, next: express.NextFunction) =>
    json(req, res, (err?: unknown) => {
      const problem = err ? undefined : jsonBodyProblem(req.body);
      if (!err && !problem) return next();
      const body = err ? toApiError(err) : { statusCode: 400, message: problem! };
      res.status(body.statusCode).json(body);
    }),
  );
  app.enableShutdownHooks();

  if (options.rpc !== false) {
    const { options: rmq } = rpcServerOptions(service, config.RABBITMQ_URL, config.RABBITMQ_NAMESPACE);
    app.connectMicroservice({ strategy: new ResilientServerRMQ(rmq!) }, { inheritAppConfig: true });
  }
  // Idle keep-alive connections outlive the gateway's (it drops its idle sockets to services after 60 s): closed by
  // the service first (Node's default: 5 s), one raced the gateway's next request on it, a "socket hang up" 503.
  const server = app.getHttpServer() as Server;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000;
  await app.listen(options.port ?? config.PORT, config.HOST);
  // Read now: a SIGTERM while the request queue is still being started closes the server (address() is then null).
  const { port } = app.getHttpServer().address() as AddressInfo;
  if (options.rpc !== false) await app.startAllMicroservices();
  logger.info({ port }, `${service} service listening`);
  return app;
}
