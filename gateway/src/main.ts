import { setFlagsFromString } from 'node:v8';
import { ConfigError, readGatewayConfig, type GatewayConfig } from './config.js';
import { createLogger } from './observability/index.js';
import { startGateway } from './server.js';

let config: GatewayConfig;
try {
  config = readGatewayConfig();
} catch (error) {
  // LOG_LEVEL itself may be the bad variable: report at the default level.
  const message = error instanceof ConfigError ? `bad configuration: ${error.message}` : String(error);
  createLogger({ level: 'info' }).fatal(`gateway: cannot start: ${message}`);
  process.exit(1);
}

/**
 * How far V8 lets the old generation grow past what the last full collection kept: 2× instead of V8's own
 * factor, which it raises up to 4× for a process that allocates fast. Under the bench the gateway keeps
 * about 30 MB alive, yet its old space filled with 60–90 MB of garbage between collections. Measured with
 * `npx tsx bench/memory-profile.ts` (reference query and `/service` read, concurrency 8): peak resident
 * memory 233–243 MB with V8's factor, 187–194 MB with 100 %, for 3–4 % more CPU per reference query and
 * none per read; 50 % gave 166–187 MB but cost 4–27 % more CPU per query. The factor is read at each
 * collection, so it can be set here, whichever way the gateway is started; a `--heap-growing-percent` given
 * to node wins (`--heap-growing-percent=0` restores V8's own factor).
 */
const heapGrowingPercent = 100;
if (!process.execArgv.some((flag) => flag.startsWith('--heap-growing-percent'))) {
  setFlagsFromString(`--heap-growing-percent=${heapGrowingPercent}`);
}

const logger = createLogger({ level: config.logLevel });
// Start and stop are logged at any LOG_LEVEL but silent: scripts wait for the "listening on" line.
const lifecycle = config.logLevel === 'silent' ? logger : logger.child({}, { level: 'info' });
try {
  const gateway = await startGateway({ config, logger });
  lifecycle.info(
    `gateway: ${config.publicUrl} (listening on ${config.host}:${gateway.port}, legacy at ${config.legacy.url.origin})`,
  );
  const stop = (signal: string) => {
    const graceMs = config.operations.shutdownGraceMs;
    // Closing stops the listener at once, so by the time this line is read no new connection is accepted.
    const closed = gateway.close(graceMs);
    lifecycle.info({ signal, graceMs }, `gateway: ${signal}, finishing in-flight requests`);
    // The last resort, should closing the legacy pool itself hang.
    setTimeout(() => process.exit(1), graceMs + 5_000).unref();
    closed.then(
      ({ forced }) => {
        if (forced)
          logger.warn(
            { graceMs },
            'gateway: stopped; requests still running after the grace period were cut',
          );
        else lifecycle.info('gateway: stopped');
        logger.flush(() => process.exit(0));
      },
      (error: unknown) => {
        logger.error({ err: error }, 'gateway: error while stopping');
        logger.flush(() => process.exit(1));
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
} catch (error) {
  logger.fatal({ err: error }, 'gateway: cannot start');
  process.exit(1);
}
