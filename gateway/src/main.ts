import { ConfigError, readGatewayConfig } from './config.js';
import { startGateway } from './server.js';

try {
  const config = readGatewayConfig();
  const gateway = await startGateway({ config });
  console.log(
    `gateway: ${config.publicUrl} (listening on ${config.host}:${gateway.port}, legacy at ${config.legacy.url.origin})`,
  );
  const stop = (signal: string) => {
    console.log(`gateway: ${signal}, finishing in-flight requests`);
    gateway.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('gateway: error while stopping', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
} catch (error) {
  const message = error instanceof ConfigError ? `bad configuration: ${error.message}` : String(error);
  console.error(`gateway: cannot start: ${message}`);
  process.exit(1);
}
