import { describe, expect, it } from 'vitest';
import { replayRounds, roundsOf } from './ui-search.js';

describe("the UI person search's direct plan", () => {
  it("groups the trace's calls by round and makes each round's calls only after the round before answered", async () => {
    const rounds = roundsOf([
      { path: '/a', round: 1 },
      { path: '/b', round: 2 },
      { path: '/c', round: 2 },
      { path: '/d', round: 3 },
    ]);
    expect(rounds).toEqual([['/a'], ['/b', '/c'], ['/d']]);
    const log: string[] = [];
    const pending = new Map<string, () => void>();
    const get = (path: string) =>
      new Promise<unknown>((resolve) => {
        log.push(`start ${path}`);
        pending.set(path, () => resolve(null));
      });
    const done = replayRounds(get, rounds);
    await Promise.resolve();
    expect(log).toEqual(['start /a']);
    pending.get('/a')!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['start /a', 'start /b', 'start /c']);
    pending.get('/b')!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toHaveLength(3);
    pending.get('/c')!();
    await new Promise((resolve) => setImmediate(resolve));
    pending.get('/d')!();
    expect(await done).toBe(4);
  });
});
