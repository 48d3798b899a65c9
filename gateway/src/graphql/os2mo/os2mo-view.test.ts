import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { checkViews, viewTypeDefs } from './os2mo-view.js';

const graph = `
  scalar UUID
  scalar Date
  type Validity { from: Date to: Date }
  type Employee { uuid: UUID! givenname: String! }
  type OrgUnit { uuid: UUID! name: String! parent: OrgUnit validity: Validity! }
`;

describe("v30's views of the org graph", () => {
  const views = {
    OrganisationUnit: {
      graphType: 'OrgUnit',
      fields: {
        uuid: { type: 'UUID!' },
        parent: { type: 'OrganisationUnit' },
        parent_uuid: { type: 'UUID', from: 'parent' },
        validity: { type: 'Validity!' },
      },
    },
    Employee: { graphType: 'Employee', fields: { given_name: { type: 'String!', from: 'givenname' } } },
  };

  it("prints OS2mo's names and types over the graph's fields", () => {
    const sdl = viewTypeDefs(graph, views);
    expect(sdl).toContain(
      'type OrganisationUnit {\n  uuid: UUID!\n  parent: OrganisationUnit\n  parent_uuid: UUID',
    );
    expect(sdl).toContain('type Employee {\n  given_name: String!\n}');
  });

  it('fails, naming each field, when the graph no longer has what a view serves or holds another type', () => {
    const smaller = buildSchema(
      graph.replace('givenname: String!', '').replace('parent: OrgUnit', 'parent: Employee'),
    );
    expect(() => checkViews(smaller, views)).toThrow(
      "v30's view of the org graph is out of date: OrganisationUnit.parent is OrganisationUnit, but OrgUnit.parent holds Employee; Employee.given_name needs Employee.givenname.",
    );
  });
});
