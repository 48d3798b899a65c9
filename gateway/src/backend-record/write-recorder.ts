import type { LegacyClient } from '../legacy/legacy-client.js';
import type { Logger } from '../observability/logger.js';
import type { BackendGet } from './backend-reads.js';
import type { BackendRecord } from './backend-record.js';
import { touchedBy, type WriteHook } from './backend-writes.js';
import { readTouched } from './object-reads.js';

export interface WriteRecorder {
  /** The hook both write roads call once the backend accepted a write. */
  noteWrite: WriteHook;
  /** Resolves once every write noted so far is in the record (tests, shutdown). */
  settled(): Promise<void>;
}

/**
 * Source (a) of the record: each accepted write is read back from the backend at once (the objects it touched,
 * over all time, with the writer's credential) and noted, every touched object told as changed. The write's
 * answer does not wait for it; a read back that fails is logged, and the sweep notices the change instead.
 *
 * @example
 * const writes = writeRecorder({ record, legacy, logger });
 * createLegacyLoaders(client, { onWrite: writes.noteWrite });
 */
export function writeRecorder(options: {
  record: BackendRecord;
  legacy: LegacyClient;
  logger?: Logger;
  clock?: () => Date;
}): WriteRecorder {
  const pending = new Set<Promise<unknown>>();
  return {
    noteWrite(write) {
      const touches = touchedBy(write);
      if (touches.length === 0) return;
      const get: BackendGet = (path) =>
        options.legacy.json({ method: 'GET', path, authorization: write.authorization });
      const today = (options.clock?.() ?? new Date()).toISOString().slice(0, 10);
      const done = readTouched(get, touches, { whereabouts: options.record.whereabouts, today })
        .then((sightings) => options.record.note(sightings, 'write', { always: true }))
        .catch((error: unknown) =>
          options.logger?.warn(
            { err: error, touched: touches.length },
            'backend record: a write could not be read back; the sweep will notice it',
          ),
        )
        .finally(() => pending.delete(done));
      pending.add(done);
    },
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
