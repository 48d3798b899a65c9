import { spawn, type ChildProcess } from 'node:child_process';
import { meshCliPath, repositoryRoot } from '../gateway/src/org-graph/mesh-build.js';
import { freePort, waitForHealth } from './processes.js';

export interface StartedServer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * A server's CLI (`args` after node, listening on `port`) run from the repository root, resolved once it
 * answers `/readiness`; if it exits or stays unready, it is stopped and the error carries its output.
 * `afterStop` runs once the process has exited (e.g. to remove its files).
 */
export async function startCliServer(options: {
  name: string;
  args: string[];
  port: number;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  afterStop?: () => Promise<void>;
}): Promise<StartedServer> {
  const child: ChildProcess = spawn(process.execPath, options.args, {
    cwd: repositoryRoot,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${options.port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    await options.afterStop?.();
  };
  try {
    await Promise.race([
      waitForHealth(`${url}/readiness`, options.timeoutMs),
      exited.then(() => Promise.reject(new Error(`${options.name} exited`))),
    ]);
  } catch (error) {
    await stop();
    throw new Error(`${options.name} did not become ready: ${String(error)}\n${output}`);
  }
  return { url, child, stop };
}

/** Mesh's own server on `.mesh/`, calling the legacy service at `legacyUrl`; ready once it answers `/readiness`. */
export async function startMeshServer(legacyUrl: string): Promise<StartedServer> {
  const port = await freePort();
  return startCliServer({
    name: "Mesh's server",
    args: [meshCliPath(), 'start', '--port', String(port)],
    port,
    env: { ...process.env, LEGACY_URL: legacyUrl },
    timeoutMs: 30_000,
  });
}
