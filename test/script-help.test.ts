import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './processes.js';

/**
 * Every npm script that takes options answers `--help` with its usage and exit 0, and starts nothing: `npm start
 * -- --help` started the stack, and `generate-data -- --help` said "Unknown option".
 */

function npmRun(
  script: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      cwd: repoRoot,
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

const scripts: [script: string, usage: RegExp][] = [
  ['start', /^Usage: npm start/],
  ['generate-data', /^Usage: npm run generate-data -- --out FOLDER/],
  ['compare', /^Usage:\n {2}npm run compare -- --units/],
  ['token', /^Usage:\n {2}npm run token -- USERNAME/],
  ['realm', /^Usage: npm run realm/],
  ['bench', /^Usage: npm run bench/],
  ['os2mo-ui:trial', /^Usage: npm run os2mo-ui:trial -- SOURCE/],
];

describe('--help', () => {
  it.each(scripts)(
    'npm run %s -- --help prints its usage and exits 0',
    async (script, usage) => {
      const run = await npmRun(script, ['--help']);
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(usage);
      expect(run.code).toBe(0);
    },
    60_000,
  );

  it.each([
    ['start', /npm start takes no options \(got --port 9000\)/],
    ['generate-data', /Unknown option '--port'/],
  ])(
    'npm run %s with an unknown option says so, with the usage, and fails',
    async (script, problem) => {
      const run = await npmRun(script, ['--port', '9000']);
      expect(run.stderr).toMatch(problem);
      expect(run.stderr).toContain('Usage:');
      expect(run.code).not.toBe(0);
    },
    60_000,
  );
});
