import { plainToInstance, Transform, Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, validateSync } from 'class-validator';

/**
 * The settings every service reads. A service extends this class with its own fields;
 * `loadConfig` validates the environment against it at boot and fails fast with every
 * problem listed, instead of failing at the first request that needs a value.
 */
export class ServiceConfig {
  @IsIn(['development', 'test', 'production'])
  NODE_ENV: 'development' | 'test' | 'production' = 'development';

  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT!: number;

  @IsString()
  HOST = '0.0.0.0';

  @Matches(/^mongodb(\+srv)?:\/\/.+/, { message: 'MONGO_URI must be a mongodb:// URI' })
  MONGO_URI!: string;

  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be a redis:// URI' })
  REDIS_URL = 'redis://127.0.0.1:6379';

  @Matches(/^amqps?:\/\/.+/, { message: 'RABBITMQ_URL must be an amqp:// URI' })
  RABBITMQ_URL = 'amqp://guest:guest@127.0.0.1:5672';

  /**
   * Prefix for every queue and exchange name. Empty in a deployment; tests set a unique
   * one so suites never share queues.
   */
  @IsString()
  @Matches(/^[a-z0-9_.-]*$/, { message: 'RABBITMQ_NAMESPACE may hold only a-z, 0-9, _ . -' })
  RABBITMQ_NAMESPACE = '';

  @Type(() => Number)
  @IsInt()
  @Min(100)
  RPC_TIMEOUT_MS = 5000;

  /** Runs of an event handler (the first included) before the event is dead-lettered (EventBus maxAttempts). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  EVENT_MAX_ATTEMPTS = 5;

  /** Wait before each retry of a failed event handler (EventBus retryDelayMs). */
  @Type(() => Number)
  @IsInt()
  @Min(50)
  EVENT_RETRY_DELAY_MS = 5000;

  @IsString()
  @MinLength(16, { message: 'JWT_SECRET must be at least 16 characters' })
  JWT_SECRET!: string;

  /** Lifetime of a JWT; revocation records live as long, so a voided token never comes back. */
  @Type(() => Number)
  @IsInt()
  @Min(60)
  JWT_TTL_SECONDS = 7 * 24 * 3600;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  @IsOptional()
  @Transform(({ value }) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : value,
  )
  TRUSTED_PROXIES?: string[];
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/** Secrets that must never protect a production deployment. */
const WEAK_SECRETS = /^(secret|changeme|change-me|password|jwt[-_]?secret|dev[-_a-z]*)$/i;

export function loadConfig<T extends ServiceConfig>(
  cls: new () => T,
  env: Record<string, string | undefined> = process.env,
): T {
  const raw: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const config = plainToInstance(cls, raw, { exposeDefaultValues: true });
  const problems = validateSync(config, { whitelist: false, forbidUnknownValues: false }).flatMap((e) =>
    Object.values(e.constraints ?? { invalid: `${e.property} is invalid` }),
  );
  if (config.NODE_ENV === 'production' && config.JWT_SECRET) {
    if (config.JWT_SECRET.length < 32 || WEAK_SECRETS.test(config.JWT_SECRET)) {
      problems.push('JWT_SECRET is too weak for production: use at least 32 random characters');
    }
  }
  if (problems.length) throw new ConfigError(problems);
  return config;
}
