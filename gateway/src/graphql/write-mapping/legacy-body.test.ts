import { describe, expect, it } from 'vitest';
import { canonicalInput, legacyFields, type InputShape } from './legacy-body.js';
import { typeMappings } from './type-mappings.js';

const unit = '00000000-0000-4000-8000-00000000000a';
const person = '00000000-0000-4000-8000-00000000000b';
const other = '00000000-0000-4000-8000-00000000000c';
const cls = '00000000-0000-4000-8000-00000000000d';

const patch: InputShape = { nullInUpdate: 'clear' };
const keep: InputShape = { nullInUpdate: 'keep' };

describe('legacyFields', () => {
  it('writes references as {uuid}, lists of them as lists, and values as they are, under the legacy names', () => {
    expect(
      legacyFields(
        typeMappings.kle,
        { org_unit: unit, kle_number: cls, kle_aspects: [cls, other], user_key: 'k' },
        'create',
        patch,
      ),
    ).toEqual({
      user_key: 'k',
      org_unit: { uuid: unit },
      kle_number: { uuid: cls },
      kle_aspect: [{ uuid: cls }, { uuid: other }],
    });
    expect(
      legacyFields(typeMappings.employee, { given_name: 'Anne', cpr_number: '0101011234' }, 'create', patch),
    ).toEqual({ givenname: 'Anne', cpr_no: '0101011234' });
  });

  it('leaves out what the input leaves out, so an edit keeps it', () => {
    expect(legacyFields(typeMappings.engagement, { job_function: cls }, 'update', patch)).toEqual({
      job_function: { uuid: cls },
    });
  });

  it("clears a field given as null when the shape says null clears (v1/v2, OS2mo's org_unit_update)", () => {
    expect(
      legacyFields(
        typeMappings.org_unit,
        { org_unit_level: null, name: 'X', parent: undefined },
        'update',
        patch,
      ),
    ).toEqual({ org_unit_level: null, name: 'X' });
    expect(legacyFields(typeMappings.manager, { responsibility: null }, 'update', patch)).toEqual({
      responsibility: [],
    });
  });

  it("keeps a field given as null when the shape says so (OS2mo's other update inputs default to null)", () => {
    expect(legacyFields(typeMappings.engagement, { person: null, org_unit: unit }, 'update', keep)).toEqual({
      org_unit: { uuid: unit },
    });
  });

  it('a create leaves null out, except where the mapping sends a value for an absent field', () => {
    expect(
      legacyFields(typeMappings.address, { value: 'a@b.dk', visibility: null }, 'create', patch),
    ).toEqual({
      value: 'a@b.dk',
    });
    expect(legacyFields(typeMappings.manager, { org_unit: unit, person: null }, 'create', keep)).toEqual({
      org_unit: { uuid: unit },
      person: null,
      responsibility: [],
    });
  });
});

describe('canonicalInput', () => {
  const employeeIsPerson: InputShape = { renames: { employee: 'person' }, nullInUpdate: 'clear' };

  it("renames a version's field to the mapping's name", () => {
    expect(canonicalInput({ employee: person, org_unit: unit }, employeeIsPerson)).toEqual({
      person,
      org_unit: unit,
    });
  });

  it('keeps an explicit null of the renamed field (v1/v2: `employee: null` vacates a manager)', () => {
    expect(canonicalInput({ employee: null }, employeeIsPerson)).toEqual({ person: null });
  });

  it("never lets the alias override the mapping's own field, but lets it fill a null one", () => {
    expect(canonicalInput({ employee: other, person }, employeeIsPerson)).toEqual({ person });
    expect(canonicalInput({ employee: other, person: null }, employeeIsPerson)).toEqual({ person: other });
    expect(canonicalInput({ employee: null, person }, employeeIsPerson)).toEqual({ person });
  });
});
