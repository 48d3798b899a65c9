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
 * How far V8 lets the old generation grow past what the last full collection kept: 1.85× instead of V8's
 * own factor, which it raises up to 4× for a process that allocates fast. Under the bench the gateway keeps
 * about 32 MB alive, yet its old space filled with 60–90 MB of garbage between collections. Measured with
 * `npx tsx bench/memory-profile.ts` (reference query and `/service` read, concurrency 8): peak resident
 * memory 233–243 MB with V8's factor, 187–194 MB with 100 %, for 3–4 % more CPU per reference query and
 * none per read; 50 % gave 166–187 MB but cost 4–27 % more CPU per query. With the rest of the memory work
 * (the WebAssembly flags below, versions made on first use), two paired runs gave 147–149 MB at 85 % against
 * 154 MB at 100 %, with CPU per query and per read within the runs' noise (1.64/1.92 against 1.73/1.91 ms).
 * The factor is read at each collection, so it can be set here, whichever way the gateway is started; a
 * `--heap-growing-percent` given to node wins (`--heap-growing-percent=0` restores V8's own factor).
 */
const heapGrowingPercent = 85;
if (!process.execArgv.some((flag) => flag.startsWith('--heap-growing-percent'))) {
  setFlagsFromString(`--heap-growing-percent=${heapGrowingPercent}`);
}

/**
 * undici parses HTTP with llhttp compiled to WebAssembly, and V8 recompiles its one large parser function
 * with its optimising compiler once it is hot: that compilation alone takes 30–45 MB of memory on a
 * background thread for a moment, twice (the legacy pool's undici and Node's own for `fetch`), and it was
 * the gateway's peak resident memory. Kept on V8's baseline compiler, the parser costs a few microseconds
 * more per legacy response. Measured with `npx tsx bench/memory-phases.ts` and `bench/memory-profile.ts`
 * (see docs/operations.md); the flags are read when the parser is first compiled, on the first legacy call,
 * so they can be set here. A `--wasm-dynamic-tiering` given to node wins.
 */
if (!process.execArgv.some((flag) => /^--(no-)?wasm-(dynamic-tiering|tier-up)/.test(flag))) {
  setFlagsFromString('--no-wasm-dynamic-tiering');
  setFlagsFromString('--no-wasm-tier-up');
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
