import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

/** The repository root, where `.meshrc.yaml` is and `mesh build` writes `.mesh/`. */
export const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

const meshDir = join(repositoryRoot, '.mesh');
/** What `mesh start` runs and what the seam reads. */
const buildOutputs = [join(meshDir, 'index.js'), join(meshDir, 'schema.graphql')];
/** What the build reads; a newer one makes the output stale. */
const contractFile = join(repositoryRoot, 'openapi', 'legacy-service.yaml');
const buildInputs = [join(repositoryRoot, '.meshrc.yaml'), contractFile];
const meshCodeDir = join(repositoryRoot, 'gateway', 'mesh');

/**
 * A package's command script (its `bin` entry), to run with this Node: `npx` would add a second process and
 * npm's notices.
 */
export function packageBinPath(packageName: string, command: string): string {
  const require = createRequire(import.meta.url);
  const packageJsonPath = require.resolve(`${packageName}/package.json`);
  const { bin } = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as { bin: Record<string, string> };
  const script = bin[command];
  if (!script) throw new Error(`${packageJsonPath} names no \`${command}\` command.`);
  return join(dirname(packageJsonPath), script);
}

/** The Mesh CLI's script. */
export function meshCliPath(): string {
  return packageBinPath('@graphql-mesh/cli', 'mesh');
}

/** Runs a Node script to its end; rejects with its output, under `name`, when it fails or times out. */
export function runNodeScript(
  name: string,
  args: string[],
  options: { cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: options.timeoutMs,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${name} failed (${code ?? signal}):\n${output}`)),
    );
  });
}

/**
 * Runs `mesh build --fileType js` in `dir` (default: the repository root), writing `dir/.mesh/`;
 * rejects with Mesh's output when it fails.
 */
export function buildMesh(timeoutMs = 120_000, dir = repositoryRoot): Promise<void> {
  return runNodeScript('mesh build', [meshCliPath(), 'build', '--fileType', 'js'], { cwd: dir, timeoutMs });
}

export interface IsolatedBuildOptions {
  /** The contract to build from instead of `openapi/legacy-service.yaml` (its text). */
  contract?: string;
  /** The Mesh configuration to build with instead of `.meshrc.yaml` (its text). */
  meshrc?: string;
  timeoutMs?: number;
}

/**
 * Builds the org graph in a new temporary folder and returns it (Mesh's output is in its `.mesh/`):
 * a copy of `.meshrc.yaml`, the contract and `gateway/mesh/`, with the repository's `node_modules`
 * linked. The repository's own `.mesh/` is never touched, so a failing build (Mesh deletes its
 * output folder first) cannot break other tests. Remove the folder when done.
 */
export async function buildMeshIsolated(options: IsolatedBuildOptions = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'org-graph-build-'));
  await mkdir(join(dir, 'openapi'));
  const meshrc = options.meshrc ?? (await readFile(join(repositoryRoot, '.meshrc.yaml'), 'utf8'));
  await writeFile(join(dir, '.meshrc.yaml'), meshrc);
  await cp(meshCodeDir, join(dir, 'gateway', 'mesh'), { recursive: true });
  const contract = options.contract ?? (await readFile(contractFile, 'utf8'));
  await writeFile(join(dir, 'openapi', 'legacy-service.yaml'), contract);
  await symlink(join(repositoryRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  await buildMesh(options.timeoutMs, dir);
  return dir;
}

async function modifiedAt(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Whether `.mesh/` is missing, half-written, or older than one of the files the build reads. */
async function buildIsStale(): Promise<boolean> {
  const outputTimes = await Promise.all(buildOutputs.map(modifiedAt));
  if (outputTimes.some((time) => time === undefined)) return true;
  const builtAt = Math.min(...(outputTimes as number[]));
  const meshCode = (await readdir(meshCodeDir)).map((name) => join(meshCodeDir, name));
  const inputTimes = await Promise.all([...buildInputs, ...meshCode].map(modifiedAt));
  return inputTimes.some((time) => time !== undefined && time > builtAt);
}

/**
 * Builds `.mesh/` unless an up-to-date build is there: for tests and tools run without the build
 * script first. Test files running in parallel share one build: a lock folder makes the others wait
 * instead of building over it (a failing build deletes `.mesh/`).
 */
export async function ensureMeshBuild(timeoutMs = 120_000): Promise<void> {
  const lock = join(
    tmpdir(),
    `org-gateway-mesh-build-${createHash('sha256').update(repositoryRoot).digest('hex').slice(0, 16)}`,
  );
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const lockedAt = await modifiedAt(lock);
      // A lock older than any build left by a process that died while building.
      if (lockedAt !== undefined && Date.now() - lockedAt > timeoutMs)
        await rm(lock, { recursive: true, force: true });
      if (Date.now() > deadline)
        throw new Error(`Waited ${timeoutMs} ms for another Mesh build (lock ${lock}).`);
      await delay(100);
    }
  }
  try {
    if (await buildIsStale()) await buildMesh(timeoutMs);
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}
