import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { journalText, useScratchFolders } from './scratch-folders.js';

const scratch = useScratchFolders();
const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
const writerScript = fileURLToPath(new URL('./crash-writer.ts', import.meta.url));
const acksBeforeKill = 200;

interface WriterRun {
  acks: number[];
  signal: NodeJS.Signals | null;
  stderr: string;
}

/**
 * Runs crash-writer.ts on `dir` and sends SIGKILL once it has acknowledged enough transactions and, if
 * `killOnFile` is given, the data folder then reports a change to a file whose name matches it.
 */
function runWriter(dir: string, mode: 'plain' | 'compaction', killOnFile?: RegExp): Promise<WriterRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', writerScript, dir, mode], {
      cwd: repositoryRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const acks: number[] = [];
    let stderr = '';
    let partial = '';
    let killed = false;
    const kill = () => {
      if (!killed && acks.length >= acksBeforeKill) killed = child.kill('SIGKILL');
    };
    const watcher =
      killOnFile === undefined
        ? undefined
        : watch(dir, (_event, file) => {
            if (file !== null && killOnFile.test(file)) kill();
          });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const ack = /^ack (\d+)$/.exec(line);
        if (ack !== null) acks.push(Number(ack[1]));
        if (killOnFile === undefined) kill();
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (_code, signal) => {
      watcher?.close();
      resolve({ acks, signal, stderr });
    });
  });
}

/** Reopens the folder and checks that every acknowledged transaction survived, whole. */
async function expectEveryAckDurable(dir: string, run: WriterRun): Promise<void> {
  expect(run.signal, `the writer was not killed; stderr: ${run.stderr}`).toBe('SIGKILL');
  expect(run.acks.length).toBeGreaterThanOrEqual(acksBeforeKill);
  const store = await scratch.open({ dir });
  const counter = store.get('progress', 'counter')?.n as number;
  const missing = run.acks.filter((n) => store.get('acks', `ack-${n}`)?.n !== n);
  expect(missing).toEqual([]);
  expect(counter).toBeGreaterThanOrEqual(Math.max(...run.acks));
  // Both mutations of a transaction survive together, or neither does.
  expect(store.count('acks')).toBe(counter);
  expect(store.sequence).toBe(counter);
  await store.close();
}

/** Which compaction step the kill interrupted, as the files show it, or undefined if none was under way. */
async function interruptedCompactionStep(dir: string): Promise<string | undefined> {
  if ((await readdir(dir)).some((name) => /^snapshot-\d+\.ndjson\.tmp$/.test(name))) return 'writing';
  const header = (await readFile(join(dir, 'snapshot.ndjson'), 'utf8')).split('\n', 1)[0] ?? '';
  const firstEntry = (await journalText(dir)).split('\n', 1)[0] ?? '';
  if (firstEntry === '') return undefined;
  const snapshotSeq = (JSON.parse(header) as { seq: number }).seq;
  return (JSON.parse(firstEntry) as { seq: number }).seq <= snapshotSeq ? 'resetting journal' : undefined;
}

describe('crash safety (SIGKILL of a writing process)', () => {
  it('keeps every acknowledged transaction', { timeout: 60_000 }, async () => {
    const dir = await scratch.folder();

    const run = await runWriter(dir, 'plain');

    await expectEveryAckDurable(dir, run);
  });

  it('keeps every acknowledged transaction when killed during compaction', { timeout: 120_000 }, async () => {
    const dir = await scratch.folder();
    const interrupted: string[] = [];
    // Each round continues the same folder: killed as a snapshot starts being written, or as it is renamed.
    for (const trigger of [/\.tmp$/, /^snapshot\.ndjson$/, /\.tmp$/, /^snapshot\.ndjson$/]) {
      const run = await runWriter(dir, 'compaction', trigger);
      interrupted.push((await interruptedCompactionStep(dir)) ?? 'none');
      await expectEveryAckDurable(dir, run);
    }
    expect(interrupted).toContain('writing');
    expect(interrupted).toContain('resetting journal');
  });
});
