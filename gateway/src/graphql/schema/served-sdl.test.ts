import { readFile } from 'node:fs/promises';
import {
  buildSchema,
  getNamedType,
  isInputObjectType,
  parse,
  printSchema,
  type OperationDefinitionNode,
  type GraphQLInputObjectType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { runsInterpreted } from '../compiled-execution.js';
import { buildVersions, type GraphQLVersion } from '../versions.js';
import { readOrgGraphTypeDefs } from './org-graph.js';
import { v1EntityTypeDefs, v1ListLinks } from './v1-transform.js';

const snapshot = (name: string) =>
  readFile(new URL(`./__snapshots__/${name}.graphql`, import.meta.url), 'utf8');

describe('the served SDL', () => {
  it.each(buildVersions().map((version) => [version.name, version] as const))(
    '%s prints exactly the committed snapshot',
    async (name, version) => {
      expect(
        printSchema(version.schema) + '\n' === (await snapshot(name)),
        `/graphql/${name}/schema.graphql differs from gateway/src/graphql/schema/__snapshots__/${name}.graphql: ` +
          'run `npm run graph:generate`, review the difference, and put every deliberate change for users in ' +
          'docs/migration-v1-to-v2.md.',
      ).toBe(true);
    },
  );

  it.each(buildVersions().map((version) => [version.name, version] as const))(
    '%s runs every operation with a variable of a self-containing input type through graphql-js (graphql-jit would inline its parser without end)',
    (_name, version) => {
      const reaches = (from: GraphQLInputObjectType, target: string, seen = new Set<string>()): boolean =>
        Object.values(from.getFields()).some((field) => {
          const type = getNamedType(field.type);
          if (!isInputObjectType(type) || seen.has(type.name)) return false;
          seen.add(type.name);
          return type.name === target || reaches(type, target, seen);
        });
      const recursive = Object.values(version.schema.getTypeMap())
        .filter(isInputObjectType)
        .filter((type) => !type.name.startsWith('__') && reaches(type, type.name));
      for (const type of recursive) {
        const operation = parse(`query Q($value: ${type.name}) { __typename }`)
          .definitions[0] as OperationDefinitionNode;
        expect(runsInterpreted(version.schema, operation), type.name).toBe(true);
      }
    },
  );

  // Issue 20: descriptions came from the contract and told GraphQL users about `/service` flags they cannot send.
  it.each(buildVersions().map((version) => [version.name, version] as const))(
    '%s describes nothing by a `/service` query flag, which GraphQL does not have',
    (_name, version) => {
      const flags =
        /only_primary_uuid|calculate_primary|first_party_perspective|inherit_manager|inherit_owner|`count=/;
      const mentions = printSchema(version.schema)
        .split('\n')
        .filter((line) => flags.test(line));
      expect(mentions).toEqual([]);
    },
  );

  it('shows the generated entity types unchanged in v2, and as lists where v1 documents it', () => {
    const [v1, v2] = buildVersions();
    const graph = buildSchema(readOrgGraphTypeDefs());
    for (const typeName of [
      'OrgUnit',
      'Employee',
      'Engagement',
      'Manager',
      'Owner',
      'ITUser',
      'Class',
      'Facet',
    ]) {
      const fields = (schema: typeof graph) => {
        const type = schema.getType(typeName);
        return type && 'getFields' in type
          ? Object.values(type.getFields()).map((field) => `${field.name}: ${String(field.type)}`)
          : [];
      };
      expect(fields(v2!.schema)).toEqual(fields(graph));
      const v1Fields = fields(graph).map((field) => {
        const [fieldName = '', type = ''] = field.split(': ');
        return `${typeName}.${fieldName}` in v1ListLinks ? `${fieldName}: [${type}!]!` : field;
      });
      expect(fields(v1!.schema)).toEqual(v1Fields);
    }
  });
});

describe('what the public may not see', () => {
  const cprFieldsOf = (version: GraphQLVersion) =>
    Object.values(version.schema.getTypeMap()).flatMap((type) =>
      'getFields' in type
        ? Object.keys(type.getFields())
            .filter((field) => /cpr/i.test(field))
            .map((field) => `${type.name}.${field}`)
        : [],
    );
  const ours = buildVersions().filter((version) => ['v1', 'v2'].includes(version.name));
  const os2mos = buildVersions().filter((version) => !['v1', 'v2'].includes(version.name));

  // A field the contract gains is public once generated; a person's CPR number must never be, whichever
  // type carries it. Hide it in gateway/src/org-graph/not-public.ts.
  it.each(ours.map((version) => [version.name, version] as const))(
    '%s shows no CPR number',
    (_name, version) => {
      // The lookup takes a number the caller already has and answers the name only (checked below).
      expect(cprFieldsOf(version)).toEqual(['Query.cpr_lookup']);
      const lookup = version.schema.getType('CprLookup');
      expect(lookup && 'getFields' in lookup ? Object.keys(lookup.getFields()) : []).toEqual(['name']);
    },
  );

  // OS2mo's versions show the number where OS2mo does, `Employee.cpr_number` and its older name `cpr_no`
  // (every printout has it, deprecated), and each read is logged
  // (gateway/src/graphql/os2mo/cpr-number.test.ts); nowhere else. A person's create and update take the
  // number, and the person filter looks people up by it (the caller sends it; each lookup is logged), as
  // does a link to people's filter, which is the person filter less the UUIDs (OS2mo's UuidsBoundEmployeeFilter).
  it.each(os2mos.map((version) => [version.name, version] as const))(
    '%s shows the CPR number only as Employee.cpr_number and cpr_no, and takes it only in the person writes and filter',
    (_name, version) => {
      expect(os2mos.length).toBeGreaterThan(0);
      expect(cprFieldsOf(version)).toEqual([
        'EmployeeFilter.cpr_numbers',
        'Employee.cpr_number',
        'Employee.cpr_no',
        'UuidsBoundEmployeeFilter.cpr_numbers',
        'EmployeeCreateInput.cpr_number',
        'EmployeeUpdateInput.cpr_number',
      ]);
    },
  );
});

describe("v1's transform of the org graph", () => {
  it('makes the documented links lists, with their v1 descriptions', () => {
    const graph = /* GraphQL */ `
      type OrgUnit {
        """
        null at the top
        """
        parent: OrgUnit
        name: String!
      }
      type Employee {
        name: String!
      }
      type Engagement {
        employee: Employee
      }
      type Manager {
        employee: Employee
      }
    `;
    const v1 = printSchema(buildSchema(v1EntityTypeDefs(graph)));
    expect(v1).toContain(
      '  """The unit above this one; empty at the top."""\n  parent: [OrgUnit!]!\n  name: String!',
    );
    expect(v1).toContain('type Engagement {\n  employee: [Employee!]!\n}');
  });

  it('fails when the graph has lost a field v1 documents', () => {
    expect(() => v1EntityTypeDefs('type OrgUnit { parent: OrgUnit }')).toThrow(
      /The org graph has no Engagement.employee, Manager.employee/,
    );
  });
});
