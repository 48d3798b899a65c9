import { readFileSync } from 'node:fs';
import { buildSchema, parse, validate } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import { v30Omissions } from '../gateway/src/graphql/os2mo/ledger/index.js';
import { sharedReadOnlyStack, signIn, type GraphQLSession } from './stack.js';

/**
 * OS2mo's own GraphQL tests (tests/graphapi/ at OS2mo's HEAD) ported to v30 on the stand-in. Each names the
 * test it comes from. A field OS2mo's query asks for that v30 leaves out is removed from the query only when
 * the declared omissions list it, and the original query must validate against OS2mo's own schema.
 */
let nora: GraphQLSession;
beforeAll(async () => {
  nora = await signIn(await sharedReadOnlyStack(), 'nora');
});

const os2mo = buildSchema(
  readFileSync(new URL('./fixtures/os2mo-graphql/os2mo-v29.graphql', import.meta.url), 'utf8'),
);

/** OS2mo's query without the named fields of `type`, each of which must be a declared omission. */
function withoutOmitted(query: string, type: string, fields: string[]): string {
  expect(validate(os2mo, parse(query))).toEqual([]);
  for (const field of fields) expect(v30Omissions, `${type}.${field}`).toHaveProperty([`${type}.${field}`]);
  return fields.reduce((text, field) => text.replace(new RegExp(`\\n\\s*${field}\\n`), '\n'), query);
}

describe('test_managers.py', () => {
  it('test_query_all: every attribute of the manager model', async () => {
    const query = withoutOmitted(
      `
        query {
            managers {
                objects {
                    uuid
                    objects {
                        uuid
                        user_key
                        employee_uuid
                        manager_level_uuid
                        manager_type_uuid
                        org_unit_uuid
                        responsibility_uuids
                        type
                        validity {from to}
                    }
                }
            }
        }
      `,
      'Manager',
      ['type'],
    );
    const body = await nora.ask('v30', query);
    expect(body.errors).toBeUndefined();
    expect(body.data!.managers.objects.length).toBeGreaterThan(0);
  });

  it('test_manager_filters: by employees, org_units, both, and uuids', async () => {
    const unit = referenceUnitUuids[0]!;
    const other = referenceUnitUuids[1]!;
    const managers = await nora.ask(
      'v30',
      'query($unit: UUID!) { managers(filter: {org_units: [$unit]}) { objects { uuid current { employee_uuid } } } }',
      { unit },
    );
    const held = managers.data!.managers.objects.find((response: any) => response.current.employee_uuid);
    expect(held).toBeDefined();
    const person: string = held.current.employee_uuid;
    const count = async (filter: Record<string, unknown>) =>
      (
        await nora.ask(
          'v30',
          'query Managers($filter: ManagerFilter!) { managers(filter: $filter) { objects { uuid } } }',
          { filter },
        )
      ).data!.managers.objects.length as number;
    const unitCount = managers.data!.managers.objects.length;
    const personsInUnit = managers.data!.managers.objects.filter(
      (response: any) => response.current.employee_uuid === person,
    ).length;
    expect(await count({ employees: person })).toBeGreaterThanOrEqual(personsInUnit);
    expect(await count({ org_units: unit })).toBe(unitCount);
    const otherCount = await count({ org_units: other });
    expect(await count({ org_units: [unit, other] })).toBe(unitCount + otherCount);
    expect(await count({ employees: person, org_units: unit })).toBe(personsInUnit);
    expect(await count({ uuids: held.uuid })).toBe(1);
    expect(await count({ uuids: 'fa11c0de-baad-baad-baad-cafebabebad0' })).toBe(0);
  });
});

describe('test_engagements.py', () => {
  it('test_query_all: every attribute of the engagement model', async () => {
    const query = withoutOmitted(
      `
        query {
            engagements {
                objects {
                    uuid
                    objects {
                        uuid
                        org_unit_uuid
                        employee_uuid
                        engagement_type_uuid
                        job_function_uuid
                        leave_uuid
                        primary_uuid
                        type
                        user_key
                        fraction
                        validity {from to}
                        extension_1
                        extension_2
                        extension_3
                        extension_4
                        extension_5
                        extension_6
                        extension_7
                        extension_8
                        extension_9
                        extension_10
                    }
                }
            }
        }
      `,
      'Engagement',
      ['type'],
    );
    const body = await nora.ask('v30', query);
    expect(body.errors).toBeUndefined();
    expect(body.data!.engagements.objects.length).toBeGreaterThan(100);
  });
});

describe('test_organisation_units.py', () => {
  it('test_query_all: every organisation unit', async () => {
    const query = withoutOmitted(
      `
        query {
            org_units {
                objects {
                    uuid
                    objects {
                        uuid
                        user_key
                        name
                        type
                        validity {from to}
                        parent_uuid
                        unit_type_uuid
                        org_unit_hierarchy
                        org_unit_level_uuid
                        time_planning_uuid
                    }
                }
            }
        }
      `,
      'OrganisationUnit',
      ['type'],
    );
    const body = await nora.ask('v30', query);
    expect(body.errors).toBeUndefined();
    expect(body.data!.org_units.objects).toHaveLength(98);
    const top = body.data!.org_units.objects.filter(
      (response: any) => response.objects[0].parent_uuid === null,
    );
    // OS2mo v28 on: a top-level unit has no parent (migration guide, "Version 28").
    expect(top).toHaveLength(1);
  });
});

describe('test_dates.py', () => {
  it('test_dates_dont_leak: two aliases with different windows answer independently of their order', async () => {
    const people = await nora.ask('v30', '{ persons(limit: 1) { objects { uuid } } }');
    const uuid = people.data!.persons.objects[0].uuid as string;
    // OS2mo's query, `validity` on Employee included.
    const query = `
      query Employees($uuid: UUID!, $to_date_1: DateTime = null, $to_date_2: DateTime = null) {
        e1: employees(filter: {uuids: [$uuid], from_date: null, to_date: $to_date_1}) {
          ...EmployeeResponsePagedFragment
        }
        e2: employees(filter: {uuids: [$uuid], from_date: null, to_date: $to_date_2}) {
          ...EmployeeResponsePagedFragment
        }
      }
      fragment EmployeeResponsePagedFragment on EmployeeResponsePaged {
        objects { validities { uuid validity { from to } } }
      }
    `;
    const first = await nora.ask('v30', query, { uuid, to_date_1: '1990-01-01', to_date_2: null });
    const second = await nora.ask('v30', query, { uuid, to_date_1: null, to_date_2: '1990-01-01' });
    expect(first.errors).toBeUndefined();
    expect(second.errors).toBeUndefined();
    expect(first.data!.e1).toEqual(second.data!.e2);
    expect(first.data!.e2).toEqual(second.data!.e1);
    // The person is listed over an open window, with their versions.
    expect(first.data!.e2.objects).toHaveLength(1);
    const versions = first.data!.e2.objects[0].validities as { uuid: string; validity: { from: string } }[];
    expect(versions.length).toBeGreaterThan(0);
    expect(versions.every((version) => version.uuid === uuid && version.validity.from !== null)).toBe(true);
  });
});
