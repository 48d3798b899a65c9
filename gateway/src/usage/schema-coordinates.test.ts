import { buildSchema, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { coordinatesCache, schemaCoordinates } from './schema-coordinates.js';

const schema = buildSchema(`
  type Query { org_units: [OrgUnit!]! employees: [Employee!]! }
  type OrgUnit { uuid: ID! name: String! managers: [Manager!]! }
  type Manager { uuid: ID! employee: Employee }
  type Employee { uuid: ID! name: String! }
`);
const renamed = buildSchema(`
  type Query { org_units: [Unit!]! }
  type Unit { uuid: ID! name: String! }
`);

describe('schema coordinates', () => {
  it('lists every field an operation selects, through fragments, without introspection', () => {
    const document = parse(`
      query Units { org_units { __typename name ...Managers } }
      query People { employees { name } }
      fragment Managers on OrgUnit { managers { employee { ...Person } } }
      fragment Person on Employee { uuid }
      fragment Unused on Employee { name }
    `);
    expect(schemaCoordinates(schema, document, 'Units')).toEqual([
      'Employee.uuid',
      'Manager.employee',
      'OrgUnit.managers',
      'OrgUnit.name',
      'Query.org_units',
    ]);
    expect(schemaCoordinates(schema, document, 'People')).toEqual(['Employee.name', 'Query.employees']);
    expect(schemaCoordinates(schema, parse('{ __schema { types { name } } }'))).toEqual([]);
  });

  it('leaves out what the schema does not have, so a client cannot add labels', () => {
    expect(schemaCoordinates(schema, parse('{ org_units { name invented } nothing }'))).toEqual([
      'OrgUnit.name',
      'Query.org_units',
    ]);
  });

  it('remembers an answer per document and operation name, and per schema', () => {
    const document = parse('query A { org_units { name } } query B { employees { uuid } }');
    const cached = coordinatesCache();
    expect(cached(schema, document, 'A')).toEqual(['OrgUnit.name', 'Query.org_units']);
    expect(cached(schema, document, 'B')).toEqual(['Employee.uuid', 'Query.employees']);
    // The same query text parsed again is another document: answered on its own.
    expect(cached(schema, parse('query A { org_units { uuid } }'), 'A')).toEqual([
      'OrgUnit.uuid',
      'Query.org_units',
    ]);
    expect(cached(renamed, document, 'A')).toEqual(['Query.org_units', 'Unit.name']);
    expect(cached(schema, document, 'A')).toEqual(['OrgUnit.name', 'Query.org_units']);
  });
});
