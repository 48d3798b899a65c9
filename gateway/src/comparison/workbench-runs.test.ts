import { describe, expect, it } from 'vitest';
import { GatewayError } from '../errors/gateway-error.js';
import { workbenchRuns, type WorkbenchRunKey } from './workbench-runs.js';

const key: WorkbenchRunKey = {
  route: 'compare',
  arguments: { kind: 'org_units', uuids: ['a', 'b'], version: 'v2' },
  day: '2026-06-01',
  roles: ['admin'],
};

/** A run that counts how often it really ran and answers with that count. */
function countingWork() {
  let runs = 0;
  return {
    work: () => Promise.resolve(++runs),
    get runs() {
      return runs;
    },
  };
}

function manualClock(start = Date.parse('2026-06-01T12:00:00Z')) {
  let now = start;
  return { clock: () => new Date(now), advance: (ms: number) => (now += ms) };
}

describe('workbenchRuns', () => {
  it('keeps an answer for the same key and data version', async () => {
    const runs = workbenchRuns();
    const counter = countingWork();
    expect(await runs.run(key, 'x.1', counter.work)).toEqual({ result: 1, cache: 'miss' });
    expect(await runs.run({ ...key, roles: ['admin'] }, 'x.1', counter.work)).toEqual({
      result: 1,
      cache: 'hit',
    });
    expect(counter.runs).toBe(1);
  });

  it('runs again when any part of the key or the data version changes', async () => {
    const runs = workbenchRuns();
    const counter = countingWork();
    await runs.run(key, 'x.1', counter.work);
    const changed: [string, WorkbenchRunKey, string][] = [
      ['data version', key, 'x.2'],
      ['route', { ...key, route: 'coverage' }, 'x.1'],
      ['UUIDs', { ...key, arguments: { ...key.arguments, uuids: ['a'] } }, 'x.1'],
      ['UUID order', { ...key, arguments: { ...key.arguments, uuids: ['b', 'a'] } }, 'x.1'],
      ['version', { ...key, arguments: { ...key.arguments, version: 'v1' } }, 'x.1'],
      ['subject kind', { ...key, arguments: { ...key.arguments, kind: 'employees' } }, 'x.1'],
      ['day', { ...key, day: '2026-06-02' }, 'x.1'],
      ['roles', { ...key, roles: ['admin', 'owner'] }, 'x.1'],
    ];
    for (const [part, changedKey, version] of changed) {
      const before = counter.runs;
      expect((await runs.run(changedKey, version, counter.work)).cache, part).toBe('miss');
      expect(counter.runs, part).toBe(before + 1);
    }
  });

  it('orders roles and argument names itself, so equal keys written differently share an answer', async () => {
    const runs = workbenchRuns();
    const counter = countingWork();
    await runs.run({ ...key, roles: ['owner', 'admin'] }, 'x.1', counter.work);
    const reordered: WorkbenchRunKey = {
      route: 'compare',
      arguments: { version: 'v2', uuids: ['a', 'b'], kind: 'org_units' },
      day: '2026-06-01',
      roles: ['admin', 'owner'],
    };
    expect((await runs.run(reordered, 'x.1', counter.work)).cache).toBe('hit');
  });

  it('keeps an answer without a data version only for the time to live', async () => {
    const { clock, advance } = manualClock();
    const runs = workbenchRuns({ clock, unversionedTtlMs: 60_000 });
    const counter = countingWork();
    await runs.run(key, null, counter.work);
    advance(59_999);
    expect((await runs.run(key, null, counter.work)).cache).toBe('hit');
    advance(1);
    expect((await runs.run(key, null, counter.work)).cache).toBe('miss');
    expect(counter.runs).toBe(2);
  });

  it('keeps an answer with a data version past the time to live', async () => {
    const { clock, advance } = manualClock();
    const runs = workbenchRuns({ clock, unversionedTtlMs: 60_000 });
    const counter = countingWork();
    await runs.run(key, 'x.1', counter.work);
    advance(3_600_000);
    expect((await runs.run(key, 'x.1', counter.work)).cache).toBe('hit');
  });

  it('runs again when asked to refresh', async () => {
    const runs = workbenchRuns();
    const counter = countingWork();
    await runs.run(key, 'x.1', counter.work);
    expect(await runs.run(key, 'x.1', counter.work, true)).toEqual({ result: 2, cache: 'miss' });
    expect(await runs.run(key, 'x.1', counter.work)).toEqual({ result: 2, cache: 'hit' });
  });

  it('runs one at a time: the same run is joined, another is refused with 503 MIGRATION_BUSY', async () => {
    const runs = workbenchRuns();
    let finish!: (value: string) => void;
    let started = 0;
    const slow = () => {
      started += 1;
      return new Promise<string>((resolve) => (finish = resolve));
    };
    const first = runs.run(key, 'x.1', slow);
    const joined = runs.run(key, 'x.1', slow);
    const other = runs.run({ ...key, day: '2026-06-02' }, 'x.1', slow);
    await expect(other).rejects.toBeInstanceOf(GatewayError);
    await other.catch((error: GatewayError) => {
      expect(error.status).toBe(503);
      expect(error.code).toBe('MIGRATION_BUSY');
      expect(error.headers['Retry-After']).toBe('5');
    });
    finish('report');
    expect(await first).toEqual({ result: 'report', cache: 'miss' });
    expect(await joined).toEqual({ result: 'report', cache: 'joined' });
    expect(started).toBe(1);
    // Once the run is over the workbench takes the next one.
    expect((await runs.run({ ...key, day: '2026-06-02' }, 'x.1', () => Promise.resolve('next'))).cache).toBe(
      'miss',
    );
  });

  it('keeps no failed run, and a failure frees the workbench', async () => {
    const runs = workbenchRuns();
    await expect(runs.run(key, 'x.1', () => Promise.reject(new Error('backend down')))).rejects.toThrow(
      'backend down',
    );
    expect(await runs.run(key, 'x.1', () => Promise.resolve('ok'))).toEqual({ result: 'ok', cache: 'miss' });
  });

  it('forgets the oldest answer past its size', async () => {
    const runs = workbenchRuns({ maxEntries: 2 });
    const counter = countingWork();
    for (const day of ['2026-06-01', '2026-06-02', '2026-06-03'])
      await runs.run({ ...key, day }, 'x.1', counter.work);
    expect((await runs.run({ ...key, day: '2026-06-03' }, 'x.1', counter.work)).cache).toBe('hit');
    expect((await runs.run({ ...key, day: '2026-06-01' }, 'x.1', counter.work)).cache).toBe('miss');
  });
});
