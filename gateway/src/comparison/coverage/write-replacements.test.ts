import { isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { servedV30Schema } from '../os2mo-road.js';
import { contractOperations } from '../../contract/contract-operations.generated.js';
import { notCovered } from './not-covered.js';
import { exclusiveEnds, writeReplacements, writeSentence } from './write-replacements.js';
import { nullFacts } from '../../graphql/os2mo/ledger/index.js';

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

  it("says what a null v30 reads as a clear gets where the Service API cannot clear it: the ledger's value facts", () => {
    const { editDetails, createOrgUnit, createDetails } = writeReplacements();
    expect(editDetails!.mutations).toContain('org_unit_update');
    expect(editDetails!.nulls).toEqual(
      [...nullFacts].map(([coordinate, { answer, reason }]) => ({ coordinate, answer, reason })),
    );
    expect(editDetails!.nulls!.map(({ coordinate, answer }) => `${coordinate}: ${answer}`)).toEqual([
      'OrganisationUnitUpdateInput.org_unit_level: refused when held',
      'OrganisationUnitUpdateInput.org_unit_hierarchy: refused when held',
      'OrganisationUnitUpdateInput.time_planning: kept',
    ]);
    expect(writeSentence(editDetails!)).toMatch(
      /\(v30's ends are exclusive\); a null, which v30 reads as a clear, the Service API cannot clear in OrganisationUnitUpdateInput: org_unit_level, org_unit_hierarchy refused \(NOT_SERVED_BY_THIS_BACKEND\) where the record holds one in the write's period; time_planning kept \(not cleared\)\.$/,
    );
    // A create's null is no clear, and an input without such a field says nothing of nulls.
    expect(createOrgUnit!.nulls).toBeUndefined();
    expect(createDetails!.nulls).toBeUndefined();
    expect(writeSentence(createOrgUnit!)).not.toContain('null');
  });
});
