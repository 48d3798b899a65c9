import { spawnSync } from 'node:child_process';
import { repoRoot } from '../test/processes.js';

/**
 * The gateway entry point the benchmarks run: built by `npm run build` and started with node alone, as the
 * image runs it, so the figures carry no tsx loader (about 40 MB of memory, and its start-up compiling). Built once per run.
 */
/**
 * The node flags the gateway runs with wherever it is deployed (the image's CMD and docker-compose.yml say the
 * same): a young generation of 8 MB semi-spaces instead of V8's 16 MB. Measured with
 * `npx tsx bench/memory-profile.ts --variant default= --variant semi8=--max-semi-space-size=8 …` (reference
 * query and `/service` read at concurrency 8, alternating rounds): peak resident memory 158–165 MB → 143–146 MB,
 * CPU per query unchanged within noise (1.45 / 2.07 against 1.38 / 1.42 / 1.46 ms); 4 MB semi-spaces gave
 * 134 MB but +35 % CPU per query and +55 % per read. It must be given to node at start (V8 sizes the young
 * generation once), so it cannot be set from main.ts as the old generation's growth is.
 */
export const gatewayNodeFlags = ['--max-semi-space-size=8'];

let entry: string | undefined;
/**
 * Builds with `--no-check`: the same JavaScript in a third of the CPU time (tsc checks no types; `npm run
 * typecheck` does, in `npm test`).
 */
export function builtGatewayEntry(): string {
  if (entry) return entry;
  const built = spawnSync('npm', ['run', '--silent', 'build', '--', '--no-check'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`npm run build failed:\n${built.stdout}\n${built.stderr}`);
  entry = 'gateway/dist/main.js';
  return entry;
}
