import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildVersions } from '../../graphql/versions.js';
import { contractOperations } from '../../contract/contract-operations.generated.js';
import { newestReplacement } from './replacements.js';

const reads = contractOperations.filter((operation) => operation.method === 'GET');
const served = buildVersions();
const schemaOf = (name: string) => served.find((version) => version.name === name)!.schema;

/** The variables the named queries use, with the types their arguments take. */
const variableTypes: Record<string, string> = {
  uuid: 'UUID!',
  uuids: '[UUID!]',
  facet: 'String!',
  start: 'DateTime',
  end: 'DateTime',
  // v2's own arguments.
  at: 'Date',
  query: 'String',
  cpr_number: 'String!',
  validity: 'ValidityScope',
};

/** A named query as a whole operation: its variables declared, so the served schema can validate it. */
function operationOf(query: string): string {
  const used = [...new Set([...query.matchAll(/\$([a-z_]+)/g)].map((match) => match[1]!))];
  const declared = used.map((name) => `$${name}: ${variableTypes[name] ?? 'Unknown'}`).join(', ');
  return `query Newest${declared ? `(${declared})` : ''} { ${query} }`;
}

describe('the newest version that answers each read', () => {
  it('names one for every read of the contract: v30, or v2 with why v30 has no place for it', () => {
    expect(reads.length).toBeGreaterThan(40);
    for (const operation of reads) {
      const newest = newestReplacement(operation);
      expect(newest, operation.operationId).toBeDefined();
      if (newest!.version === 'v2') expect(newest!.reason, operation.operationId).toMatch(/v30.*: v2/);
    }
  });

  it('names v30 wherever OS2mo has a place for the read, and v2 only for what it lacks', () => {
    const onV2 = reads
      .filter((operation) => newestReplacement(operation)!.version === 'v2')
      .map((operation) => operation.operationId)
      .sort();
    expect(onV2).toEqual(
      expect.arrayContaining([
        'autocompleteEmployees',
        'autocompleteOrgUnits',
        'getEmployeeDetailTypes',
        'getOrgUnitDetailTypes',
        'getOrganisation',
        'listFacetChildren',
        'lookupCpr',
      ]),
    );
    expect(onV2.length).toBeLessThan(reads.length / 2);
  });

  it('names only v30 queries the served v30 schema accepts', () => {
    const schema = schemaOf('v30');
    let checked = 0;
    for (const operation of reads) {
      const newest = newestReplacement(operation)!;
      if (newest.version !== 'v30') continue;
      const errors = validate(schema, parse(operationOf(newest.query)));
      expect(
        errors.map((error) => error.message),
        `${operation.operationId}: ${newest.query}`,
      ).toEqual([]);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('names, where v2 is the newest, a query the served v2 schema accepts', () => {
    const schema = schemaOf('v2');
    for (const operation of reads) {
      const newest = newestReplacement(operation)!;
      if (newest.version !== 'v2' || newest.query.includes('…')) continue;
      const errors = validate(schema, parse(operationOf(newest.query)));
      expect(
        errors.map((error) => error.message),
        operation.operationId,
      ).toEqual([]);
    }
  });
});
