import { createGateway } from './app';
import { ConfigError, loadConfig } from './config';
import { startMetricsServer } from './metrics';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  }

  const gateway = createGateway(config);
  const { url } = await gateway.start();
  // GET /metrics on METRICS_PORT only (off when unset): never on the public port.
  const metrics = await startMetricsServer(config, gateway.logger);
  gateway.logger.info({ url }, 'gateway ready');

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    gateway.logger.info({ signal }, 'shutting down');
    Promise.all([gateway.close(), metrics?.close()])
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        gateway.logger.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err: unknown) => {
  console.error('gateway failed to start:', err);
  process.exit(1);
});
