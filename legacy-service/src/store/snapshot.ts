import { open, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { dataFileMode, syncDirectory, writeAll } from './files.js';
import { StoreError } from './errors.js';
import { readLines } from './lines.js';
import type { FileLine } from './lines.js';
import type { MemoryState } from './memory-state.js';
import { parseMutation } from './mutations.js';
import type { Mutation } from './types.js';

export const snapshotFile = 'snapshot.ndjson';
const temporaryPattern = /^snapshot-\d+\.ndjson\.tmp$/;
const writeBatchChars = 1 << 20;

interface SnapshotHeader {
  format: 1;
  seq: number;
  entities: number;
}

/**
 * Writes the whole state as of `seq` to a temporary file, flushes it, then renames it over the snapshot
 * and flushes the folder: a reader sees the old snapshot or the complete new one, never a mix.
 */
export async function writeSnapshot(dir: string, seq: number, state: MemoryState): Promise<void> {
  const temporaryPath = join(dir, `snapshot-${seq}.ndjson.tmp`);
  const handle = await open(temporaryPath, 'w', dataFileMode);
  try {
    const header: SnapshotHeader = { format: 1, seq, entities: state.entityCount() };
    let batch = [JSON.stringify(header)];
    let batchChars = 0;
    for (const [collection, entities] of state.collections()) {
      for (const value of entities.values()) {
        const line = JSON.stringify({ collection, value });
        batch.push(line);
        batchChars += line.length;
        // Batched so a snapshot of many small entities costs few system calls and no single huge string.
        if (batchChars >= writeBatchChars) {
          await writeAll(handle, batch.join('\n') + '\n');
          batch = [];
          batchChars = 0;
        }
      }
    }
    if (batch.length > 0) await writeAll(handle, batch.join('\n') + '\n');
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporaryPath, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temporaryPath, join(dir, snapshotFile));
  await syncDirectory(dir);
}

/** Removes snapshots that a crash left half-written; the previous snapshot and the journal still hold their data. */
export async function removeUnfinishedSnapshots(dir: string): Promise<void> {
  const names = await readdir(dir);
  await Promise.all(names.filter((name) => temporaryPattern.test(name)).map((name) => rm(join(dir, name))));
}

/** Feeds every entity of the snapshot to `onEntity` and returns its sequence, or undefined if there is none. */
export async function loadSnapshot(
  dir: string,
  onEntity: (mutation: Mutation) => void,
): Promise<number | undefined> {
  const path = join(dir, snapshotFile);
  let lines: AsyncGenerator<FileLine>;
  try {
    lines = readLines(path);
    const first = await lines.next();
    if (first.done === true) throw corrupt(path, 1, 'the file is empty');
    const header = parseHeader(first.value, path);
    let entities = 0;
    for await (const line of lines) {
      onEntity(parseEntity(line, path));
      entities += 1;
    }
    if (entities !== header.entities) {
      throw corrupt(path, entities + 2, `expected ${header.entities} entities, found ${entities}`);
    }
    return header.seq;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function corrupt(path: string, line: number, reason: string, cause?: unknown): StoreError {
  return new StoreError(
    'SNAPSHOT_CORRUPT',
    `Snapshot ${path} is corrupt at line ${line} (${reason}). Restore the data folder from a backup.`,
    { cause },
  );
}

function parseJsonLine(line: FileLine, path: string): unknown {
  if (!line.terminated) throw corrupt(path, line.number, 'the line is incomplete');
  try {
    return JSON.parse(line.text);
  } catch (error) {
    throw corrupt(path, line.number, 'not valid JSON', error);
  }
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function parseHeader(line: FileLine, path: string): SnapshotHeader {
  const { format, seq, entities } = (parseJsonLine(line, path) ?? {}) as Record<string, unknown>;
  if (format !== 1 || !isCount(seq) || !isCount(entities)) {
    throw corrupt(path, line.number, 'the header must be {"format":1,"seq":<n>,"entities":<n>}');
  }
  return { format, seq, entities };
}

function parseEntity(line: FileLine, path: string): Mutation {
  const raw = parseJsonLine(line, path) as { collection?: unknown; value?: { uuid?: unknown } } | null;
  try {
    return parseMutation(
      { collection: raw?.collection, uuid: raw?.value?.uuid, value: raw?.value },
      'entity',
    );
  } catch (error) {
    throw corrupt(path, line.number, (error as Error).message, error);
  }
}
