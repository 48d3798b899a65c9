import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { meshCliPath, repositoryRoot } from '../gateway/src/org-graph/mesh-build.js';
import { waitForHealth } from './processes.js';

/** `mesh start` cannot listen on port 0 (it reads 0 as "no port" and takes 4000): ask the OS for one first. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Mesh's own server on `.mesh/`, calling the legacy service at `legacyUrl`; ready once it answers `/readiness`. */
export async function startMeshServer(legacyUrl: string) {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [meshCliPath(), 'start', '--port', String(port)], {
    cwd: repositoryRoot,
    env: { ...process.env, LEGACY_URL: legacyUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    await Promise.race([
      waitForHealth(`${url}/readiness`, 30_000),
      exited.then(() => Promise.reject(new Error('mesh start exited'))),
    ]);
  } catch (error) {
    await stop();
    throw new Error(`Mesh's server did not become ready: ${String(error)}\n${output}`);
  }
  return { url, stop, child };
}
