import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createUsageRecorder } from './usage-recorder.js';

const call = {
  client: 'integration',
  surface: 'service',
  endpoint: 'GET /service/o/',
  flags: 'none',
} as const;
const exported = (text: string, name: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`))
    .map((line) => line.slice(line.lastIndexOf(' ') + 1));

describe('the usage recorder', () => {
  it('exports a new series at 0 for two scrapes, so increase() over it counts its first calls', async () => {
    const registry = new Registry();
    const usage = createUsageRecorder({ registry, clients: ['integration'], windowSeconds: 86_400 });
    usage.recordCall(call);
    usage.recordCall(call);
    expect(exported(await registry.metrics(), 'gateway_usage_requests_total')).toEqual(['0']);
    expect(exported(await registry.metrics(), 'gateway_usage_requests_total')).toEqual(['0']);
    expect(exported(await registry.metrics(), 'gateway_usage_requests_total')).toEqual(['2']);
    usage.recordCall(call);
    expect(exported(await registry.metrics(), 'gateway_usage_requests_total')).toEqual(['3']);
    // The replica's own view never waits for a scrape.
    expect(usage.snapshot().calls).toMatchObject([{ ...call, count: 3 }]);
  });

  it('names only the configured clients; every other client is "other"', () => {
    const usage = createUsageRecorder({
      registry: new Registry(),
      clients: ['integration'],
      windowSeconds: 86_400,
    });
    expect(usage.clientLabel('integration')).toBe('integration');
    expect(usage.clientLabel('someone-else')).toBe('other');
    expect(usage.clientLabel(undefined)).toBe('other');
  });

  it('counts calls per client per day, keeping the window', () => {
    let now = new Date('2026-03-01T12:00:00Z');
    const usage = createUsageRecorder({
      registry: new Registry(),
      clients: ['integration'],
      windowSeconds: 2 * 86_400,
      clock: () => now,
    });
    usage.recordCall(call);
    now = new Date('2026-03-02T12:00:00Z');
    usage.recordCall(call);
    usage.recordCall({ ...call, client: 'other' });
    expect(usage.snapshot().daily).toEqual([
      { day: '2026-03-01', client: 'integration', count: 1 },
      { day: '2026-03-02', client: 'integration', count: 1 },
      { day: '2026-03-02', client: 'other', count: 1 },
    ]);
    now = new Date('2026-03-06T12:00:00Z');
    usage.recordCall(call);
    expect(usage.snapshot().daily).toEqual([{ day: '2026-03-06', client: 'integration', count: 1 }]);
  });
});
