import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdp, type RunningIdp } from '../idp/src/server.js';
import { startLegacyService, type LegacyServer } from '../legacy-service/src/server.js';
import { accessToken } from './idp-tokens.js';
import { spawnGateway, waitForHealth, type StartedProcess } from './processes.js';
import { facetChains } from './facet-chains.js';

/**
 * The red team's heaviest requests against a gateway process of its own (issue 35, item 5): 30 aliases of a
 * facet's classes and their facet's classes and theirs, eight at once on v30 and v2, the one turn the cost
 * model lets through (30 aliases, eight at once), and 1 MB of variables (26,000 UUIDs) twenty times in a row,
 * while another client polls `/health/live`. The gateway's peak resident memory (VmHWM) stays under 400 MB,
 * and every health check is answered 200. Before the limits one such chain took the gateway to 1.4 GB and
 * eight at once past 4 GB; a hundred 1 MB variables in a row to 3.5 GB.
 */

const peakLimitMb = 400;
let dataDir: string;
let legacy: LegacyServer;
let idp: RunningIdp;
let gateway: StartedProcess;
let url: string;
let token: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'request-memory-'));
  legacy = await startLegacyService({ dataDir, fsync: false });
  idp = await startIdp();
  // The node flag the gateway is deployed with (docs/operations.md, "Memory").
  gateway = await spawnGateway(legacy.url, idp, { LOG_LEVEL: 'warn' }, 'gateway/src/main.ts', [
    '--max-semi-space-size=8',
  ]);
  url = `http://${gateway.url}`;
  await waitForHealth(`${url}/health/live`);
  token = await accessToken(idp.issuer, 'nora');
});

afterAll(async () => {
  await gateway?.stop('SIGKILL');
  await idp?.close();
  await legacy?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The gateway process's peak resident memory so far, in MB (Linux's VmHWM). */
async function peakMb(): Promise<number> {
  const status = await readFile(`/proc/${gateway.child.pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

async function post(version: string, body: string) {
  const response = await fetch(`${url}/graphql/${version}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
    },
    body,
  });
  const answer = (await response.json()) as { data?: unknown; errors?: { extensions?: { code?: string } }[] };
  return {
    status: response.status,
    code: answer.errors?.[0]?.extensions?.code,
    hasData: answer.data !== undefined,
  };
}

/** Polls `/health/live` one after another until stopped: each answer's status and time. */
function pollHealth() {
  const answers: { status: number; ms: number }[] = [];
  let polling = true;
  const done = (async () => {
    while (polling) {
      const started = performance.now();
      const response = await fetch(`${url}/health/live`);
      await response.arrayBuffer();
      answers.push({ status: response.status, ms: performance.now() - started });
    }
  })();
  return {
    answers,
    stop: async () => {
      polling = false;
      await done;
      return answers;
    },
  };
}

describe("a gateway under the red team's heaviest requests (issue 35, item 5)", () => {
  it('stays under 400 MB and answers every health check', { timeout: 180_000 }, async () => {
    // An idle baseline of health checks, for the report below.
    const idle = pollHealth();
    while (idle.answers.length < 20) await new Promise((resolve) => setImmediate(resolve));
    const baseline = await idle.stop();

    const health = pollHealth();
    const refused = await Promise.all(
      ['v30', 'v2', 'v30', 'v2', 'v30', 'v2', 'v30', 'v2'].map((version) =>
        post(version, JSON.stringify({ query: facetChains(version as 'v30' | 'v2', 30, 3) })),
      ),
    );
    expect(refused.map((answer) => answer.code)).toEqual(Array(8).fill('QUERY_TOO_COMPLEX'));

    // Within the cost limit: answered, eight at once, each within the answer's budget.
    const answered = await Promise.all(
      ['v30', 'v2', 'v30', 'v2', 'v30', 'v2', 'v30', 'v2'].map((version) =>
        post(version, JSON.stringify({ query: facetChains(version as 'v30' | 'v2', 30, 1) })),
      ),
    );
    expect(answered.map((answer) => [answer.status, answer.hasData])).toEqual(Array(8).fill([200, true]));

    const uuids = Array.from({ length: 26_000 }, () => crypto.randomUUID());
    const variables = JSON.stringify({
      query: 'query ($u: [UUID!]) { org_units(filter: { uuids: $u }) { objects { uuid } } }',
      variables: { u: uuids },
    });
    expect(variables.length).toBeGreaterThan(1_000_000);
    for (let round = 0; round < 20; round += 1) {
      expect((await post('v30', variables)).code).toBe('VARIABLE_LIST_TOO_LONG');
    }
    const checks = await health.stop();

    const peak = await peakMb();
    const slowest = (answers: { ms: number }[]) => Math.max(...answers.map((answer) => answer.ms));
    console.info(
      `request-memory: gateway peak ${Math.round(peak)} MB; ${checks.length} health checks under load, ` +
        `slowest ${Math.round(slowest(checks))} ms against ${Math.round(slowest(baseline))} ms idle`,
    );
    expect(peak).toBeLessThan(peakLimitMb);
    expect(checks.length).toBeGreaterThan(0);
    expect(checks.every((check) => check.status === 200)).toBe(true);
  });
});
