import { StoreError } from './errors.js';
import type { IndexDefinition, Mutation, StoredEntity } from './types.js';

interface SecondaryIndex {
  definition: IndexDefinition;
  entitiesByKey: Map<string, Map<string, StoredEntity>>;
  // Keys recorded at insert time, so removal never depends on calling keys() again.
  keysByUuid: Map<string, readonly string[]>;
}

/** A mutation whose index keys are already computed, so applying it cannot fail half-way. */
export interface PreparedMutation extends Mutation {
  indexKeys: ReadonlyMap<SecondaryIndex, readonly string[]>;
}

const noIndexKeys: ReadonlyMap<SecondaryIndex, readonly string[]> = new Map();

/** The current entities per collection plus their secondary indexes; knows nothing about files. */
export class MemoryState {
  readonly #collections = new Map<string, Map<string, StoredEntity>>();
  readonly #indexes = new Map<string, Map<string, SecondaryIndex>>();

  constructor(definitions: readonly IndexDefinition[]) {
    for (const definition of definitions) {
      let byName = this.#indexes.get(definition.collection);
      if (byName === undefined) {
        byName = new Map();
        this.#indexes.set(definition.collection, byName);
      }
      if (byName.has(definition.name)) {
        throw new StoreError(
          'INVALID_OPTIONS',
          `Index "${definition.name}" is declared twice for collection "${definition.collection}"`,
        );
      }
      byName.set(definition.name, { definition, entitiesByKey: new Map(), keysByUuid: new Map() });
    }
  }

  get(collection: string, uuid: string): StoredEntity | undefined {
    return this.#collections.get(collection)?.get(uuid);
  }

  all(collection: string): IterableIterator<StoredEntity> {
    return (this.#collections.get(collection) ?? new Map<string, StoredEntity>()).values();
  }

  count(collection: string): number {
    return this.#collections.get(collection)?.size ?? 0;
  }

  byIndex(collection: string, index: string, key: string): StoredEntity[] {
    const secondary = this.#indexes.get(collection)?.get(index);
    if (secondary === undefined) {
      throw new StoreError('UNKNOWN_INDEX', `No index "${index}" is declared for collection "${collection}"`);
    }
    return [...(secondary.entitiesByKey.get(key)?.values() ?? [])];
  }

  /** Every collection with its entities, for writing a snapshot. */
  collections(): IterableIterator<[string, ReadonlyMap<string, StoredEntity>]> {
    return this.#collections.entries();
  }

  entityCount(): number {
    let total = 0;
    for (const entities of this.#collections.values()) total += entities.size;
    return total;
  }

  /** Runs the index key functions; throws (leaving the state untouched) if one fails or returns a non-string. */
  prepare(mutations: readonly Mutation[]): PreparedMutation[] {
    return mutations.map((mutation) => {
      const indexes = this.#indexes.get(mutation.collection);
      if (mutation.value === null || indexes === undefined) return { ...mutation, indexKeys: noIndexKeys };
      const indexKeys = new Map<SecondaryIndex, readonly string[]>();
      for (const secondary of indexes.values()) {
        indexKeys.set(secondary, indexKeysOf(secondary.definition, mutation.value));
      }
      return { ...mutation, indexKeys };
    });
  }

  apply(prepared: readonly PreparedMutation[]): void {
    for (const { collection, uuid, value, indexKeys } of prepared) {
      let entities = this.#collections.get(collection);
      if (value === null) {
        entities?.delete(uuid);
      } else {
        if (entities === undefined) {
          entities = new Map();
          this.#collections.set(collection, entities);
        }
        entities.set(uuid, value);
      }
      for (const secondary of this.#indexes.get(collection)?.values() ?? []) {
        removeFromIndex(secondary, uuid);
        const keys = indexKeys.get(secondary);
        if (value !== null && keys !== undefined) addToIndex(secondary, uuid, value, keys);
      }
    }
  }
}

function indexKeysOf(definition: IndexDefinition, value: StoredEntity): readonly string[] {
  const keys: unknown = definition.keys(value);
  if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'string')) {
    throw new StoreError(
      'INVALID_INDEX_KEYS',
      `Index "${definition.name}" of "${definition.collection}" must return an array of strings (entity ${value.uuid})`,
    );
  }
  return [...new Set(keys as string[])];
}

function removeFromIndex(secondary: SecondaryIndex, uuid: string): void {
  const keys = secondary.keysByUuid.get(uuid);
  if (keys === undefined) return;
  for (const key of keys) {
    const entities = secondary.entitiesByKey.get(key);
    entities?.delete(uuid);
    if (entities?.size === 0) secondary.entitiesByKey.delete(key);
  }
  secondary.keysByUuid.delete(uuid);
}

function addToIndex(
  secondary: SecondaryIndex,
  uuid: string,
  value: StoredEntity,
  keys: readonly string[],
): void {
  if (keys.length === 0) return;
  for (const key of keys) {
    let entities = secondary.entitiesByKey.get(key);
    if (entities === undefined) {
      entities = new Map();
      secondary.entitiesByKey.set(key, entities);
    }
    entities.set(uuid, value);
  }
  secondary.keysByUuid.set(uuid, keys);
}
