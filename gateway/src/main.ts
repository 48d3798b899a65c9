import { setFlagsFromString } from 'node:v8';
import { ConfigError, readGatewayConfig, type GatewayConfig } from './config.js';
import { createLogger, stdoutLogOutput } from './observability/index.js';
import { startGateway } from './server.js';
import { memoryFlags } from './memory-flags.js';

let config: GatewayConfig;
try {
  config = readGatewayConfig();
} catch (error) {
  // LOG_LEVEL itself may be the bad variable: report at the default level.
  const message = error instanceof ConfigError ? `bad configuration: ${error.message}` : String(error);
  const output = stdoutLogOutput();
  createLogger({ level: 'info', destination: output.destination }).fatal(`gateway: cannot start: ${message}`);
  await output.finish();
  process.exit(1);
}

for (const flag of memoryFlags(process.execArgv)) setFlagsFromString(flag);

const output = stdoutLogOutput();
const logger = createLogger({ level: config.logLevel, destination: output.destination });
/** Exits once the last log lines are out, or cannot go out (an orphaned gateway's stdout has no reader). */
const exit = (code: number) => void output.finish().then(() => process.exit(code));
// Start and stop are logged at any LOG_LEVEL but silent: scripts wait for the "listening on" line.
const lifecycle = config.logLevel === 'silent' ? logger : logger.child({}, { level: 'info' });
try {
  const gateway = await startGateway({ config, logger });
  lifecycle.info(
    `gateway: ${config.publicUrl} (listening on ${config.host}:${gateway.port}, legacy at ${config.legacy.url.origin})`,
  );
  let stopping = false;
  const stop = (signal: string) => {
    // Ctrl+C on npm start sends SIGINT from the terminal and SIGTERM from the script: the first one stops. A second
    // stop would close the closed server and log on the log stream the first has finished ("SonicBoom destroyed").
    if (stopping) return;
    stopping = true;
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
        exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'gateway: error while stopping');
        exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
} catch (error) {
  logger.fatal({ err: error }, 'gateway: cannot start');
  exit(1);
}
