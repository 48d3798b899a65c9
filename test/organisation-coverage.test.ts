import { beforeAll, describe, expect, it } from 'vitest';
import { coverageReport, type CoverageEntry } from '../gateway/src/comparison/coverage/coverage.js';
import { contractOperations } from '../gateway/src/contract/contract-operations.generated.js';
import { gatewayTransport } from '../gateway/src/comparison/gateway-transport.js';
import { sharedReadOnlyStack, type TestStack } from './stack.js';

/**
 * The coverage report on the whole stack: the organisation, its counts, the top-level units, the detail
 * types, free-text search and the CPR lookup are each answered by a GraphQL query (v30 where OS2mo has a place
 * for the read, else v2) and proven equal on
 * sampled reads, without a CPR number in the report.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await sharedReadOnlyStack();
});

const covered = {
  listOrganisations: /^org \{/,
  getOrganisation: /^org \{ .*unit_count/,
  listRootOrgUnits: /^org_units\(filter: \{ ?parent: null ?\}\) \{ objects \{ current \{/,
  getOrgUnitDetailTypes: /^org_units\(filter: \{ uuids: \[\$uuid\] \}\) \{ objects \{ uuid detail_types/,
  getEmployeeDetailTypes: /^employees\(filter: \{ uuids: \[\$uuid\] \}\) \{ objects \{ uuid detail_types/,
  autocompleteEmployees: /^persons\(filter: \{ ?query: \$query ?\}\) \{ objects \{ current \{/,
  autocompleteOrgUnits: /^org_units\(filter: \{ ?query: \$query ?\}\) \{ objects \{ current \{/,
  lookupCpr: /^cpr_lookup\(cpr_number: \$cpr_number\) \{ name \}$/,
};

describe('the coverage report: the organisation and search reads', () => {
  it('proves each of them on sampled reads, and shows no CPR number', async () => {
    const operations = contractOperations.filter((operation) => operation.operationId in covered);
    expect(operations).toHaveLength(Object.keys(covered).length);
    const report = await coverageReport({
      transport: gatewayTransport({
        baseUrl: stack.gatewayUrl,
        authorization: `Bearer ${await stack.token('nora')}`,
      }),
      operations,
      scanLimit: 1,
    });
    const byId = Object.fromEntries(report.endpoints.map((entry) => [entry.operationId, entry])) as Record<
      string,
      CoverageEntry
    >;
    for (const [operationId, graphql] of Object.entries(covered)) {
      const entry = byId[operationId]!;
      expect(entry.status, `${operationId}: ${entry.reason}`).toBe('proven');
      expect(entry.graphql, operationId).toMatch(graphql);
      expect(entry.differences).toEqual([]);
      expect(entry.samples.length, operationId).toBeGreaterThan(0);
    }
    // The top units and both searches are OS2mo's v30 reads now; counts, detail types and the CPR lookup
    // have no place in OS2mo's schema and stay on v2.
    for (const operationId of ['listRootOrgUnits', 'autocompleteEmployees', 'autocompleteOrgUnits'])
      expect(byId[operationId]!.proven_on, operationId).toBe('v30');
    // Three units, three people, three search words each.
    expect(byId.getOrgUnitDetailTypes!.samples).toHaveLength(3);
    expect(byId.autocompleteEmployees!.samples).toHaveLength(3);
    expect(byId.lookupCpr!.samples).toHaveLength(3);
    expect(byId.lookupCpr!.samples[0]).toMatch(/^\/service\/e\/cpr_lookup\/\?q=<cpr_no of [0-9a-f-]{36}>$/);
    expect(JSON.stringify(report)).not.toMatch(/\d{10}/);
  }, 60_000);
});
