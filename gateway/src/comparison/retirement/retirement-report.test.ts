import { buildSchema } from 'graphql';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { exitCodes, runCompareCommand } from '../cli/compare-command.js';
import type { CoverageEntry, CoverageReport } from '../coverage/coverage.js';
import { notCovered } from '../coverage/not-covered.js';
import { writeReplacements } from '../coverage/write-replacements.js';
import { contractOperations } from '../../contract/contract-operations.generated.js';
import { retirementReport } from './retirement-report.js';
import { createUsageRecorder } from '../../usage/usage-recorder.js';
import type { UsageReport } from './usage-report.js';

const day = 86_400_000;
const window = 90 * 86_400;
const write = 'POST /service/ou/create';

/**
 * The coverage report as it would be with every read proven: each write carries its v30 mutations as the
 * report names them (`write-replacements.ts`), unless `withoutMutations` says the served v30 has none. The
 * POSTs that write nothing or have no served mutation (`not-covered.ts`) count as proven reads here.
 */
function coverage(withoutMutations: string[] = []): CoverageReport {
  const replacements = writeReplacements();
  const endpoints = contractOperations.map((operation): CoverageEntry => {
    const base = { operationId: operation.operationId, method: operation.method, path: operation.path };
    if (operation.method === 'GET' || notCovered[operation.operationId] !== undefined) {
      return {
        ...base,
        graphql: 'org_units { … }',
        status: 'proven',
        reason: '',
        samples: [],
        differences: [],
      };
    }
    const named = withoutMutations.includes(operation.operationId)
      ? { mutations: [], mapping: {} }
      : replacements[operation.operationId];
    return {
      ...base,
      graphql: null,
      status: 'write',
      write: named,
      reason: '',
      samples: [],
      differences: [],
    };
  });
  const writes = endpoints.filter((entry) => entry.status === 'write').length;
  return {
    version: 'v30',
    meaning: '',
    endpoints,
    totals: {
      proven: endpoints.length - writes,
      different: 0,
      empty: 0,
      'not covered': 0,
      write: writes,
      reads: endpoints.length - writes,
    },
  };
}

/** A replica's usage with an injected clock, and the report at the clock's time. */
function setup(report: CoverageReport = coverage()) {
  let now = new Date('2026-01-01T00:00:00Z');
  const recorder = createUsageRecorder({
    registry: new Registry(),
    clients: ['integration'],
    windowSeconds: window,
    clock: () => now,
  });
  const retirement = () =>
    retirementReport({
      config: { clients: ['integration'], toolClients: [], prometheusUrl: undefined, windowSeconds: window },
      recorder,
      versions: [{ version: 'v30', schema: buildSchema('type Query { org_units: [String!]! }') }],
      coverage: () => Promise.resolve(report),
      now,
    });
  return { recorder, retirement, advance: (ms: number) => (now = new Date(now.getTime() + ms)) };
}

const verdictOf = (report: UsageReport, endpoint: string) =>
  report.endpoints.find((entry) => entry.endpoint === endpoint)!.verdict;

describe("the retirement report's rule for writes", () => {
  it('names v30 mutations for every write of the contract, so each can be proven', () => {
    const writes = contractOperations.filter(
      (operation) => operation.method !== 'GET' && notCovered[operation.operationId] === undefined,
    );
    expect(writes).toHaveLength(8);
    for (const operation of writes) {
      expect(
        writeReplacements()[operation.operationId]?.mutations.length,
        operation.operationId,
      ).toBeGreaterThan(0);
    }
  });

  it('says "in use" for a write called within the window, and /service as a whole is in use', async () => {
    const { recorder, retirement, advance } = setup();
    advance(100 * day);
    recorder.recordCall({ client: 'integration', surface: 'service', endpoint: write, flags: 'none' });
    advance(day);
    const report = await retirement();
    expect(verdictOf(report, write)).toEqual({ kind: 'in_use', text: 'in use by 1 client (integration)' });
    expect(report.verdict.kind).toBe('in_use');
  });

  it('waits while the usage covers less than the window', async () => {
    const { retirement, advance } = setup();
    advance(10 * day);
    const report = await retirement();
    expect(verdictOf(report, write).kind).toBe('too_little_history');
    expect(report.verdict.kind).toBe('too_little_history');
  });

  it('says "can be switched off" for a write unused for the window, and so for /service as a whole', async () => {
    const { recorder, retirement, advance } = setup();
    recorder.recordCall({ client: 'integration', surface: 'service', endpoint: write, flags: 'none' });
    advance(91 * day);
    const report = await retirement();
    expect(verdictOf(report, write)).toEqual({
      kind: 'switch_off',
      text: 'unused for 91 days: can be switched off',
    });
    expect(report.endpoints.every((entry) => entry.verdict.kind === 'switch_off')).toBe(true);
    expect(report.verdict).toEqual({
      kind: 'switch_off',
      text: "/service can be switched off: no calls in the last 90 days, and every endpoint's replacement is proven.",
    });

    // `npm run compare -- --usage` reads this report and exits 0: the migration is done.
    let stdout = '';
    const code = await runCompareCommand(
      ['--usage', '--token', 'a.b.c', '--gateway', 'http://gateway.test'],
      {},
      { stdout: (text) => (stdout += text), stderr: () => undefined },
      { fetch: () => Response.json(report) },
    );
    expect(code).toBe(exitCodes.equal);
    expect(stdout).toContain('/service can be switched off');
  });

  it('keeps a write whose replacement v30 cannot make, and /service with it', async () => {
    const { retirement, advance } = setup(coverage(['createOrgUnit']));
    advance(91 * day);
    const report = await retirement();
    expect(verdictOf(report, write)).toEqual({
      kind: 'unused_unproven',
      text: "no calls in the last 90 days, but OS2mo's v30 has no mutation replacing it: do not switch it off yet",
    });
    expect(report.verdict.kind).toBe('unused_unproven');
  });
});
