import type { Mutation, Store, StoredEntity } from '../store/index.js';

type ReadableStore = Pick<Store, 'get' | 'all' | 'count' | 'byIndex'>;

/**
 * The store as a write batch sees it: `get` returns what earlier items of the same request wrote, so a
 * list of edits to one object applies in order. Listings and indexes show the state before the batch.
 */
export class PendingState implements ReadableStore {
  private readonly pending = new Map<string, StoredEntity | null>();
  readonly mutations: Mutation[] = [];

  constructor(private readonly base: ReadableStore) {}

  private static key(collection: string, uuid: string): string {
    return `${collection}/${uuid}`;
  }

  get(collection: string, uuid: string): StoredEntity | undefined {
    const key = PendingState.key(collection, uuid);
    if (this.pending.has(key)) return this.pending.get(key) ?? undefined;
    return this.base.get(collection, uuid);
  }

  all(collection: string): IterableIterator<StoredEntity> {
    return this.base.all(collection);
  }

  count(collection: string): number {
    return this.base.count(collection);
  }

  byIndex(collection: string, index: string, key: string): StoredEntity[] {
    return this.base.byIndex(collection, index, key);
  }

  put(collection: string, entity: { uuid: string }): void {
    const value = entity as StoredEntity;
    this.pending.set(PendingState.key(collection, value.uuid), value);
    this.mutations.push({ collection, uuid: value.uuid, value });
  }

  remove(collection: string, uuid: string): void {
    this.pending.set(PendingState.key(collection, uuid), null);
    this.mutations.push({ collection, uuid, value: null });
  }
}
