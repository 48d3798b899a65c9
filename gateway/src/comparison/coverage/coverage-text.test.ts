import { describe, expect, it } from 'vitest';
import type { CoverageEntry, CoverageReport } from './coverage.js';
import { formatCoverage } from './coverage-text.js';
import { flagCoverage } from '../../contract/flag-equivalents.js';
import { newestReplacement } from './replacements.js';

const unit = 'f41291dc-2a78-5663-957a-efb8d5ed9a0e';

describe('the coverage report as text', () => {
  it('lists the flags each endpoint takes, which have a GraphQL equivalent and which a sample proved', () => {
    const base = {
      operationId: 'listUnitManagers',
      method: 'GET',
      path: '/service/ou/{uuid}/details/manager',
      graphql: 'org_units(filter: { uuids: [$uuid] }) { objects { managers { … } } }',
      status: 'proven' as const,
      reason: 'Equal on 3 reads.',
      samples: [`/service/ou/${unit}/details/manager?at=2024-01-01`],
    };
    const entry: CoverageEntry = { ...base, differences: [], flags: flagCoverage(base) };
    const report: CoverageReport = {
      version: 'v30',
      meaning: 'Covered: …',
      endpoints: [entry],
      totals: { proven: 1, different: 0, empty: 0, 'not covered': 0, write: 0, reads: 4 },
    };
    const text = formatCoverage(report, 'http://gateway');
    expect(text).toContain(
      'flags with a GraphQL equivalent: at*, validity=present, validity=past, validity=future, only_primary_uuid, ' +
        'inherit_manager; without one: validity=interval, changed_since',
    );
  });

  it("names the version each read was proven on, and on v2 why (from OS2mo's schema and the served one)", () => {
    const manager = {
      operationId: 'listUnitManagers',
      method: 'GET',
      path: '/service/ou/{uuid}/details/manager',
      status: 'proven' as const,
      reason: 'Equal on 3 reads.',
      samples: [],
      differences: [],
    };
    const cpr = {
      operationId: 'lookupCpr',
      method: 'GET',
      path: '/service/e/cpr_lookup/',
      status: 'empty' as const,
      reason: 'Equal but empty: the sampled reads returned no records.',
      samples: [],
      differences: [],
    };
    const endpoints: CoverageEntry[] = [manager, cpr].map((entry) => {
      const newest = newestReplacement(entry)!;
      return { ...entry, graphql: newest.query, proven_on: newest.version, newest };
    });
    const report: CoverageReport = {
      version: 'v30',
      meaning: 'Covered: …',
      endpoints,
      totals: { proven: 1, different: 0, empty: 1, 'not covered': 0, write: 0, reads: 4 },
    };
    const text = formatCoverage(report, 'http://gateway');
    expect(text).toContain("proven on v30 (OS2mo's GraphQL)");
    expect(text).toContain(
      "checked on v2, not v30: OS2mo has no place for it (`Query.cpr_lookup` is not in OS2mo's schema).",
    );
    expect(text).toContain('Proven on v30: 1 of 2 reads');
  });
});
