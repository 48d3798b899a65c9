import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './processes.js';

const run = promisify(execFile);
const script = join(repoRoot, 'scripts', 'embedded-postgres.ts');

/**
 * A data folder for `npm start`'s embedded Postgres that is already created, for the tests that start `npm start`
 * for something else than its first start: creating it (PGlite's initdb) costs about 4 CPU-s, a copy a fraction.
 * `test/start-command.test.ts` still lets `npm start` create its own.
 *
 * The template is made by the product's own step (`scripts/embedded-postgres.ts --create`, as its first start
 * runs it), once: it is kept in the temporary folder under a key of what decides its content (that script, PGlite's
 * version, Node's) and moved into place whole, so a file running beside finds it complete or not at all.
 *
 * @example
 * const postgresDir = join(dataDir, 'gateway-postgres');
 * await createdEmbeddedPostgresDir(postgresDir);
 * spawn('npm', ['start'], { env: startEnv({ EMBEDDED_POSTGRES_DIR: postgresDir, … }) });
 */
export async function createdEmbeddedPostgresDir(target: string): Promise<void> {
  const pglite = join(repoRoot, 'node_modules', '@electric-sql', 'pglite', 'package.json');
  const key = createHash('sha256')
    .update(await readFile(script))
    .update(await readFile(pglite))
    .update(process.version)
    .digest('hex')
    .slice(0, 16);
  const template = join(tmpdir(), `test-embedded-postgres-${key}`);
  if (!existsSync(template)) {
    const building = await mkdtemp(`${template}-building-`);
    await run(
      process.execPath,
      ['--no-wasm-tier-up', '--liftoff-only', '--import', 'tsx', script, '--create'],
      { cwd: repoRoot, env: { ...process.env, EMBEDDED_POSTGRES_DIR: join(building, 'data') } },
    );
    // Another file may have moved its own into place first: theirs is the same, and this one goes.
    await rename(building, template).catch(() => rm(building, { recursive: true, force: true }));
  }
  await run('cp', ['-a', '--reflink=auto', join(template, 'data'), target]);
}
