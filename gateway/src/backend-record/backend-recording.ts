import type { Registry } from 'prom-client';
import type { BackendSweepConfig } from '../config.js';
import type { Database } from '../database/database.js';
import { createLegacyClient, type LegacyClient, type LegacyClientOptions } from '../legacy/legacy-client.js';
import type { Logger } from '../observability/logger.js';
import { createBackendRecord, type BackendRecord } from './backend-record.js';
import { createBackendSweep, type BackendSweep } from './backend-sweep.js';
import { writeRecorder, type WriteRecorder } from './write-recorder.js';

/** The record of the backend with its three sources, as one gateway runs it. */
export interface BackendRecording {
  /** The record: `record.onObjectChanged(listener)` is told of each change any source notices. */
  record: BackendRecord;
  /** Source (a): `writes.noteWrite` is the hook both write roads call. */
  writes: WriteRecorder;
  /** Sources (b) and (c): undefined when it is switched off or has no credential to read with. */
  sweep: BackendSweep | undefined;
  close(): Promise<void>;
}

export interface BackendRecordingOptions {
  database: Database;
  /** The gateway's legacy client: writes are read back through it with the writer's credential. */
  legacy: LegacyClient;
  /** How the legacy client is made, for the sweep's own client when it reads with a credential of its own. */
  legacyOptions: LegacyClientOptions;
  settings: BackendSweepConfig;
  logger?: Logger;
  registry?: Registry;
  clock?: () => Date;
}

/**
 * Starts the record of the backend (DESIGN.md §10): the write hook at once, and the sweep on whichever replica
 * takes it. The sweep reads with the gateway's own credential, a client of its own when the gateway relays
 * callers' tokens, and does not run without one (said once in the log).
 */
export function startBackendRecording(options: BackendRecordingOptions): BackendRecording {
  const record = createBackendRecord({ database: options.database, logger: options.logger });
  const writes = writeRecorder({
    record,
    legacy: options.legacy,
    logger: options.logger,
    clock: options.clock,
  });
  const { settings } = options;
  let sweepLegacy: LegacyClient | undefined;
  let sweep: BackendSweep | undefined;
  if (!settings.enabled) {
    options.logger?.info('backend sweep: switched off (BACKEND_SWEEP_ENABLED=false)');
  } else if (settings.auth === undefined) {
    options.logger?.warn(
      'backend sweep: not started, it has no credential of its own (LEGACY_CREDENTIALS=relay): set BACKEND_SWEEP_CLIENT_ID and BACKEND_SWEEP_CLIENT_SECRET',
    );
  } else {
    sweepLegacy =
      settings.auth === 'gateway'
        ? options.legacy
        : createLegacyClient({ ...options.legacyOptions, auth: settings.auth, connections: 4 });
    sweep = createBackendSweep({
      ...settings,
      database: options.database,
      record,
      legacy: sweepLegacy,
      logger: options.logger,
      registry: options.registry,
      clock: options.clock,
    });
    sweep.start();
  }
  return {
    record,
    writes,
    sweep,
    async close() {
      await sweep?.stop();
      await writes.settled();
      if (sweepLegacy !== options.legacy) await sweepLegacy?.close();
    },
  };
}
