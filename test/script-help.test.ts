import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './processes.js';

/**
 * Every npm script that takes options answers `--help` with its usage and exit 0, and starts nothing: `npm start
 * -- --help` started the stack, and `generate-data -- --help` said "Unknown option".
 */

function collect(child: ChildProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function npmRun(script: string, args: string[]) {
  return collect(
    spawn('npm', ['run', '--silent', script, '--', ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

const packageScripts = (
  JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;

/**
 * The file `npm run <script>` runs with tsx, run by node with tsx's loader as that would: one process where npm,
 * its shell, and tsx's command (which starts node again) are four. How npm hands `-- --help` on is
 * checked by the scripts run through npm.
 */
function runAsNpmWould(script: string, args: string[]) {
  const entry = /^(?:exec )?tsx (\S+\.ts)$/.exec(packageScripts[script] ?? '')?.[1];
  if (entry === undefined) throw new Error(`npm run ${script} is not "tsx FILE": ${packageScripts[script]}`);
  return collect(
    spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

/** Whether the case runs through npm: `start` (npm runs it with `exec`) and one of those npm runs with tsx alone. */
type Road = 'npm' | 'node';
const scripts: [script: string, usage: RegExp, road: Road][] = [
  ['start', /^Usage: npm start/, 'npm'],
  ['generate-data', /^Usage: npm run generate-data -- --out FOLDER/, 'npm'],
  ['compare', /^Usage:\n {2}npm run compare -- --units/, 'node'],
  ['token', /^Usage:\n {2}npm run token -- USERNAME/, 'node'],
  ['realm', /^Usage: npm run realm/, 'node'],
  ['bench', /^Usage: npm run bench/, 'node'],
  ['build', /^Usage: npm run build \[-- --no-check\]/, 'node'],
  ['os2mo-ui:trial', /^Usage: npm run os2mo-ui:trial -- SOURCE/, 'node'],
  ['test', /^Usage: npm test \[-- <vitest options>\]/, 'node'],
];

describe('--help', () => {
  it.each(scripts)(
    'npm run %s -- --help prints its usage and exits 0 (started by %s)',
    async (script, usage, road) => {
      const run = await (road === 'npm' ? npmRun : runAsNpmWould)(script, ['--help']);
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
