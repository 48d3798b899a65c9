import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTsProcess, waitForHealth, type StartedProcess } from '../../test/processes.js';

const entry = 'legacy-service/src/main.ts';
const urlLine = /legacy-service: (http:\/\/[^\s]+)\/service\//;

describe('durability of the legacy service', () => {
  let dir = '';
  const running: StartedProcess[] = [];
  afterAll(async () => {
    await Promise.all(running.map((process) => process.stop('SIGKILL')));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const start = async () => {
    const service = await startTsProcess(
      entry,
      { LEGACY_DATA_DIR: dir, LEGACY_PORT: '0', LEGACY_AUTH: 'off' },
      urlLine,
    );
    running.push(service);
    await waitForHealth(`${service.url}/health`);
    return service;
  };

  it('keeps every acknowledged write across a SIGKILL in the middle of a stream of writes', async () => {
    dir = await mkdtemp(join(tmpdir(), 'legacy-crash-'));
    const first = await start();
    const acknowledged: string[] = [];
    const killAfter = 150;
    let killed = false;

    const writer = async () => {
      // Bounded: each writer stops after the kill or after 500 attempts.
      for (let attempt = 0; attempt < 500 && !killed; attempt += 1) {
        const uuid = randomUUID();
        try {
          const response = await fetch(`${first.url}/service/e/create`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ uuid, givenname: 'Crash', surname: `Test ${attempt}` }),
          });
          if (response.status === 201 && (await response.json()) === uuid) acknowledged.push(uuid);
        } catch {
          return; // the connection died with the process: this write was never acknowledged
        }
        if (acknowledged.length >= killAfter && !killed) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, writer));
    await first.stop('SIGKILL');
    expect(killed).toBe(true);
    expect(acknowledged.length).toBeGreaterThanOrEqual(killAfter);

    const second = await start();
    const missing: string[] = [];
    for (const uuid of acknowledged) {
      const response = await fetch(`${second.url}/service/e/${uuid}/`);
      if (response.status !== 200) missing.push(uuid);
    }
    expect(missing).toEqual([]);
    await second.stop();
  }, 120_000);
});
