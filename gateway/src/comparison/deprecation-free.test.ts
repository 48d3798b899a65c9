import { buildSchema, parse, print } from 'graphql';
import { describe, expect, it } from 'vitest';
import { deprecatedIn, deprecatedWithoutReplacement, withoutDeprecated } from './deprecation-free.js';

/** A slice of OS2mo's v30 shape: plain links deprecated in favour of `*_response` links. */
const schema = buildSchema(`
  type Query {
    units: [Unit!]!
    org: Org @deprecated(reason: "OS2mo is dropping the root organisation.")
  }
  type Org { uuid: ID! }
  type Unit {
    name: String
    parent(limit: Int): Unit @deprecated(reason: "Use \`parent_response\`.")
    parent_response(limit: Int): UnitResponse
    engagements: [Engagement!]! @deprecated(reason: "Use \`engagements_response\`.")
    engagements_response: EngagementPage!
    children(filter: String): [Unit!]! @deprecated(reason: "Use \`children_response\`.")
    children_response: UnitPage!
  }
  type UnitResponse { uuid: ID! current: Unit }
  type UnitPage { objects: [UnitResponse!]! }
  type Engagement {
    employee: [Person!] @deprecated(reason: "Use \`person\`.")
    person: [Person!] @deprecated(reason: "Use \`person_response\`.")
    person_response: PersonResponse
    unit_uuid: ID @deprecated(reason: "Use \`unit_response { uuid }\`.")
    unit_response: UnitResponse
  }
  type Person { name: String }
  type PersonResponse { uuid: ID! current: Person }
  type EngagementPage { objects: [EngagementResponse!]! }
  type EngagementResponse { uuid: ID! current: Engagement }
`);

const rewritten = (query: string) =>
  print(withoutDeprecated(schema, parse(query)))
    .replace(/\s+/g, ' ')
    .trim();

describe('withoutDeprecated', () => {
  it('writes each deprecated link as the `*_response` its reason names, the old selection under `current`', () => {
    expect(rewritten('{ units { name parent(limit: 1) { name } } }')).toBe(
      '{ units { name parent_response(limit: 1) { current { name } } } }',
    );
  });

  it("puts a page's selection under `objects { current }`, inner links first, following a chain of renames", () => {
    expect(rewritten('{ units { engagements { employee { name } unit_uuid } } }')).toBe(
      '{ units { engagements_response { objects { current { person_response { current { name } } unit_response { uuid } } } } } }',
    );
    expect(
      deprecatedIn(schema, rewritten('{ units { engagements { employee { name } unit_uuid } } }')),
    ).toEqual([]);
  });

  it('leaves what is deprecated without a replacement, and says so', () => {
    expect(rewritten('{ org { uuid } }')).toBe('{ org { uuid } }');
    expect(
      deprecatedWithoutReplacement(schema, 'org { uuid } units { children_response { objects { uuid } } }'),
    ).toEqual([{ coordinate: 'Query.org', reason: 'OS2mo is dropping the root organisation.' }]);
  });

  it('refuses to drop an argument the replacement does not take', () => {
    expect(() => rewritten('{ units { children(filter: "x") { name } } }')).toThrow(/children's arguments/);
  });
});
