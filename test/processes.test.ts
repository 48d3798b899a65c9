import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { healthProbeDelay, waitForHealth } from './processes.js';

describe('waitForHealth', () => {
  it('waits longer between probes, up to a quarter second', () => {
    const delays = Array.from({ length: 10 }, (_, attempt) => healthProbeDelay(attempt));
    expect(delays.slice(0, 4)).toEqual([5, 10, 20, 40]);
    expect(Math.max(...delays)).toBe(250);
    expect(delays).toEqual([...delays].sort((a, b) => a - b));
  });

  it('probes a server that is not ready yet a few times, not in a tight loop', async () => {
    let probes = 0;
    const readyAt = Date.now() + 400;
    const server = createServer((_request, response) => {
      probes++;
      response.statusCode = Date.now() >= readyAt ? 200 : 503;
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      await waitForHealth(`http://127.0.0.1:${port}/health`, 5_000);
      expect(Date.now()).toBeGreaterThanOrEqual(readyAt);
      // Backing off from 5 ms, 400 ms takes about seven probes; a loop without pauses makes hundreds.
      expect(probes).toBeLessThan(15);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
