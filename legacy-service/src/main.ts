import { readLegacyConfig } from './config.js';
import { startLegacyService } from './server.js';

try {
  const config = readLegacyConfig();
  const service = await startLegacyService({
    dataDir: config.dataDir,
    host: config.host,
    port: config.port,
    latencyMs: config.latencyMs,
    onUnexpectedError: (error) => console.error('legacy-service: unexpected error', error),
  });
  console.log(`legacy-service: ${service.url}/service/ (data in ${config.dataDir})`);
  const stop = () => {
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('legacy-service: error while stopping', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
} catch (error) {
  console.error(`legacy-service: cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
