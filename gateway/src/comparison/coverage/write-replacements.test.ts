import { isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { servedV30Schema } from '../os2mo-road.js';
import { contractOperations } from '../../contract/contract-operations.generated.js';
import { notCovered } from './not-covered.js';
import { exclusiveEnds, writeReplacements, writeSentence } from './write-replacements.js';

// POSTs that write nothing, and writes GraphQL does not serve yet, are reported not covered (`not-covered.ts`).
const writes = contractOperations.filter(
  (operation) => operation.method !== 'GET' && notCovered[operation.operationId] === undefined,
);

describe('the v30 mutations replacing each /service write', () => {
  it('names for each of the 8 writes at least one mutation the served v30 has, with the field mapping', () => {
    expect(writes).toHaveLength(8);
    const mutation = servedV30Schema().getMutationType();
    const fields = isObjectType(mutation) ? mutation.getFields() : {};
    for (const operation of writes) {
      const replacement = writeReplacements()[operation.operationId];
      expect(replacement?.mutations.length, operation.operationId).toBeGreaterThan(0);
      for (const name of replacement!.mutations) expect(fields[name], name).toBeDefined();
      expect(Object.keys(replacement!.mapping).length, operation.operationId).toBeGreaterThan(0);
    }
  });

  it("maps the Service API's names to OS2mo's input names (the mapping the v30 mutations write through)", () => {
    const { createEmployee, createDetails } = writeReplacements();
    expect(createEmployee!.mapping['employee']).toMatchObject({
      givenname: 'given_name',
      cpr_no: 'cpr_number',
      nickname_givenname: 'nickname_given_name',
    });
    expect(createDetails!.mapping['it']).toMatchObject({
      'person.uuid': 'person',
      'itsystem.uuid': 'itsystem',
    });
    expect(createDetails!.mutations).toContain('ituser_create');
    // OS2mo's v30 has no role or engagement association mutation: neither is named.
    expect(createDetails!.mutations.some((name) => /^(role|engagement_association)_/.test(name))).toBe(false);
    expect(writeSentence(createEmployee!)).toMatch(
      /^Replaced on \/graphql\/v30 by the mutation employee_create; Service API names that differ: givenname → given_name, /,
    );
  });

  it("says where a Service API last day becomes v30's exclusive end, and only there", () => {
    const { terminateDetails, createOrgUnit, mapOrgUnits } = writeReplacements();
    expect(terminateDetails!.ends).toBe(exclusiveEnds);
    expect(createOrgUnit!.ends).toBe(exclusiveEnds);
    expect(writeSentence(terminateDetails!)).toMatch(
      /; a Service API last day \(validity\.to\) is v30's end the day after \(v30's ends are exclusive\)\.$/,
    );
    // A mapping takes a start day only.
    expect(mapOrgUnits!.ends).toBeUndefined();
  });
});
