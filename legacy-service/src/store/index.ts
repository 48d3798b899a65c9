/**
 * The legacy service's durable in-process store: entities in memory, every transaction in a fsync'ed
 * journal before it is acknowledged, periodic snapshots. See docs/stand-in.md, "Durability", for the design.
 *
 * @example
 * const store = await openStore({ dir: 'data/legacy', indexes: [{ collection: 'orgUnits', name: 'parent', keys: (u) => [String(u.parent)] }] });
 * await store.transaction((s) => ({ mutations: [{ collection: 'orgUnits', uuid, value: { uuid, parent } }], result: uuid }));
 * store.byIndex('orgUnits', 'parent', parent);
 */
export { openStore } from './durable-store.js';
export { StoreError } from './errors.js';
export type { StoreErrorCode } from './errors.js';
export type { IndexDefinition, Mutation, Store, StoredEntity, StoreOptions } from './types.js';
