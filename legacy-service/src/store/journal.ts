import type { FileHandle } from 'node:fs/promises';
import { open, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { dataFileMode, syncDirectory, writeAll } from './files.js';
import { StoreError } from './errors.js';
import { readLines } from './lines.js';
import type { FileLine } from './lines.js';
import { parseMutations } from './mutations.js';
import type { Mutation } from './types.js';

export interface JournalEntry {
  seq: number;
  mutations: Mutation[];
}

export interface JournalRecovery {
  /** Complete entries found, including any the snapshot already covers. */
  entries: number;
  /** Line number of an unfinished last append that was cut away, if there was one. */
  tornLine: number | undefined;
}

function parseEntry(line: FileLine, path: string): JournalEntry {
  const where = `${path} line ${line.number}`;
  const raw: unknown = JSON.parse(line.text);
  if (typeof raw !== 'object' || raw === null) {
    throw new StoreError('JOURNAL_CORRUPT', `${where}: an entry must be an object`);
  }
  const { seq, mutations } = raw as Record<string, unknown>;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1) {
    throw new StoreError('JOURNAL_CORRUPT', `${where}: "seq" must be a positive integer`);
  }
  return { seq, mutations: parseMutations(mutations, where) };
}

/**
 * Replays the journal at `path` through `onEntry`. Only the last line may be damaged: an append that a
 * crash interrupted was never acknowledged, so it is cut off the file. Damage anywhere else would
 * lose acknowledged transactions, so it is a hard error naming the file and line.
 */
export async function recoverJournal(
  path: string,
  onEntry: (entry: JournalEntry, line: number) => void,
): Promise<JournalRecovery> {
  const size = await stat(path).then(
    (stats) => stats.size,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    },
  );
  if (size === undefined) return { entries: 0, tornLine: undefined };

  let entries = 0;
  // One line of look-ahead: a line is known to be in the middle only once the next one has been read.
  let previous: FileLine | undefined;
  for await (const line of readLines(path)) {
    if (previous !== undefined) {
      onEntry(parseMiddleEntry(previous, path), previous.number);
      entries += 1;
    }
    previous = line;
  }
  if (previous === undefined) return { entries, tornLine: undefined };

  const last = previous.terminated ? tryParseEntry(previous, path) : undefined;
  if (last !== undefined) {
    onEntry(last, previous.number);
    return { entries: entries + 1, tornLine: undefined };
  }
  const handle = await open(path, 'r+');
  try {
    await handle.truncate(previous.offset);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return { entries, tornLine: previous.number };
}

function parseMiddleEntry(line: FileLine, path: string): JournalEntry {
  try {
    return parseEntry(line, path);
  } catch (error) {
    const reason =
      error instanceof StoreError ? error.message : `${path} line ${line.number}: not valid JSON`;
    throw new StoreError(
      'JOURNAL_CORRUPT',
      `Journal ${path} is corrupt at line ${line.number}, before later acknowledged transactions ` +
        `(${reason}). Refusing to open rather than drop data: restore the data folder from a backup.`,
      { cause: error },
    );
  }
}

function tryParseEntry(line: FileLine, path: string): JournalEntry | undefined {
  try {
    return parseEntry(line, path);
  } catch {
    return undefined;
  }
}

/** The append-only journal file: one JSON line per transaction, flushed to disk before it counts. */
export class Journal {
  readonly #handle: FileHandle;
  readonly #fsync: boolean;

  private constructor(handle: FileHandle, fsync: boolean) {
    this.#handle = handle;
    this.#fsync = fsync;
  }

  static async open(path: string, fsync: boolean): Promise<Journal> {
    const existed = await stat(path).then(
      () => true,
      () => false,
    );
    const handle = await open(path, 'a', dataFileMode);
    // A journal written before files were created private is made so now.
    if (existed) await handle.chmod(dataFileMode);
    // A new file's directory entry must be durable too, or the first fsync'ed appends could vanish with it.
    if (!existed) await syncDirectory(dirname(path));
    return new Journal(handle, fsync);
  }

  async append(entry: string): Promise<void> {
    await writeAll(this.#handle, entry);
    if (this.#fsync) await this.#handle.datasync();
  }

  /** Empties the journal once a snapshot covers all of it; appends continue at the new end. */
  async reset(): Promise<void> {
    await this.#handle.truncate(0);
    await this.#handle.sync();
  }

  async close(): Promise<void> {
    await this.#handle.close();
  }
}
