import { buildSchema } from 'graphql';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { CoverageEntry, CoverageReport } from '../coverage/coverage.js';
import { flagCoverage } from '../../contract/flag-equivalents.js';
import { createUsageRecorder } from '../../usage/usage-recorder.js';
import { usageReport } from './usage-report.js';

const day = 86_400_000;
const unitDetails = 'GET /service/ou/{uuid}/details/manager';
const unitRead = 'GET /service/ou/{uuid}/';
const unit = 'f41291dc-2a78-5663-957a-efb8d5ed9a0e';

/** A coverage report of two proven reads, their samples as the coverage report would list them. */
function coverage(status: CoverageEntry['status'] = 'proven'): CoverageReport {
  const entry = (endpoint: string, samples: string[]): CoverageEntry => {
    const [method, path] = endpoint.split(' ') as [string, string];
    const base = { operationId: path, method, path, graphql: 'org_units { … }', status, reason: '', samples };
    return { ...base, differences: [], flags: flagCoverage(base) };
  };
  return {
    version: 'v30',
    meaning: '',
    endpoints: [
      entry(unitDetails, [`/service/ou/${unit}/details/manager?validity=past`]),
      entry(unitRead, [`/service/ou/${unit}/`]),
    ],
    totals: { proven: 2, different: 0, empty: 0, 'not covered': 0, write: 0, reads: 2 },
  };
}

const v1 = buildSchema(
  'type Query { units: [String!]! @deprecated(reason: "Use org_units.") org_units: [String!]! }',
);
const v2 = buildSchema('type Query { org_units: [String!]! }');
const versions = [
  { version: 'v1', schema: v1 },
  { version: 'v2', schema: v2 },
];

function setup() {
  let now = new Date('2026-01-01T00:00:00Z');
  const recorder = createUsageRecorder({
    registry: new Registry(),
    clients: ['integration', 'payroll', 'org-frontend'],
    windowSeconds: 90 * 86_400,
    clock: () => now,
  });
  const report = (status?: CoverageEntry['status']) =>
    usageReport({ usage: recorder.snapshot(), coverage: coverage(status), versions, now });
  return { recorder, report, advance: (ms: number) => (now = new Date(now.getTime() + ms)) };
}

const endpoint = (report: ReturnType<typeof usageReport>, name: string) =>
  report.endpoints.find((entry) => entry.endpoint === name)!;

describe('the retirement report', () => {
  it('turns from "in use" to "can be switched off" when the calls stop for the whole window', () => {
    const { recorder, report, advance } = setup();
    recorder.recordCall({ client: 'integration', surface: 'service', endpoint: unitRead, flags: 'none' });
    advance(day);
    recorder.recordCall({ client: 'payroll', surface: 'service', endpoint: unitRead, flags: 'none' });
    recorder.recordCall({ client: 'payroll', surface: 'service', endpoint: unitRead, flags: 'none' });

    const busy = endpoint(report(), unitRead);
    expect(busy.verdict).toEqual({ kind: 'in_use', text: 'in use by 2 clients (integration, payroll)' });
    expect(busy.count).toBe(3);
    expect(busy.clients).toEqual([
      { client: 'payroll', count: 2, last_seen: '2026-01-02T00:00:00.000Z', flags: ['none'] },
      { client: 'integration', count: 1, last_seen: '2026-01-01T00:00:00.000Z', flags: ['none'] },
    ]);
    expect(report().verdict.kind).toBe('in_use');

    advance(89 * day);
    expect(endpoint(report(), unitRead).verdict.kind).toBe('in_use');
    advance(5 * day);
    expect(endpoint(report(), unitRead).verdict).toEqual({
      kind: 'switch_off',
      text: 'unused for 94 days: can be switched off',
    });
  });

  it('refuses "switch off" for an endpoint whose replacement is not proven, flags included', () => {
    const { recorder, report, advance } = setup();
    recorder.recordCall({
      client: 'integration',
      surface: 'service',
      endpoint: unitDetails,
      flags: 'validity=past',
    });
    recorder.recordCall({
      client: 'integration',
      surface: 'service',
      endpoint: unitDetails,
      flags: 'inherit_manager',
    });
    advance(100 * day);

    const listing = endpoint(report(), unitDetails);
    expect(listing.replacement.unproven_flags).toEqual(['inherit_manager']);
    expect(listing.replacement.proven).toBe(false);
    expect(listing.verdict.kind).toBe('unused_unproven');
    expect(listing.verdict.text).toMatch(/inherit_manager.*not proven: do not switch it off yet$/);
    // The same endpoint, not proven by the coverage report: refused too, and so is /service as a whole.
    const different = report('different');
    expect(endpoint(different, unitRead).verdict.kind).toBe('unused_unproven');
    expect(different.verdict.kind).toBe('unused_unproven');
    expect(JSON.stringify(different)).not.toMatch(/can be switched off/);
  });

  it('will not decide from less history than the window', () => {
    const { report, advance } = setup();
    advance(3 * day);
    const fresh = report();
    expect(endpoint(fresh, unitRead).verdict.kind).toBe('too_little_history');
    expect(fresh.verdict.kind).toBe('too_little_history');
    expect(fresh.source.description).toMatch(/^this replica only, since it started 3 days ago/);
  });

  it('reports each version and deprecated field with its callers, and leaves the tools out', () => {
    const { recorder, report, advance } = setup();
    recorder.recordCall({ client: 'org-frontend', surface: 'graphql', endpoint: 'v1', flags: 'query' });
    recorder.recordFields({ client: 'org-frontend', version: 'v1' }, ['Query.units']);
    recorder.recordToolRequest('integration');
    const made = report();
    expect(made.versions.map((version) => [version.version, version.verdict.kind, version.count])).toEqual([
      ['v1', 'in_use', 1],
      ['v2', 'current', 0],
    ]);
    expect(made.deprecated_fields).toMatchObject([
      {
        version: 'v1',
        coordinate: 'Query.units',
        reason: 'Use org_units.',
        count: 1,
        verdict: { kind: 'in_use' },
      },
    ]);
    expect(made.tool_requests).toBe(1);
    expect(made.endpoints.every((entry) => entry.count === 0)).toBe(true);
    advance(91 * day);
    expect(report().versions[0]!.verdict).toEqual({
      kind: 'switch_off',
      text: 'unused for 91 days: can be removed in favour of v2',
    });
  });
});
