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
      version: 'v2',
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

  it('names beside the proven v2 query the newest version that answers the read, or why v2 is the newest', () => {
    const manager = {
      operationId: 'listUnitManagers',
      method: 'GET',
      path: '/service/ou/{uuid}/details/manager',
      graphql: 'org_units(filter: { uuids: [$uuid] }) { objects { managers { … } } }',
      status: 'proven' as const,
      reason: 'Equal on 3 reads.',
      samples: [],
      differences: [],
    };
    const cpr = {
      operationId: 'lookupCpr',
      method: 'GET',
      path: '/service/e/cpr_lookup/',
      graphql: 'cpr_lookup(cpr_number: $cpr_number) { name }',
      status: 'empty' as const,
      reason: 'Equal but empty: the sampled reads returned no records.',
      samples: [],
      differences: [],
    };
    const endpoints: CoverageEntry[] = [manager, cpr].map((entry) => ({
      ...entry,
      newest: newestReplacement(entry)!,
    }));
    const report: CoverageReport = {
      version: 'v2',
      meaning: 'Covered: …',
      endpoints,
      totals: { proven: 1, different: 0, empty: 1, 'not covered': 0, write: 0, reads: 4 },
    };
    const text = formatCoverage(report, 'http://gateway');
    expect(text).toContain(
      'proven on v2; in v30: managers(filter: { org_unit: { uuids: [$uuid] } }) { objects { current { uuid validity { from to } } } }',
    );
    expect(text).toContain("checked on v2; v2 is the newest: OS2mo's v30 has no `cpr_lookup`");
  });
});
