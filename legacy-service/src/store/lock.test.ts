import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdir, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from './index.js';
import { useScratchFolders } from './scratch-folders.js';

const scratch = useScratchFolders();

async function writeLock(dir: string, holder: Record<string, unknown>): Promise<void> {
  await writeFile(join(dir, 'LOCK'), JSON.stringify(holder));
}

async function pidOfFinishedProcess(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  if (child.pid === undefined) throw new Error('the helper process did not start');
  return child.pid;
}

describe('data folder lock', () => {
  it('refuses a second open of the same folder while the first is open, and allows it after close', async () => {
    const dir = await scratch.folder();
    const first = await scratch.open({ dir });

    await expect(openStore({ dir })).rejects.toMatchObject({ code: 'STORE_LOCKED' });
    await expect(openStore({ dir })).rejects.toThrow(`Data folder ${dir} is already open in this process`);
    expect(await readdir(dir)).toContain('LOCK');

    await first.close();
    expect(await readdir(dir)).not.toContain('LOCK');
    const second = await scratch.open({ dir });
    expect(second.sequence).toBe(0);
  });

  it('refuses a folder locked by another running process, naming it', async () => {
    const dir = await scratch.folder();
    await writeLock(dir, { pid: process.ppid, host: hostname(), started: 0, token: 'parent' });

    await expect(openStore({ dir })).rejects.toThrow(
      `already open in process ${process.ppid} on ${hostname()}`,
    );
  });

  it('takes over the lock of a process that no longer runs', async () => {
    const dir = await scratch.folder();
    await writeLock(dir, { pid: await pidOfFinishedProcess(), host: hostname(), started: 0, token: 'gone' });

    const store = await scratch.open({ dir });

    expect(store.sequence).toBe(0);
    await expect(openStore({ dir })).rejects.toMatchObject({ code: 'STORE_LOCKED' });
  });

  it('takes over a lock left by an earlier process that had the same pid, and an unreadable lock', async () => {
    const reusedPid = await scratch.folder();
    await writeLock(reusedPid, { pid: process.pid, host: hostname(), started: 1, token: 'earlier' });
    const unreadable = await scratch.folder();
    await writeFile(join(unreadable, 'LOCK'), '');

    await expect(scratch.open({ dir: reusedPid })).resolves.toBeDefined();
    await expect(scratch.open({ dir: unreadable })).resolves.toBeDefined();
  });
});
