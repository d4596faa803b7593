import { DynamicModule, Global, Module, Type } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { getConnectionToken, MongooseModule } from '@nestjs/mongoose';
import type { ShopServiceName } from '@shop/contracts';
import { JwtAuthGuard } from '../auth/auth.guard';
import { jwtSecretKey } from '../auth/jwt-secret';
import { TokenRevocations } from '../auth/token-revocations';
import { ServiceConfig } from '../config/service-config';
import { ServiceConfigModule } from '../config/service-config.module';
import { AllExceptionsFilter } from '../errors/all-exceptions.filter';
import { createValidationPipe } from '../errors/validation';
import { installDriverCloseGuard } from '../database/driver-close-guard';
import { EventsModule } from '../events/events.module';
import { MongoProcessedEventStore } from '../events/mongo-processed-event.store';
import { HealthController } from '../health/health.controller';
import { ROOT_LOGGER } from '../logging/logger';
import { MessagingMetrics } from '../metrics/messaging-metrics';
import { MetricsModule } from '../metrics/metrics.module';
import { MongoCommandMetrics } from '../metrics/mongo-command-metrics';
import type { Logger } from 'pino';
import { REDIS, RedisCloser, redisProvider, type RedisClientOptions } from '../redis/redis.provider';
import { namespacedExchange } from '../rpc/rpc-names';
import mongoose, { type Connection } from 'mongoose';

export const SERVICE_NAME = Symbol('SERVICE_NAME');

export interface ServiceDefaultsOptions<C extends ServiceConfig> {
  service: ShopServiceName;
  config: Type<C>;
  /** How the service's Redis client (REDIS) talks to Redis. */
  redis?: RedisClientOptions;
}

/**
 * What every service gets by importing one module (the "service defaults" of eShop):
 * validated config, MongoDB, Redis, JWT verification with revocation, the error filter,
 * validation, request context for RabbitMQ handlers, /health and /ready, Prometheus metrics (GET /metrics).
 */
@Global()
@Module({})
export class ServiceDefaultsModule {
  static forRoot<C extends ServiceConfig>(options: ServiceDefaultsOptions<C>): DynamicModule {
    const configModule = ServiceConfigModule.forRoot(options.config);
    const metricsModule = MetricsModule.forService(options.service);
    return {
      module: ServiceDefaultsModule,
      imports: [
        configModule,
        metricsModule,
        MongooseModule.forRootAsync({
          imports: [configModule, metricsModule],
          inject: [ServiceConfig, MongoCommandMetrics],
          useFactory: (config: ServiceConfig, commands: MongoCommandMetrics) => {
            // A connection closing while a command is being written must fail it, not hang the driver's monitor.
            installDriverCloseGuard();
            // Mongoose keeps each query's stack as a string (`new Error().stack`) only to explain a "Query was
            // already executed" error: a stack formatted per query, about a fifth of a findOne's client CPU
            // (docs/performance.md, "Token verification and mongoose queries"). Our queries run once, by await.
            mongoose.set('skipOriginalStackTraces', true);
            return {
              uri: config.MONGO_URI,
              // A request that needs the database answers 503 within a few seconds when it is away or hung,
              // well before the gateway gives up (10 s): no server to select, or no answer on the socket, in 2.5 s.
              serverSelectionTimeoutMS: 2500,
              socketTimeoutMS: 2500,
              connectTimeoutMS: 2500,
              // No waiting in mongoose's queue while the driver reports the server away (up to 10 s by default,
              // past the gateway's timeout): a queued write ran once MongoDB returned, after its caller had been
              // answered 503 (a stock reservation held for a checkout that had already given up on it).
              bufferCommands: false,
              autoIndex: true,
              // Every command counted by collection and operation (shop_mongo_commands_total on GET /metrics).
              monitorCommands: true,
              onConnectionCreate: (connection: Connection) => commands.watch(connection),
            };
          },
        }),
        JwtModule.registerAsync({
          global: true,
          imports: [configModule],
          inject: [ServiceConfig],
          useFactory: (config: ServiceConfig) => ({
            // A key object rather than the string: 0.6 ms less CPU per token verified or signed (jwt-secret.ts).
            secret: jwtSecretKey(config.JWT_SECRET),
            signOptions: { algorithm: 'HS256', expiresIn: config.JWT_TTL_SECONDS },
            verifyOptions: { algorithms: ['HS256'] },
          }),
        }),
        EventsModule.forRootAsync({
          imports: [configModule, metricsModule],
          inject: [ServiceConfig, getConnectionToken(), ROOT_LOGGER, MessagingMetrics],
          useFactory: (config: ServiceConfig, connection: Connection, logger: Logger, metrics: MessagingMetrics) => ({
            url: config.RABBITMQ_URL,
            service: options.service,
            queuePrefix: config.RABBITMQ_NAMESPACE,
            exchange: namespacedExchange(config.RABBITMQ_NAMESPACE),
            store: new MongoProcessedEventStore(connection),
            maxAttempts: config.EVENT_MAX_ATTEMPTS,
            retryDelayMs: config.EVENT_RETRY_DELAY_MS,
            logger,
            metrics,
          }),
        }),
      ],
      controllers: [HealthController],
      providers: [
        { provide: SERVICE_NAME, useValue: options.service },
        redisProvider(options.redis),
        RedisCloser,
        TokenRevocations,
        JwtAuthGuard,
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
      exports: [SERVICE_NAME, TokenRevocations, JwtAuthGuard, JwtModule, REDIS],
    };
  }
}
