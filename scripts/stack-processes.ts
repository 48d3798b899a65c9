import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';

/**
 * The processes of a development stack (`npm start`, `npm run os2mo-ui:trial`) and how they are kept: none
 * outlives the script that started it, a closed stdout stops the printing but not the stack, and a service
 * that dies after it was healthy is started again without taking the others with it.
 */

/** Stops a child once this process is gone: see the file itself. */
export const exitWithParentImport = new URL('./exit-with-parent.mjs', import.meta.url).href;

export interface ServiceCommand {
  /** A TypeScript entry of this repository (run with tsx), or a plain JavaScript one. */
  entry: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Node flags of this service alone. */
  nodeArgs?: readonly string[];
}

/**
 * Starts `node [--import tsx] <entry>` as a child that stops when this process is gone: its stdin is a pipe
 * held here (see `exit-with-parent.mjs`), its stdout and stderr are pipes for the caller to read.
 */
export function spawnService({ entry, cwd, env, nodeArgs = [] }: ServiceCommand): ChildProcess {
  const loader = entry.endsWith('.ts') ? ['--import', 'tsx'] : [];
  return spawn(process.execPath, [...nodeArgs, ...loader, '--import', exitWithParentImport, entry], {
    cwd,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/**
 * Makes a closed reader of `stream` (`npm start | head`, a terminal gone) end the printing rather than the
 * process: Node reports a write to a pipe without a reader as an `EPIPE` error event, which would otherwise
 * crash the script and orphan what it started. Other errors still surface.
 */
export function dropOutputWhenClosed(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
    throw error;
  });
}

export interface StackPart {
  name: string;
  entry: string;
  /** A URL that answers 200 once the part serves, or a `tcp://` address that accepts connections then. */
  health: string;
  /** Node flags of this part alone. */
  nodeArgs?: readonly string[];
  /** How long this part may take to answer its health check on start; default the stack's `healthTimeoutMs`. */
  startupMs?: number;
}

export interface StackOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Where the parts' output and the supervisor's own lines go, one line at a time. */
  print(line: string, stream: 'stdout' | 'stderr'): void;
  /** How long a part may take to answer its health check on start (default 30 s). */
  healthTimeoutMs?: number;
  /** How often a part may be started again within `restartWindowMs` before the stack gives up (3 in 60 s). */
  maxRestarts?: number;
  restartWindowMs?: number;
  /**
   * Called when the stack should stop: with 0 when a part that had served exited 0 (it was asked to stop: a
   * terminal's Ctrl+C reaches every process of the group, sometimes a service before this script), with 1 when
   * one kept dying or did not come back.
   */
  onGiveUp(code: 0 | 1): void;
}

export interface Stack {
  /** Starts every part and resolves once all are healthy; rejects when one stops or does not become healthy. */
  start(): Promise<void>;
  /** SIGTERM to every running part; resolves once all have exited. */
  stop(): Promise<void>;
}

/** Whether a TCP server accepts a connection at `address` (closed at once). */
function accepts(address: URL): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(Number(address.port), address.hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A part's health, polled until it answers 200 (or accepts a connection), the part exits, or the time is up. */
async function waitForHealth(
  part: StackPart,
  exit: () => string | undefined,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const stopped = exit();
    if (stopped !== undefined)
      throw new Error(`${part.name} stopped (${stopped}) before it answered ${part.health}`);
    try {
      const healthy = part.health.startsWith('tcp://')
        ? await accepts(new URL(part.health))
        : (await fetch(part.health)).ok;
      if (healthy) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${part.name} did not become healthy at ${part.health} within ${timeoutMs / 1000} s`);
}

/**
 * Runs `parts` as one stack. A part that stops before it was ever healthy stops the stack (its port is taken,
 * its configuration is bad: starting it again would fail the same way). A part that stops after it served —
 * the gateway killed by the kernel for memory, say — is started again on its own, and the others keep
 * serving; one that stops more than `maxRestarts` times within `restartWindowMs` stops the stack, and so does
 * one that exits 0, as a service does only when asked to stop.
 */
export function superviseStack(parts: StackPart[], options: StackOptions): Stack {
  const { cwd, env, print } = options;
  const maxRestarts = options.maxRestarts ?? 3;
  const restartWindowMs = options.restartWindowMs ?? 60_000;
  const healthTimeoutMs = options.healthTimeoutMs ?? 30_000;
  const running = new Map<string, ChildProcess>();
  const restarts = new Map<string, number[]>();
  let stopping = false;

  const lines = (name: string, stream: 'stdout' | 'stderr') => {
    let pending = '';
    return (chunk: Buffer) => {
      pending += chunk.toString();
      const complete = pending.split('\n');
      pending = complete.pop()!;
      for (const line of complete) if (line.length > 0) print(`[${name}] ${line}`, stream);
    };
  };

  const giveUp = (reason: string, code: 0 | 1 = 1) => {
    if (stopping) return;
    print(`[start] ${reason}; stopping the rest.`, 'stderr');
    options.onGiveUp(code);
  };

  const launch = (part: StackPart): ChildProcess => {
    const child = spawnService({ entry: part.entry, cwd, env, nodeArgs: part.nodeArgs });
    child.stdout!.on('data', lines(part.name, 'stdout'));
    child.stderr!.on('data', lines(part.name, 'stderr'));
    running.set(part.name, child);
    return child;
  };

  const restartWhenItDies = (part: StackPart, child: ChildProcess) => {
    child.once('exit', (code, signal) => {
      if (stopping) return;
      if (code === 0) return giveUp(`${part.name} stopped`, 0);
      const now = Date.now();
      const recent = (restarts.get(part.name) ?? []).filter((at) => now - at < restartWindowMs);
      if (recent.length >= maxRestarts) {
        giveUp(
          `${part.name} stopped (${code ?? signal}) ${recent.length + 1} times within ${restartWindowMs / 1000} s`,
        );
        return;
      }
      restarts.set(part.name, [...recent, now]);
      print(
        `[start] ${part.name} stopped (${code ?? signal}); starting it again, the others keep serving.`,
        'stderr',
      );
      const next = launch(part);
      let nextExit: string | undefined;
      next.once('exit', (nextCode, nextSignal) => (nextExit = String(nextCode ?? nextSignal)));
      waitForHealth(part, () => nextExit, part.startupMs ?? healthTimeoutMs).then(
        () => {
          print(`[start] ${part.name} is back (${part.health}).`, 'stderr');
          restartWhenItDies(part, next);
        },
        (error: Error) => giveUp(error.message),
      );
    });
  };

  return {
    async start() {
      await Promise.all(
        parts.map(async (part) => {
          const child = launch(part);
          let exit: string | undefined;
          child.once('exit', (code, signal) => (exit = String(code ?? signal)));
          await waitForHealth(part, () => exit, part.startupMs ?? healthTimeoutMs);
          restartWhenItDies(part, child);
        }),
      );
    },
    async stop() {
      stopping = true;
      await Promise.all(
        [...running.values()].map(
          (child) =>
            new Promise((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve(null);
              child.once('exit', resolve);
              child.kill('SIGTERM');
            }),
        ),
      );
    },
  };
}
