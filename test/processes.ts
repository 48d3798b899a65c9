import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * A loopback port the OS chooses, for a program that cannot listen on port 0 itself and print its address
 * (`mesh start`, Postgres, nginx, `npm start`'s parts): asked for, then given back.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The environment for `npm start` (or a command its banner prints) run by a test: without anything inherited
 * that would point the stack, its database or the token command elsewhere (the suite's own ports, a
 * `DATABASE_URL`, the outer npm run's `npm_*` settings), quiet logs, and the test's own `extra`.
 */
export function startEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(IDP_|GATEWAY_|LEGACY_|DATABASE_|EMBEDDED_POSTGRES_|METRICS_TOKEN$|npm_)/.test(name))
      env[name] = value;
  }
  return { ...env, LOG_LEVEL: 'warn', ...extra };
}

/** Whether a loopback port can be listened on again (nothing holds it). */
export function isFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export interface StartedProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Runs an entry point of this repository (TypeScript with tsx; a built `.js` file with node alone) and resolves with the URL it prints on a
 * line matching `urlPattern` (servers print their address once they listen on the port the OS chose).
 */
export function startTsProcess(
  entry: string,
  env: Record<string, string>,
  urlPattern: RegExp,
  timeoutMs = 30_000,
  nodeArgs: string[] = [],
): Promise<StartedProcess> {
  const loader = entry.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...nodeArgs, ...loader, entry], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry} did not print its URL within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = urlPattern.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ child, url: match[1], output: () => output, stop });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited early (${code ?? signal}):\n${output}`));
    });
  });
}

/** The pause before the next health probe: short at first, doubling up to a quarter second. */
export function healthProbeDelay(attempt: number): number {
  return Math.min(5 * 2 ** attempt, 250);
}

/**
 * Polls a health URL until it answers 200: servers are awaited by health, never by sleeping. The probes back
 * off, so the wait does not take the CPU from the process it waits for.
 */
export async function waitForHealth(url: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (let attempt = 0; Date.now() < deadline; attempt++) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
      lastError = new Error(`status ${response.status}`);
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, healthProbeDelay(attempt)));
  }
  throw new Error(`${url} not healthy within ${timeoutMs} ms: ${String(lastError)}`);
}

/**
 * The gateway's entry point as its own process on a loopback port the OS chooses, in front of a legacy
 * service and an identity provider the test started; resolves with `url` as `127.0.0.1:{port}`.
 */
export function spawnGateway(
  legacyUrl: string,
  idp: { issuer: string; jwksUri: string },
  env: Record<string, string>,
  entry = 'gateway/src/main.ts',
  nodeArgs: string[] = [],
): Promise<StartedProcess> {
  return startTsProcess(
    entry,
    {
      GATEWAY_HOST: '127.0.0.1',
      GATEWAY_PORT: '0',
      LEGACY_URL: legacyUrl,
      IDP_ISSUER: idp.issuer,
      IDP_JWKS_URL: idp.jwksUri,
      ...env,
    },
    /listening on (127\.0\.0\.1:\d+)/,
    30_000,
    nodeArgs,
  );
}
