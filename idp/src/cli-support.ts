import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Runs one of the idp/src entry points with tsx, as `npm run …` does; for the CLI tests. */

const TSX = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runEntry(entry: string, args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [fileURLToPath(new URL(entry, import.meta.url)), ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
