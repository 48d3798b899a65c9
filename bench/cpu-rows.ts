import { spawn } from 'node:child_process';
import { repoRoot } from '../test/processes.js';

/**
 * The CPU rows of issue 16's table come from `npm run bench:cpu` (`bench/cpu-cost.ts`): `npm run bench`
 * runs it as a child and reads the table it prints, so both commands report the same figures.
 */

export type CpuRow = Record<string, string | number>;

/** Rows of a table printed by `console.table`: the header line names the columns. */
export function parseConsoleTable(text: string): CpuRow[] {
  const lines = text
    .split('\n')
    .filter((line) => line.startsWith('│'))
    .map((line) =>
      line
        .split('│')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  const [header, ...rows] = lines;
  if (!header) return [];
  return rows.map((cells) =>
    Object.fromEntries(
      header.flatMap((column, index) => {
        if (column === '(index)') return [];
        const cell = (cells[index] ?? '').replace(/^'(.*)'$/, '$1');
        return [[column, cell !== '' && Number.isFinite(Number(cell)) ? Number(cell) : cell]];
      }),
    ),
  );
}

/** Runs `bench/cpu-cost.ts` with these arguments and returns its rows (rejects with its output on failure). */
export function runCpuBench(args: string[], timeoutMs = 600_000): Promise<CpuRow[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/cpu-cost.ts', ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      const rows = parseConsoleTable(stdout);
      if (code === 0 && rows.length > 0) resolve(rows);
      else reject(new Error(`bench:cpu failed (${code ?? signal}):\n${stdout}${stderr}`));
    });
  });
}
