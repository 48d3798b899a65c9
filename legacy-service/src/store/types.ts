/** A JSON-serialisable object identified by its `uuid`. Values handed out by a Store are shared: treat them as immutable. */
export interface StoredEntity {
  uuid: string;
  [key: string]: unknown;
}

/** A put (`value` is the new entity) or a delete (`value` is null) of one entity. */
export interface Mutation {
  collection: string;
  uuid: string;
  value: StoredEntity | null;
}

/** A secondary index kept in memory: `byIndex(collection, name, key)` finds the entities whose `keys(value)` contain `key`. */
export interface IndexDefinition {
  collection: string;
  name: string;
  keys: (value: StoredEntity) => string[];
}

export interface StoreOptions {
  /** Data folder, created (recursively) if missing. */
  dir: string;
  /** Secondary indexes, rebuilt from the data on every open. */
  indexes?: IndexDefinition[];
  /** Initial data, applied and made durable only when the folder holds no data yet. */
  seed?: () => Mutation[];
  /** Journal entries before an automatic snapshot; default 1000. */
  compactEvery?: number;
  /**
   * Default true; false skips the per-transaction journal fsync: for bulk loads in benchmarks and for tests
   * whose machine never crashes under the store (the test stack, `openTestLegacy`).
   */
  fsync?: boolean;
}

export interface Store {
  get(collection: string, uuid: string): StoredEntity | undefined;
  /** Live iterator over the collection: consume it synchronously or copy it before awaiting. */
  all(collection: string): IterableIterator<StoredEntity>;
  count(collection: string): number;
  /** Entities whose index keys contain `key`; throws for an index that was not declared in the options. */
  byIndex(collection: string, index: string, key: string): StoredEntity[];
  /**
   * Runs `work` with exclusive access: transactions run one at a time in arrival order. `work` reads the
   * current state through the same Store methods and returns the mutations plus a result. The mutations
   * are appended to the journal and fsync'ed BEFORE they are applied in memory and BEFORE the promise
   * resolves. If `work` throws, nothing is written and the error propagates unchanged; the queue
   * continues with the next transaction. A transaction without mutations writes nothing.
   */
  transaction<R>(
    work: (
      store: Store,
    ) => { mutations: Mutation[]; result: R } | Promise<{ mutations: Mutation[]; result: R }>,
  ): Promise<R>;
  /** Writes a snapshot now and starts a fresh journal (also done automatically every `compactEvery` entries). */
  compact(): Promise<void>;
  /** Waits for queued transactions, then closes the journal and releases the folder lock. */
  close(): Promise<void>;
  /** Number of the last durable transaction (0 for a new or freshly seeded store). */
  readonly sequence: number;
}
