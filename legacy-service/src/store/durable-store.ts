import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { StoreError } from './errors.js';
import { dataFolderMode } from './files.js';
import { Journal, recoverJournal } from './journal.js';
import { acquireLock } from './lock.js';
import type { DataFolderLock } from './lock.js';
import { MemoryState } from './memory-state.js';
import { parseMutation, parseMutations } from './mutations.js';
import { loadSnapshot, removeUnfinishedSnapshots, writeSnapshot } from './snapshot.js';
import type { Mutation, Store, StoredEntity, StoreOptions } from './types.js';

export const journalFile = 'journal.ndjson';

interface TransactionOutcome<R> {
  mutations: Mutation[];
  result: R;
}

type TransactionWork<R> = (store: Store) => TransactionOutcome<R> | Promise<TransactionOutcome<R>>;

interface Settings {
  dir: string;
  compactEvery: number;
}

/**
 * Which store's transaction work is running, where waiting for that store's queue would deadlock. One for
 * all stores: Node 20 calls every AsyncLocalStorage that ever ran on each promise the process makes, so one
 * per store made a process that opens many (a test run opens hundreds) slower with each store it opened.
 */
const workingStore = new AsyncLocalStorage<DurableStore>();

class DurableStore implements Store {
  readonly #settings: Settings;
  readonly #state: MemoryState;
  readonly #journal: Journal;
  readonly #lock: DataFolderLock;
  #sequence: number;
  #snapshotSequence: number | undefined;
  #journalEntries: number;
  #nextCompactionAt: number;
  #compactionQueued = false;
  #queue: Promise<unknown> = Promise.resolve();
  #closing: Promise<void> | undefined;
  #failure: Error | undefined;

  constructor(
    settings: Settings,
    state: MemoryState,
    journal: Journal,
    lock: DataFolderLock,
    recovered: { sequence: number; snapshotSequence: number | undefined; journalEntries: number },
  ) {
    this.#settings = settings;
    this.#state = state;
    this.#journal = journal;
    this.#lock = lock;
    this.#sequence = recovered.sequence;
    this.#snapshotSequence = recovered.snapshotSequence;
    this.#journalEntries = recovered.journalEntries;
    this.#nextCompactionAt = settings.compactEvery;
  }

  get sequence(): number {
    return this.#sequence;
  }

  get(collection: string, uuid: string): StoredEntity | undefined {
    return this.#state.get(collection, uuid);
  }

  all(collection: string): IterableIterator<StoredEntity> {
    return this.#state.all(collection);
  }

  count(collection: string): number {
    return this.#state.count(collection);
  }

  byIndex(collection: string, index: string, key: string): StoredEntity[] {
    return this.#state.byIndex(collection, index, key);
  }

  transaction<R>(work: TransactionWork<R>): Promise<R> {
    const refusal = this.#refusal('transaction');
    if (refusal !== undefined) return Promise.reject(refusal);
    return this.#enqueue(() => this.#runTransaction(work));
  }

  compact(): Promise<void> {
    const refusal = this.#refusal('compact');
    if (refusal !== undefined) return Promise.reject(refusal);
    return this.#enqueue(() => this.#compactNow());
  }

  close(): Promise<void> {
    this.#closing ??= this.#enqueue(async () => {
      try {
        await this.#journal.close();
      } finally {
        await this.#lock.release();
      }
    });
    return this.#closing;
  }

  #refusal(operation: string): StoreError | undefined {
    if (this.#closing !== undefined) {
      return new StoreError(
        'STORE_CLOSED',
        `Cannot ${operation}: the store for ${this.#settings.dir} is closed`,
      );
    }
    if (workingStore.getStore() === this) {
      return new StoreError(
        'NESTED_TRANSACTION',
        `Cannot ${operation} from inside a transaction: it would wait for itself. Return the mutations instead.`,
      );
    }
    return undefined;
  }

  /** Runs tasks one at a time in call order; a failed task does not stop the ones behind it. */
  #enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #runTransaction<R>(work: TransactionWork<R>): Promise<R> {
    this.#throwIfFailed();
    const { mutations, result } = await workingStore.run(this, () => work(this));
    if (!Array.isArray(mutations)) {
      throw new StoreError('INVALID_MUTATION', 'A transaction must return { mutations: Mutation[], result }');
    }
    if (mutations.length === 0) return result;

    const sequence = this.#sequence + 1;
    const entry = JSON.stringify({ seq: sequence, mutations }) + '\n';
    // Applying the parsed line, not the caller's objects, keeps memory identical to what a replay rebuilds
    // and unaffected by later changes to the caller's objects.
    const written = parseMutations((JSON.parse(entry) as { mutations: unknown }).mutations, 'transaction');
    const prepared = this.#state.prepare(written);
    try {
      await this.#journal.append(entry);
    } catch (error) {
      this.#failure = error as Error;
      throw this.#failedError();
    }
    this.#state.apply(prepared);
    this.#sequence = sequence;
    this.#journalEntries += 1;
    this.#queueCompactionIfDue();
    return result;
  }

  #queueCompactionIfDue(): void {
    if (this.#compactionQueued || this.#journalEntries < this.#nextCompactionAt) return;
    this.#compactionQueued = true;
    // Queued behind the transaction rather than inside it, so the caller is acknowledged without waiting.
    void this.#enqueue(async () => {
      this.#compactionQueued = false;
      if (this.#closing !== undefined || this.#failure !== undefined) return;
      try {
        await this.#compactNow();
      } catch (error) {
        // The journal still holds everything, so this costs only recovery time; retry after another batch.
        this.#nextCompactionAt = this.#journalEntries + this.#settings.compactEvery;
        process.emitWarning(
          `Snapshot of ${this.#settings.dir} failed, the journal keeps growing: ${(error as Error).message}`,
          'StoreCompactionWarning',
        );
      }
    });
  }

  async #compactNow(): Promise<void> {
    this.#throwIfFailed();
    if (this.#journalEntries === 0 && this.#snapshotSequence === this.#sequence) return;
    await writeSnapshot(this.#settings.dir, this.#sequence, this.#state);
    this.#snapshotSequence = this.#sequence;
    try {
      await this.#journal.reset();
    } catch (error) {
      this.#failure = error as Error;
      throw this.#failedError();
    }
    this.#journalEntries = 0;
    this.#nextCompactionAt = this.#settings.compactEvery;
  }

  #throwIfFailed(): void {
    if (this.#failure !== undefined) throw this.#failedError();
  }

  #failedError(): StoreError {
    return new StoreError(
      'STORE_FAILED',
      `The journal of ${this.#settings.dir} could not be written (${this.#failure?.message}); ` +
        'no further transactions are accepted. Close and reopen the store to recover.',
      { cause: this.#failure },
    );
  }
}

function normaliseOptions(options: StoreOptions): Settings & { fsync: boolean } {
  if (typeof options.dir !== 'string' || options.dir === '') {
    throw new StoreError('INVALID_OPTIONS', 'dir must name the data folder');
  }
  const compactEvery = options.compactEvery ?? 1000;
  if (!Number.isSafeInteger(compactEvery) || compactEvery < 1) {
    throw new StoreError('INVALID_OPTIONS', `compactEvery must be a positive integer, got ${compactEvery}`);
  }
  return { dir: resolve(options.dir), compactEvery, fsync: options.fsync ?? true };
}

/** Opens (creating or seeding if needed) the data folder and recovers its state. */
export async function openStore(options: StoreOptions): Promise<Store> {
  const settings = normaliseOptions(options);
  const { dir } = settings;
  const state = new MemoryState(options.indexes ?? []);
  await mkdir(dir, { recursive: true, mode: dataFolderMode });
  const lock = await acquireLock(dir);
  try {
    await removeUnfinishedSnapshots(dir);
    const applyOne = (mutation: Mutation): void => state.apply(state.prepare([mutation]));
    let snapshotSequence = await loadSnapshot(dir, applyOne);
    let sequence = snapshotSequence ?? 0;

    const journalPath = join(dir, journalFile);
    const { entries } = await recoverJournal(journalPath, (entry, line) => {
      // Entries the snapshot already holds remain when a crash hit between snapshot and journal reset.
      if (snapshotSequence !== undefined && entry.seq <= snapshotSequence) return;
      if (entry.seq !== sequence + 1) {
        throw new StoreError(
          'JOURNAL_CORRUPT',
          `Journal ${journalPath} line ${line} holds transaction ${entry.seq} but ${sequence + 1} was expected: ` +
            'transactions are missing. Restore the data folder from a backup.',
        );
      }
      state.apply(state.prepare(entry.mutations));
      sequence = entry.seq;
    });

    if (snapshotSequence === undefined && entries === 0 && options.seed !== undefined) {
      await seed(dir, options.seed);
      snapshotSequence = await loadSnapshot(dir, applyOne);
    }

    const journal = await Journal.open(journalPath, settings.fsync);
    return new DurableStore(settings, state, journal, lock, {
      sequence,
      snapshotSequence,
      journalEntries: entries,
    });
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/** Writes the seed straight into a snapshot at sequence 0; it is then loaded like any other snapshot. */
async function seed(dir: string, seedMutations: () => Mutation[]): Promise<void> {
  const seeded = new MemoryState([]);
  const mutations = seedMutations();
  if (!Array.isArray(mutations)) {
    throw new StoreError('INVALID_OPTIONS', 'seed() must return an array of mutations');
  }
  seeded.apply(
    seeded.prepare(mutations.map((mutation, index) => parseMutation(mutation, `seed mutation ${index}`))),
  );
  await writeSnapshot(dir, 0, seeded);
}
