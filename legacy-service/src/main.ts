import { readLegacyConfig } from './config.js';
import { startLegacyService } from './server.js';

try {
  const config = readLegacyConfig();
  const service = await startLegacyService({
    dataDir: config.dataDir,
    host: config.host,
    port: config.port,
    latencyMs: config.latencyMs,
    auth: config.auth,
    exportDir: config.exportDir,
    navlinks: config.navlinks,
    keycloakClient: config.keycloakClient,
    onUnexpectedError: (error) => console.error('legacy-service: unexpected error', error),
  });
  console.log(`legacy-service: ${service.url}/service/ (data in ${config.dataDir})`);
  console.log(
    config.auth.enabled
      ? `legacy-service: bearer tokens required (issuer ${config.auth.issuer})`
      : 'legacy-service: LEGACY_AUTH=off, /service answers without a token',
  );
  const stop = () => {
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('legacy-service: error while stopping', error);
        process.exit(1);
      },
    );
  };
  // Ctrl+C on `npm start` brings both: SIGINT from the terminal, then SIGTERM from the start script.
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} catch (error) {
  console.error(`legacy-service: cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
