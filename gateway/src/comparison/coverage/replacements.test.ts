import { describe, expect, it } from 'vitest';
import { contractOperations } from '../../contract/contract-operations.generated.js';
import { isServiceOperation } from '../../contract/contract-operations.js';
import { notCovered } from './not-covered.js';
import { newestReplacement, replacementSentence } from './replacements.js';

/** The `/service` operations with a GraphQL replacement: the others are reported not covered, with their reason. */
const operations = contractOperations.filter(
  (operation) => isServiceOperation(operation) && notCovered[operation.operationId] === undefined,
);

describe('replacementSentence (what a 410 names)', () => {
  it('names the newest query for every read of the contract, and the v2 query the report proves, without reading any data', () => {
    const reads = operations.filter((operation) => operation.method === 'GET');
    expect(reads.length).toBeGreaterThan(40);
    for (const operation of reads) {
      const sentence = replacementSentence(operation);
      const newest = newestReplacement(operation)!;
      if (newest.version === 'v30') {
        expect(sentence, operation.operationId).toMatch(
          /^the GraphQL query `[a-z_]+(?:\(| \{).*` on \/graphql\/v30(?:, where OS2mo deprecates .+ with no replacement yet)? \(or, deprecated, the GraphQL query `[a-z_]+(?:\(| \{).*` on \/graphql\/v2\)$/,
        );
        expect(sentence).toContain(`\`${newest.query}\` on /graphql/v30`);
      } else {
        expect(sentence, operation.operationId).toMatch(
          /^the GraphQL query `[a-z_]+(?:\(| \{).*` on \/graphql\/v2 \(OS2mo has .+\)$/,
        );
      }
    }
  });

  it('names the v30 mutations first for every write, then the deprecated v2 one', () => {
    for (const operation of operations.filter((item) => item.method !== 'GET')) {
      expect(replacementSentence(operation), operation.operationId).toMatch(
        /^the mutations? [a-z_]+(, [a-z_]+)* on \/graphql\/v30 \(or, deprecated, the mutations? .+ on \/graphql\/v2\)$/,
      );
    }
  });

  it.each([
    [
      'listItSystems',
      'the GraphQL query `itsystems { objects { current { uuid name user_key system_type } } }` on /graphql/v30 ' +
        '(or, deprecated, the GraphQL query `itsystems { objects { uuid name user_key system_type } }` on /graphql/v2)',
    ],
    [
      'listOrganisations',
      'the GraphQL query `org { uuid name user_key }` on /graphql/v30, where OS2mo deprecates `Query.org` ' +
        '(OS2mo is dropping the root organisation) with no replacement yet ' +
        '(or, deprecated, the GraphQL query `org { uuid name user_key }` on /graphql/v2)',
    ],
    [
      'lookupCpr',
      'the GraphQL query `cpr_lookup(cpr_number: $cpr_number) { name }` on /graphql/v2 ' +
        "(OS2mo has no place for it (`Query.cpr_lookup` is not in OS2mo's schema))",
    ],
    [
      'createOrgUnit',
      'the mutation org_unit_create on /graphql/v30 (or, deprecated, the mutation org_unit_create on /graphql/v2)',
    ],
    [
      'terminateDetails',
      'the mutations engagement_terminate, manager_terminate, owner_terminate, ituser_terminate, ' +
        'address_terminate, association_terminate, leave_terminate, kle_terminate on /graphql/v30 ' +
        '(or, deprecated, the mutations <type>_terminate (engagement_terminate, …) on /graphql/v2)',
    ],
  ])('%s: %s', (operationId, sentence) => {
    expect(replacementSentence(operations.find((operation) => operation.operationId === operationId)!)).toBe(
      sentence,
    );
  });
});
