import { spawnSync } from 'node:child_process';
import { repoRoot } from '../test/processes.js';

/**
 * The gateway entry point the benchmarks run: built by `npm run build` and started with node alone, as the
 * image runs it, so the figures carry no tsx loader (about 40 MB of memory, and its start-up compiling). Built once per run.
 */
let entry: string | undefined;
export function builtGatewayEntry(): string {
  if (entry) return entry;
  const built = spawnSync('npm', ['run', '--silent', 'build'], { cwd: repoRoot, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`npm run build failed:\n${built.stdout}\n${built.stderr}`);
  entry = 'gateway/dist/main.js';
  return entry;
}
