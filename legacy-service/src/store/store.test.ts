import { readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StoreError } from './index.js';
import type { IndexDefinition, Mutation, Store, StoredEntity } from './index.js';
import { journalText, useScratchFolders } from './scratch-folders.js';

const scratch = useScratchFolders();

function put(collection: string, value: StoredEntity): Mutation {
  return { collection, uuid: value.uuid, value };
}

function remove(collection: string, uuid: string): Mutation {
  return { collection, uuid, value: null };
}

function uuids(entities: Iterable<StoredEntity>): string[] {
  return [...entities].map((entity) => entity.uuid).sort();
}

const byParent: IndexDefinition = {
  collection: 'orgUnits',
  name: 'parent',
  keys: (unit) => (typeof unit.parent === 'string' ? [unit.parent] : []),
};
const byTag: IndexDefinition = {
  collection: 'orgUnits',
  name: 'tag',
  keys: (unit) => (Array.isArray(unit.tags) ? unit.tags.map(String) : []),
};

describe('transactions', () => {
  it('applies the mutations, resolves with the result and numbers each durable transaction', async () => {
    const dir = await scratch.folder();
    const store = await scratch.open({ dir });

    const result = await store.transaction(() => ({
      mutations: [
        put('orgUnits', { uuid: 'u1', name: 'Finance' }),
        put('orgUnits', { uuid: 'u2', name: 'Sales' }),
      ],
      result: 'created',
    }));
    await store.transaction((s) => ({
      mutations: [
        put('orgUnits', { ...s.get('orgUnits', 'u1'), uuid: 'u1', name: 'Treasury' }),
        remove('orgUnits', 'u2'),
      ],
      result: undefined,
    }));

    expect(result).toBe('created');
    expect(store.sequence).toBe(2);
    expect(store.get('orgUnits', 'u1')).toEqual({ uuid: 'u1', name: 'Treasury' });
    expect(store.get('orgUnits', 'u2')).toBeUndefined();
    expect(store.count('orgUnits')).toBe(1);
    expect(uuids(store.all('orgUnits'))).toEqual(['u1']);
    expect(store.count('nothing')).toBe(0);
    expect([...store.all('nothing')]).toEqual([]);
    expect((await journalText(dir)).trim().split('\n')).toHaveLength(2);
  });

  it('restores the state from the journal on reopen', async () => {
    const dir = await scratch.folder();
    const first = await scratch.open({ dir });
    for (let n = 1; n <= 5; n += 1) {
      await first.transaction(() => ({ mutations: [put('people', { uuid: `p${n}`, n })], result: n }));
    }
    await first.transaction(() => ({ mutations: [remove('people', 'p3')], result: null }));
    await first.close();

    const reopened = await scratch.open({ dir });

    expect(reopened.sequence).toBe(6);
    expect(uuids(reopened.all('people'))).toEqual(['p1', 'p2', 'p4', 'p5']);
    expect(reopened.get('people', 'p5')).toEqual({ uuid: 'p5', n: 5 });
  });

  it('restores the state from snapshot plus journal after compaction', async () => {
    const dir = await scratch.folder();
    const first = await scratch.open({ dir });
    for (let n = 1; n <= 4; n += 1) {
      await first.transaction(() => ({ mutations: [put('people', { uuid: `p${n}`, n })], result: n }));
    }
    await first.compact();
    expect((await stat(join(dir, 'journal.ndjson'))).size).toBe(0);
    await first.transaction(() => ({
      mutations: [put('people', { uuid: 'p5', n: 5 }), remove('people', 'p1')],
      result: 5,
    }));
    await first.close();

    const reopened = await scratch.open({ dir });

    expect(reopened.sequence).toBe(5);
    expect(uuids(reopened.all('people'))).toEqual(['p2', 'p3', 'p4', 'p5']);
    expect((await readFile(join(dir, 'snapshot.ndjson'), 'utf8')).split('\n')[0]).toBe(
      '{"format":1,"seq":4,"entities":4}',
    );
  });

  it('takes a snapshot automatically every compactEvery journal entries', async () => {
    const dir = await scratch.folder();
    const store = await scratch.open({ dir, compactEvery: 3 });
    for (let n = 1; n <= 7; n += 1) {
      await store.transaction(() => ({ mutations: [put('people', { uuid: `p${n}` })], result: n }));
    }
    await store.close();

    expect(
      (await journalText(dir))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).seq),
    ).toEqual([7]);
    const reopened = await scratch.open({ dir });
    expect(reopened.count('people')).toBe(7);
    expect(reopened.sequence).toBe(7);
  });

  it('writes nothing when the work throws, rethrows the same error and runs the next transaction', async () => {
    const dir = await scratch.folder();
    const store = await scratch.open({ dir });
    await store.transaction(() => ({ mutations: [put('people', { uuid: 'p1' })], result: 1 }));
    const before = await journalText(dir);
    const validationError = new Error('name is required');

    const failing = store.transaction(async () => {
      await Promise.resolve();
      throw validationError;
    });
    const failingSync = store.transaction(() => {
      throw validationError;
    });
    const next = store.transaction(() => ({ mutations: [put('people', { uuid: 'p2' })], result: 'next' }));

    await expect(failing).rejects.toBe(validationError);
    await expect(failingSync).rejects.toBe(validationError);
    expect(await next).toBe('next');
    expect(store.sequence).toBe(2);
    expect((await journalText(dir)).startsWith(before)).toBe(true);
    expect((await journalText(dir)).slice(before.length)).toMatch(/^\{"seq":2,/);
  });

  it('serialises concurrent read-modify-write transactions in arrival order', async () => {
    const dir = await scratch.folder();
    const store = await scratch.open({ dir });
    await store.transaction(() => ({ mutations: [put('counters', { uuid: 'c', value: 0 })], result: 0 }));

    const increments = Array.from({ length: 50 }, () =>
      store.transaction(async (s) => {
        const current = s.get('counters', 'c')?.value as number;
        // Yield so an unserialised implementation would let the others read the same value.
        await new Promise((resolve) => setImmediate(resolve));
        return { mutations: [put('counters', { uuid: 'c', value: current + 1 })], result: current + 1 };
      }),
    );

    expect(await Promise.all(increments)).toEqual(Array.from({ length: 50 }, (_, index) => index + 1));
    expect(store.get('counters', 'c')?.value).toBe(50);
    await store.close();
    expect((await scratch.open({ dir })).get('counters', 'c')?.value).toBe(50);
  });

  it('shows a change to readers only once its journal line is written', async () => {
    const dir = await scratch.folder();
    const store = await scratch.open({ dir });
    const journalPath = join(dir, 'journal.ndjson');
    const sightings: { visible: boolean; journaled: boolean }[] = [];
    let committed = false;
    const observe = () => {
      sightings.push({
        visible: store.get('people', 'p1') !== undefined,
        journaled: readFileSync(journalPath, 'utf8').includes('"p1"'),
      });
      if (!committed) setImmediate(observe);
    };

    setImmediate(observe);
    await store.transaction(() => ({ mutations: [put('people', { uuid: 'p1' })], result: null }));
    committed = true;

    expect(sightings.filter(({ visible, journaled }) => visible && !journaled)).toEqual([]);
    expect(sightings.some(({ visible }) => !visible)).toBe(true);
  });

  it('writes nothing for a transaction without mutations', async () => {
    const dir = await scratch.folder();
    const store = await scratch.open({ dir });

    expect(await store.transaction((s) => ({ mutations: [], result: s.count('people') }))).toBe(0);
    expect(store.sequence).toBe(0);
    expect(await journalText(dir)).toBe('');
  });

  it('rejects malformed mutations before writing anything', async () => {
    const dir = await scratch.folder();
    const store = await scratch.open({ dir });
    const attempts = [
      { collection: 'people', uuid: 'p1', value: { uuid: 'other' } },
      { collection: '', uuid: 'p1', value: null },
      { collection: 'people', uuid: 'p1', value: [] },
      { collection: 'people', uuid: 'p1' },
    ];

    for (const mutation of attempts) {
      const attempt = store.transaction(() => ({ mutations: [mutation as Mutation], result: null }));
      await expect(attempt).rejects.toMatchObject({ code: 'INVALID_MUTATION' });
    }
    await expect(
      store.transaction(() => ({ mutations: [put('people', { uuid: 'p1', big: 1n })], result: null })),
    ).rejects.toThrow(/BigInt/);
    expect(await journalText(dir)).toBe('');
    expect(store.sequence).toBe(0);
  });

  it('keeps its own copy, so later changes to the caller’s object do not leak into the store', async () => {
    const dir = await scratch.folder();
    const store = await scratch.open({ dir });
    const value = { uuid: 'p1', name: 'Ada', skipped: undefined };

    await store.transaction(() => ({ mutations: [put('people', value)], result: null }));
    value.name = 'changed afterwards';

    expect(store.get('people', 'p1')).toEqual({ uuid: 'p1', name: 'Ada' });
    expect(Object.keys(store.get('people', 'p1') ?? {})).toEqual(['uuid', 'name']);
  });

  it('refuses a transaction started inside another one instead of deadlocking', async () => {
    const dir = await scratch.folder();
    const store = await scratch.open({ dir });

    const outer = store.transaction(async (s: Store) => {
      await s.transaction(() => ({ mutations: [], result: null }));
      return { mutations: [], result: null };
    });

    await expect(outer).rejects.toMatchObject({ code: 'NESTED_TRANSACTION' });
    expect(await store.transaction(() => ({ mutations: [], result: 'still working' }))).toBe('still working');
  });

  it('close waits for queued transactions and refuses new ones', async () => {
    const dir = await scratch.folder();
    const store = await scratch.open({ dir });
    const queued = Array.from({ length: 5 }, (_, n) =>
      store.transaction(() => ({ mutations: [put('people', { uuid: `p${n}` })], result: n })),
    );

    await store.close();

    expect(await Promise.all(queued)).toEqual([0, 1, 2, 3, 4]);
    expect(store.sequence).toBe(5);
    await expect(store.transaction(() => ({ mutations: [], result: null }))).rejects.toBeInstanceOf(
      StoreError,
    );
    await expect(store.compact()).rejects.toMatchObject({ code: 'STORE_CLOSED' });
  });
});

describe('secondary indexes', () => {
  it('follow puts, replacements and deletes', async () => {
    const dir = await scratch.folder();
    const store = await scratch.open({ dir, indexes: [byParent, byTag] });
    const write = (...mutations: Mutation[]) => store.transaction(() => ({ mutations, result: null }));

    await write(
      put('orgUnits', { uuid: 'a', parent: 'root', tags: ['x', 'y', 'x'] }),
      put('orgUnits', { uuid: 'b', parent: 'root', tags: ['y'] }),
      put('orgUnits', { uuid: 'c' }),
    );
    expect(uuids(store.byIndex('orgUnits', 'parent', 'root'))).toEqual(['a', 'b']);
    expect(uuids(store.byIndex('orgUnits', 'tag', 'x'))).toEqual(['a']);
    expect(uuids(store.byIndex('orgUnits', 'tag', 'y'))).toEqual(['a', 'b']);

    await write(put('orgUnits', { uuid: 'b', parent: 'a', tags: [] }));
    expect(uuids(store.byIndex('orgUnits', 'parent', 'root'))).toEqual(['a']);
    expect(uuids(store.byIndex('orgUnits', 'parent', 'a'))).toEqual(['b']);
    expect(store.byIndex('orgUnits', 'parent', 'a')[0]).toBe(store.get('orgUnits', 'b'));
    expect(uuids(store.byIndex('orgUnits', 'tag', 'y'))).toEqual(['a']);

    await write(remove('orgUnits', 'a'));
    expect(store.byIndex('orgUnits', 'parent', 'root')).toEqual([]);
    expect(store.byIndex('orgUnits', 'tag', 'y')).toEqual([]);
    expect(store.byIndex('orgUnits', 'parent', 'a').map((unit) => unit.uuid)).toEqual(['b']);
  });

  it('are rebuilt on open, from the journal and from a snapshot', async () => {
    const dir = await scratch.folder();
    const first = await scratch.open({ dir, indexes: [byParent] });
    await first.transaction(() => ({
      mutations: [
        put('orgUnits', { uuid: 'a', parent: 'root' }),
        put('orgUnits', { uuid: 'b', parent: 'root' }),
      ],
      result: null,
    }));
    await first.compact();
    await first.transaction(() => ({
      mutations: [put('orgUnits', { uuid: 'b', parent: 'a' }), put('orgUnits', { uuid: 'c', parent: 'a' })],
      result: null,
    }));
    await first.close();

    const reopened = await scratch.open({ dir, indexes: [byParent, byTag] });

    expect(uuids(reopened.byIndex('orgUnits', 'parent', 'root'))).toEqual(['a']);
    expect(uuids(reopened.byIndex('orgUnits', 'parent', 'a'))).toEqual(['b', 'c']);
    expect(reopened.byIndex('orgUnits', 'tag', 'anything')).toEqual([]);
  });

  it('reject an undeclared index and abort a transaction whose keys are not strings', async () => {
    const dir = await scratch.folder();
    const badKeys: IndexDefinition = { collection: 'people', name: 'bad', keys: (p) => [p.age as string] };
    const store = await scratch.open({ dir, indexes: [badKeys] });

    expect(() => store.byIndex('orgUnits', 'nope', 'x')).toThrow(
      /No index "nope" is declared for collection "orgUnits"/,
    );
    await expect(
      store.transaction(() => ({ mutations: [put('people', { uuid: 'p1', age: 42 })], result: null })),
    ).rejects.toMatchObject({ code: 'INVALID_INDEX_KEYS' });
    expect(store.get('people', 'p1')).toBeUndefined();
    expect(await journalText(dir)).toBe('');
  });
});

describe('seeding', () => {
  it('applies the seed once, as durable state, and never again', async () => {
    const dir = await scratch.folder();
    let seedCalls = 0;
    const seed = () => {
      seedCalls += 1;
      return [
        put('orgUnits', { uuid: 'root', parent: null }),
        put('orgUnits', { uuid: 'a', parent: 'root' }),
      ];
    };

    const first = await scratch.open({ dir, seed, indexes: [byParent] });
    expect(first.sequence).toBe(0);
    expect(uuids(first.byIndex('orgUnits', 'parent', 'root'))).toEqual(['a']);
    await first.transaction(() => ({ mutations: [remove('orgUnits', 'a')], result: null }));
    await first.close();
    const second = await scratch.open({ dir, seed });

    expect(seedCalls).toBe(1);
    expect(uuids(second.all('orgUnits'))).toEqual(['root']);
    expect(second.sequence).toBe(1);
  });

  it('does not seed a folder that already has a journal', async () => {
    const dir = await scratch.folder();
    const first = await scratch.open({ dir });
    await first.transaction(() => ({ mutations: [put('people', { uuid: 'p1' })], result: null }));
    await first.close();

    const second = await scratch.open({ dir, seed: () => [put('people', { uuid: 'seeded' })] });

    expect(uuids(second.all('people'))).toEqual(['p1']);
  });

  // How fast is measured in bench/, not here.
  it('loads a seed of 100,000 entities and finds them again after a reopen', async () => {
    const dir = await scratch.folder();
    const seed = () =>
      Array.from({ length: 100_000 }, (_, n) =>
        put('people', {
          uuid: `person-${n}`,
          name: `Person ${n}`,
          orgUnit: `unit-${n % 500}`,
          roles: ['member'],
        }),
      );
    const byOrgUnit: IndexDefinition = {
      collection: 'people',
      name: 'orgUnit',
      keys: (p) => [String(p.orgUnit)],
    };

    const seeded = await scratch.open({ dir, seed, indexes: [byOrgUnit] });
    expect(seeded.count('people')).toBe(100_000);
    await seeded.close();
    const reopened = await scratch.open({ dir, indexes: [byOrgUnit] });

    expect(reopened.count('people')).toBe(100_000);
    expect(reopened.byIndex('people', 'orgUnit', 'unit-7')).toHaveLength(200);
  });
});
