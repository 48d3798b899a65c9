import { buildSchema, printSchema, type GraphQLInputObjectType, type GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { stepTypeDefs, versionSteps } from './older-versions.js';

const newer = `
  input ManagerFilter { uuids: [String!] = null employee: String }
  type Unit { name: String current(at: String): Unit }
  type Query { units(filter: ManagerFilter): [Unit!]! persons: [Unit!]! }
`;

describe('stepTypeDefs', () => {
  it('removes fields and arguments the older printout lacks, and sets its null defaults', () => {
    const older = printSchema(
      buildSchema(
        stepTypeDefs(newer, {
          name: 'v1',
          undoes: 'test',
          notInPrintout: ['Query.persons', 'Unit.current(at:)'],
          nullDefaults: ['ManagerFilter.employee'],
        }),
      ),
    );
    expect(older).toContain('employee: String = null');
    expect(older).toContain('current: Unit');
    expect(older).not.toContain('persons');
    expect(older).toContain('uuids: [String!] = null');
  });

  it('fails on a coordinate the newer version does not have, so a step cannot outlive its change', () => {
    expect(() => stepTypeDefs(newer, { name: 'v1', undoes: 'test', notInPrintout: ['Query.gone'] })).toThrow(
      "v1's step names Query.gone, which the newer version does not have.",
    );
  });

  it("gives an input type this version's description, and fails on one the newer version lacks", () => {
    const described = stepTypeDefs(newer, {
      name: 'v1',
      undoes: 'test',
      descriptions: { ManagerFilter: 'Managers, as this version reads them.' },
    });
    expect(described).toContain('"""Managers, as this version reads them."""\ninput ManagerFilter');
    expect(() =>
      stepTypeDefs(newer, { name: 'v1', undoes: 'test', descriptions: { GoneInput: 'x' } }),
    ).toThrow("v1's step names GoneInput, which the newer version does not have.");
  });

  it('renames a type everywhere it is named, and removes an input type the older printout lacks', () => {
    const renamed = stepTypeDefs(newer, {
      name: 'v1',
      undoes: 'test',
      renamedTypes: { ManagerFilter: 'ManagersFilter' },
    });
    expect(renamed).toContain('input ManagersFilter');
    expect(renamed).toContain('units(filter: ManagersFilter)');
    expect(renamed).not.toContain('ManagerFilter');
    const removed = stepTypeDefs(renamed, {
      name: 'v0',
      undoes: 'test',
      notInPrintout: ['ManagersFilter', 'Query.units'],
    });
    expect(printSchema(buildSchema(removed))).not.toContain('ManagersFilter');
  });

  it('remakes a bound filter from its collection filter as the step leaves it, and gives a field the arguments it had', () => {
    const withLinks = `
      input AddressFilter { uuids: [String!] employee: String employees: [String!] org_unit: String }
      input EmployeeBoundAddressFilter { uuids: [String!] org_unit: String }
      input UuidsBoundClassFilter { user_keys: [String!] }
      type Person { addresses(filter: EmployeeBoundAddressFilter, limit: Int): [String!]! types(filter: UuidsBoundClassFilter): [String!]! }
      type Query { person: Person }
    `;
    const older = buildSchema(
      stepTypeDefs(withLinks, {
        name: 'v1',
        undoes: 'test',
        notInPrintout: ['AddressFilter.org_unit', 'Person.types'],
        renamedTypes: { EmployeeBoundAddressFilter: 'EmployeesBoundAddressFilter' },
        reargued: { 'Person.addresses': 'filter: EmployeesBoundAddressFilter = null' },
      }),
    );
    // OS2mo's older bound filters left out only the plural member they bound: `employee` stays.
    const bound = older.getType('EmployeesBoundAddressFilter') as GraphQLInputObjectType;
    expect(Object.keys(bound.getFields())).toEqual(['uuids', 'employee']);
    const person = older.getType('Person') as GraphQLObjectType;
    expect(person.getFields().addresses!.args.map((arg) => arg.name)).toEqual(['filter']);
    // A bound filter no argument names any longer is left out with its link.
    expect(older.getType('UuidsBoundClassFilter')).toBeUndefined();
  });
});

describe('the version ladder', () => {
  it('holds one rung per OS2mo version below v30, newest first, each with its read and write changes', () => {
    expect(versionSteps.map((step) => step.name)).toEqual([
      'v29',
      'v28',
      'v27',
      'v26',
      'v25',
      'v24',
      'v23',
      'v22',
      'v21',
    ]);
    // migration.md "Version 29" changed reads and writes alike: one rung says both.
    const v28 = versionSteps.find((step) => step.name === 'v28')!;
    expect(v28.resolvers).toBeDefined();
    expect(v28.writes?.options).toEqual({ ends: 'inclusive' });
  });
});
