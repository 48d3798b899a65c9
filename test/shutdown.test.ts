import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startIdp, type RunningIdp } from '../idp/src/server.js';
import { startLegacyService, type LegacyServer } from '../legacy-service/src/server.js';
import { accessToken } from './idp-tokens.js';
import { spawnGateway, waitForHealth, type StartedProcess } from './processes.js';

/**
 * SIGTERM on a gateway process in front of a slow legacy service: the listener closes at once, every
 * request already accepted still gets its answer, and the process exits 0 — or, past the grace period,
 * cuts what is left and exits anyway.
 */

const latencyMs = 1_500;
/**
 * A test's bound: a gateway process to start (its URL within 30 s, its health within 15 s), requests that wait
 * `latencyMs` twice, and the waits below. About 5 s alone; the suite's 30 s left a loaded machine little more
 * than the process's start.
 */
const testTimeoutMs = 120_000;
const metricsToken = 'shutdown-test-metrics-token';
let dataDir: string;
let legacy: LegacyServer;
let idp: RunningIdp;
let token: string;
let gateway: StartedProcess | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'gateway-shutdown-'));
  legacy = await startLegacyService({ dataDir, latencyMs });
  idp = await startIdp();
  token = await accessToken(idp.issuer, 'nora');
});

afterEach(async () => {
  await gateway?.stop('SIGKILL');
  gateway = undefined;
});

afterAll(async () => {
  await idp?.close();
  await legacy?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function startGatewayProcess(env: Record<string, string>) {
  gateway = await spawnGateway(legacy.url, idp, { METRICS_TOKEN: metricsToken, LOG_LEVEL: 'info', ...env });
  const url = `http://${gateway.url}`;
  await waitForHealth(`${url}/health/live`);
  // 'close', not 'exit': the last lines can still be in the pipe when the process has exited (a loaded machine),
  // and the tests read what it printed while stopping.
  const exited = new Promise<number | null>((resolve) =>
    gateway!.child.once('close', (code) => resolve(code)),
  );
  return { process: gateway, url, port: Number(gateway.url.split(':')[1]), exited };
}

/** Slow requests of both kinds: each waits `latencyMs` on the legacy service. */
function slowRequests(url: string, count: number) {
  return Array.from({ length: count }, (_, index) =>
    index % 2 === 0
      ? fetch(`${url}/graphql/v2`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ org_units(limit: 1) { objects { uuid } } }' }),
        }).then(async (response) => ({ status: response.status, body: await response.json() }))
      : fetch(`${url}/service/o/`, { headers: { authorization: `Bearer ${token}` } }).then(
          async (response) => ({ status: response.status, body: await response.json() }),
        ),
  );
}

/**
 * Resolves once the gateway reports `count` requests in flight (besides the scrape asking). This bound and
 * `printed`'s only decide how long a broken test takes to fail: far above what a loaded machine takes.
 */
async function inFlight(url: string, count: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const text = await (
      await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })
    ).text();
    const gauge = Number(/^gateway_http_requests_in_flight (\d+)/m.exec(text)?.[1] ?? 0);
    if (gauge >= count + 1) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`fewer than ${count} requests in flight after ${timeoutMs} ms`);
}

/** Resolves once the process has printed a line matching `pattern` (it reacted to the signal). */
async function printed(process: StartedProcess, pattern: RegExp, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(process.output())) {
    if (Date.now() > deadline) throw new Error(`no line matching ${pattern}:\n${process.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

describe('SIGTERM', { timeout: testTimeoutMs }, () => {
  it('refuses new connections, finishes every accepted request, then exits 0, whatever signal comes next', async () => {
    // A grace period the requests cannot use up however slow the machine: they end it by being answered.
    const { process, url, port, exited } = await startGatewayProcess({ SHUTDOWN_GRACE_MS: '90000' });
    const requests = slowRequests(url, 6);
    await inFlight(url, 6);

    process.child.kill('SIGTERM');
    await printed(process, /SIGTERM, finishing in-flight requests/);
    expect(await connectionRefused(port)).toBe(true);
    // A second signal while stopping (Ctrl+C on npm start: the terminal's SIGINT and the script's SIGTERM) changes nothing.
    process.child.kill('SIGINT');

    const answers = await Promise.all(requests);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers[0]!.body.data.org_units.objects).toHaveLength(1);
    expect(Array.isArray(answers[1]!.body)).toBe(true);

    expect(await exited).toBe(0);
    // It stopped because the requests were done, not because the grace period ran out.
    expect(process.output()).toMatch(/"msg":"gateway: stopped"/);
    expect(process.output()).not.toMatch(/were cut/);
    expect(process.output()).not.toMatch(/SIGINT|error while stopping|ERR_SERVER_NOT_RUNNING|Error:/);
  });

  it('cuts requests still running after SHUTDOWN_GRACE_MS and exits anyway', async () => {
    const { process, url, exited } = await startGatewayProcess({ SHUTDOWN_GRACE_MS: '200' });
    const request = slowRequests(url, 1)[0]!.then(
      () => 'answered',
      () => 'cut',
    );
    await inFlight(url, 1);

    process.child.kill('SIGTERM');
    // Cut, not answered: the request still needed the legacy service's latency when the grace period ended.
    expect(await request).toBe('cut');
    expect(await exited).toBe(0);
    expect(process.output()).toMatch(/were cut/);
  });
});

describe('SIGTERM to a gateway whose stdout has no reader', { timeout: testTimeoutMs }, () => {
  it('exits 0 at once rather than retrying the broken pipe (an orphan of `npm start | head`)', async () => {
    // A grace period far beyond the test's own bound: only a clean exit passes, not the last-resort timer.
    const { process, exited } = await startGatewayProcess({ SHUTDOWN_GRACE_MS: '600000' });
    // What `npm start | head` leaves: the script that read the gateway's output is gone, its pipe has no reader.
    process.child.stdout!.destroy();
    process.child.stderr!.destroy();
    process.child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
