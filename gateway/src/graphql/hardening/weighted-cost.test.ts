import { readFileSync } from 'node:fs';
import { buildSchema, getOperationAST, parse, type GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { filterBound, weightedCost } from './weighted-cost.js';

const schema = buildSchema(`
  type Unit { uuid: ID! name: String! children(limit: Int): UnitPage! parents(filter: UuidsBoundUnitFilter, limit: Int): UnitPage! parent(filter: UuidsBoundUnitFilter, limit: Int): Unit members(limit: Int): [Unit!]! }
  type UnitPage { objects: [Unit!]! }
  input UnitFilter { uuids: [ID!] }
  input UuidsBoundUnitFilter { uuids: [ID!] }
  type CprLookup { name: String }
  type Query { units(limit: Int = 100, filter: UnitFilter): UnitPage! cpr_lookup(cpr_number: String!): CprLookup }
`);

function costOf(
  query: string,
  variables: Record<string, unknown> = {},
  operationName?: string,
  against: GraphQLSchema = schema,
) {
  const document = parse(query);
  const operation = getOperationAST(document, operationName)!;
  return weightedCost({ schema: against, document, operation, variables });
}

describe('the weighted cost of one request', () => {
  const byVariable = 'query ($n: Int) { units(limit: $n) { objects { uuid name } } }';

  it('weighs the limit each request’s own variables give, for one and the same document', () => {
    const cheap = costOf(byVariable, { n: 1 });
    expect(costOf(byVariable, { n: 1000 })).toBe(cheap * 1000);
    expect(costOf(byVariable, { n: 1 })).toBe(cheap);
  });

  it('weighs the schema’s default page size when the variable is not given, and fewer UUIDs when named', () => {
    const cheap = costOf(byVariable, { n: 1 });
    expect(costOf(byVariable)).toBe(cheap * 100);
    expect(costOf('{ units(filter: { uuids: ["a", "b"] }) { objects { uuid name } } }')).toBe(cheap * 2);
  });

  it('weighs a link without a limit as the objects of one object, a tenth of an unlimited listing', () => {
    const children = (limit: string) =>
      costOf(`{ units(limit: 1) { objects { uuid children${limit} { objects { uuid } } } } }`);
    expect(children('')).toBe(children('(limit: 10)'));
    expect(children('')).toBeLessThan(children('(limit: 100)'));
    expect(costOf('{ units(limit: null) { objects { uuid } } }')).toBe(
      100 * costOf('{ units(limit: 1) { objects { uuid } } }'),
    );
  });

  it('weighs a link that follows the UUIDs its object holds as those few, not as every record of an owner', () => {
    const link = (name: string, limit = '') =>
      costOf(`{ units(limit: 1) { objects { uuid ${name}${limit} { objects { uuid } } } } }`);
    expect(link('parents')).toBe(link('parents', '(limit: 3)'));
    expect(link('parents')).toBeLessThan(link('children'));
  });

  it("weighs a link to one object as that object, whatever its `limit` (OS2mo's links to one take one)", () => {
    const link = (selection: string) => costOf(`{ units(limit: 1) { objects { uuid ${selection} } } }`);
    expect(link('parent { uuid }')).toBe(link('parent(limit: 1000) { uuid }'));
    expect(link('parent { uuid }')).toBeLessThan(link('members(limit: 2) { uuid }'));
    // A plain list link without a limit weighs one object, as before OS2mo's links took `limit`.
    expect(link('members { uuid }')).toBe(link('members(limit: 1) { uuid }'));
    expect(link('members(limit: 1000) { uuid }')).toBeGreaterThan(100 * link('parent(limit: 1000) { uuid }'));
  });

  it('weighs a plain list below a list of the same objects as what it can return, not one object (issue 35)', () => {
    const link = (selection: string) => costOf(`{ units(limit: 1) { objects { uuid ${selection} } } }`);
    // Once on a path: one object, as before.
    const once = link('members { uuid }');
    // Below a list of its own objects: ten, as a link without a limit, at every turn.
    expect(link('members { uuid members { uuid } }')).toBe(
      link('members { uuid members(limit: 10) { uuid } }'),
    );
    expect(link('members { members { members { uuid } } }')).toBe(
      link('members { members(limit: 10) { members(limit: 10) { uuid } } }'),
    );
    expect(link('members { members { uuid } }')).toBeGreaterThan(5 * once);
    // A page's objects and an object's validities are weighed above them, so they do not count as passed.
    expect(link('children { objects { uuid members { uuid } } }')).toBe(
      link('children(limit: 10) { objects { uuid members(limit: 1) { uuid } } }'),
    );
  });

  it('weighs the operation the request runs, not the others of its document', () => {
    const document = `
      query Small { units(limit: 1) { objects { uuid } } }
      query Large { units(limit: 1000) { objects { uuid } } }`;
    expect(costOf(document, {}, 'Large')).toBe(costOf(document, {}, 'Small') * 1000);
  });

  it('weighs a fragment where it is spread', () => {
    const spread = costOf(
      'query ($n: Int) { units(limit: $n) { ...page } } fragment page on UnitPage { objects { uuid name } }',
      { n: 10 },
    );
    expect(spread).toBeGreaterThan(costOf(byVariable, { n: 10 }));
  });

  it('weighs a CPR lookup as 500 objects, so the default limit of 20,000 allows 11 probes and not 12 (issue 28)', () => {
    const probes = (count: number) =>
      `{ ${Array.from({ length: count }, (_, i) => `p${i}: cpr_lookup(cpr_number: "${i}") { name }`).join(' ')} }`;
    expect(costOf(probes(1))).toBe((2 + 1.5) * 500);
    expect(costOf(probes(11))).toBeLessThanOrEqual(20_000);
    expect(costOf(probes(12))).toBeGreaterThan(20_000);
  });
});

describe('what a filter bounds', () => {
  it('bounds by the UUIDs or user keys it names', () => {
    expect(filterBound({ uuids: ['a', 'b'] })).toBe(2);
    expect(filterBound({ user_keys: ['visibility'] })).toBe(1);
    expect(filterBound({ user_keys: null, from_date: '2024-01-01' })).toBe(Infinity);
    expect(filterBound(undefined)).toBe(Infinity);
  });

  // OS2mo's UI sends one UUID by a variable into a list member (`org_units: $org_unit`,
  // os2mo-naldo web/src/lib/components/tables/AddressTable.svelte): a variable's raw value is not a list yet.
  it('counts one value given for a list member as one', () => {
    expect(filterBound({ uuids: 'a' })).toBe(1);
    expect(filterBound({ org_units: 'u', employees: null })).toBe(10);
    expect(filterBound({ employee: { uuids: 'p' } })).toBe(10);
  });

  it("bounds by the owners it names, each owner's records weighing as a link's objects", () => {
    expect(filterBound({ org_units: ['u'] })).toBe(10);
    expect(filterBound({ employee: { uuids: ['p', 'q'] } })).toBe(20);
  });

  it("weighs the records of an owner's engagements as that owner's records, and other owners' owners ten each", () => {
    expect(filterBound({ engagement: { org_unit: { uuids: ['u'] } } })).toBe(10);
    expect(filterBound({ engagements: { employee: { uuids: ['p', 'q'] } } })).toBe(20);
    expect(filterBound({ engagement: { uuids: ['e'] } })).toBe(10);
    // The records of a unit's children are the records of each child, not of the one unit.
    expect(filterBound({ org_unit: { parent: { uuids: ['u'] } } })).toBe(100);
    expect(filterBound({ engagement: { org_unit: { parent: { uuids: ['u'] } } } })).toBe(100);
  });

  it('leaves unbounded the records of engagements found by no owner', () => {
    expect(filterBound({ engagement: { from_date: '2024-01-01' } })).toBe(Infinity);
    expect(filterBound({ engagement: { org_unit: { descendant: { uuids: ['u'] } } } })).toBe(Infinity);
    expect(filterBound({ engagement: { org_unit: null } })).toBe(Infinity);
  });

  it('takes the tightest of its members, and leaves unbounded what names no owner', () => {
    expect(filterBound({ uuids: ['a'], org_units: ['u'] })).toBe(1);
    expect(filterBound({ org_units: ['u'], employees: null })).toBe(10);
    expect(filterBound({ parent: null })).toBe(Infinity);
    expect(filterBound({ org_unit: { descendant: { uuids: ['u'] } } })).toBe(Infinity);
    expect(filterBound({ owner: { include_none: true, descendant: { uuids: ['u'] } } })).toBe(Infinity);
  });
});

/** OS2mo's own printout of v29, the schema the UI's documents are written against. */
const os2mo = buildSchema(
  readFileSync(new URL('../../../../test/fixtures/os2mo-graphql/os2mo-v29.graphql', import.meta.url), 'utf8'),
);
const maxCost = 20_000;
const at = '2024-01-01';
const costAtV29 = (query: string, variables: Record<string, unknown>) =>
  costOf(query, variables, undefined, os2mo);

/** The type selectors of the UI's forms (magenta-aps/os2mo-naldo web/src/lib/http/queries.ts, FacetsAndClasses). */
const facetsAndClasses = (
  facets: string,
) => `query FacetsAndClasses($at: DateTime, $units: [UUID!], $keys: [String!]) {
  facets${facets} { objects { validities { uuid user_key
    classes_responses(filter: {
      from_date: $at
      owner: { include_none: true, descendant: { uuids: $units, from_date: $at }, from_date: $at }
    }) { objects { uuid current(at: $at) { name user_key scope } } }
  } } }
}`;

describe("the cost of OS2mo's UI's page queries (v29), within the default limit", () => {
  it("lets a form's facets with their classes through, the user keys bounding the facets", () => {
    // The unit forms ask for three facets at most (web/src/routes/(app)/organisation/[[uuid]]/create/unit/+page.svelte).
    const keys = ['org_unit_level', 'org_unit_type', 'time_planning'];
    const query = facetsAndClasses('(filter: { user_keys: $keys })');
    expect(costAtV29(query, { at, units: ['u'], keys })).toBeLessThanOrEqual(maxCost);
  });

  it("lets a unit's and a person's detail tabs through, the unit or person bounding the records", () => {
    const named = (link: string) => `${link} { uuid current(at: $from) { name } }`;
    const tabs = {
      // web/src/lib/components/tables/AddressTable.svelte
      addresses: `query ($units: [UUID!], $from: DateTime) {
        addresses(filter: { org_units: $units, from_date: $from, to_date: null }) { objects { validities {
          uuid name user_key value ${named('address_type_response')} ${named('visibility_response')}
          ituser_response { uuid validities(start: $from, end: null) {
            user_key validity { from to } itsystem_response { uuid current(at: $from) { user_key name } }
          } }
          validity { from to }
        } } }
      }`,
      // web/src/lib/components/tables/KLETable.svelte
      kles: `query ($units: [UUID!], $from: DateTime) {
        kles(filter: { org_units: $units, from_date: $from, to_date: null }) { objects { validities {
          uuid validity { from to } kle_number_response { uuid current(at: $from) { name user_key } }
          kle_aspects_response { objects { uuid current(at: $from) { name } } }
        } } }
      }`,
      // web/src/lib/components/tables/LeaveTable.svelte
      leaves: `query ($people: [UUID!], $from: DateTime) {
        leaves(filter: { employees: $people, from_date: $from, to_date: null }) { objects { validities {
          uuid validity { from to } ${named('leave_type_response')}
          engagement_response { uuid current(at: $from) {
            ${named('org_unit_response')} job_function_response { current(at: $from) { name } }
          } }
        } } }
      }`,
      // web/src/lib/components/tables/ITUserTable.svelte
      itusers: `query ($people: [UUID!], $from: DateTime) {
        itusers(filter: { employee: { uuids: $people }, from_date: $from, to_date: null }) { objects { validities {
          uuid user_key external_id ${named('itsystem_response')} validity { from to } ${named('primary_response')}
          engagements(filter: { from_date: $from, to_date: null }) { validities {
            uuid validity { from to } org_unit_response { uuid current(at: $from) { name user_key } }
            job_function_response { current(at: $from) { name user_key } }
          } }
        } } }
      }`,
      // web/src/lib/components/tables/OrgITUserTable.svelte: the IT users of the unit's engagements and its own.
      unitItusers: `query ($units: [UUID!], $from: DateTime) {
        byEngagement: itusers(filter: { engagement: { org_unit: { uuids: $units } }, from_date: $from }) {
          objects { validities {
            uuid user_key external_id ${named('itsystem_response')} validity { from to } ${named('primary_response')}
            engagements(filter: { from_date: $from }) { validities {
              uuid validity { from to } org_unit_response { uuid current(at: $from) { name user_key } }
              job_function_response { current(at: $from) { name user_key } }
            } }
          } }
        }
        byOrgUnit: itusers(filter: { org_unit: { uuids: $units }, from_date: $from }) { objects { validities {
          uuid user_key external_id ${named('itsystem_response')} validity { from to } ${named('primary_response')}
        } } }
      }`,
    };
    for (const [tab, query] of Object.entries(tabs)) {
      const cost = costAtV29(query, { units: ['u'], people: ['p'], from: at });
      expect(cost, tab).toBeLessThanOrEqual(maxCost);
      // The same tab over every unit's or person's records weighs a root page more: a unit bounds it.
      const everyone = costAtV29(query, { units: null, people: null, from: at });
      expect(everyone, tab).toBeGreaterThan(cost);
    }
  });

  it("lets the search through: a page of hits, each with its plain links' addresses and IT accounts", () => {
    // web/src/lib/components/search/Search.svelte: every hit lists its addresses and IT accounts.
    const search = `query ($filter: EmployeeFilter!, $limit: int, $at: DateTime) {
      employees(filter: $filter, limit: $limit) { objects { validities {
        uuid name cpr_number validity { from to }
        itusers { user_key }
        addresses { address_type_response { uuid current(at: $at) { name } } resolve { value } }
      } } }
    }`;
    const variables = { filter: { query: 'Anna' }, limit: 10, at };
    expect(costAtV29(search, variables)).toBeLessThanOrEqual(maxCost);
    // A limit given on a plain link is weighed as given.
    const wide = search.replace('itusers {', 'itusers(limit: 1000) {');
    expect(costAtV29(wide, variables)).toBeGreaterThan(maxCost);
  });

  it("refuses the chain of a facet's classes, their facet's classes and theirs, which the UI never sends (issue 35)", () => {
    const chain = (turns: number) => {
      let inner = 'classes { uuid name }';
      for (let turn = 0; turn < turns; turn += 1) inner = `classes { uuid facet { ${inner} } }`;
      return inner;
    };
    const aliases = (count: number, turns: number) =>
      `{ ${Array.from({ length: count }, (_, i) => `a${i}: facets(filter: { user_keys: ["job_function"] }) { objects { current { ${chain(turns)} } } }`).join(' ')} }`;
    expect(costAtV29(aliases(30, 2), {})).toBeGreaterThan(maxCost);
    expect(costAtV29(aliases(1, 3), {})).toBeGreaterThan(maxCost);
    // One turn (a facet's classes, and their facet's classes) is what a form reads, and stays within the limit.
    expect(costAtV29(aliases(1, 1), {})).toBeLessThanOrEqual(maxCost);
  });

  it('weighs every facet with its classes as the plain spelling does, and a subtree as a full page', () => {
    // `classes_responses` without a limit weighs as its plain twin `classes`: a facet's classes, one object the
    // first time a path passes them (the answer budget bounds what the data really holds).
    const plain = facetsAndClasses('')
      .replace(/classes_responses\(filter: \{[^)]*\}\)/, 'classes')
      .replace(
        '{ objects { uuid current(at: $at) { name user_key scope } } }',
        '{ uuid name user_key scope }',
      );
    const response = costAtV29(facetsAndClasses(''), { at, units: ['u'] });
    const twin = costAtV29(plain, { at, units: ['u'] });
    expect(response).toBeGreaterThanOrEqual(twin);
    expect(response).toBeLessThan(twin * 2);
    const subtree = `query ($units: [UUID!], $from: DateTime) {
      kles(filter: { org_unit: { descendant: { uuids: $units } }, from_date: $from }) { objects { validities {
        uuid kle_number_response { uuid current(at: $from) { name user_key } }
        kle_aspects_response { objects { uuid current(at: $from) { name } } }
      } } }
    }`;
    // A subtree names no owner the filter bounds: it weighs a full root page, ten times the unit's own records.
    const ownRecords = subtree.replace(
      'org_unit: { descendant: { uuids: $units } }',
      'org_unit: { uuids: $units }',
    );
    expect(costAtV29(subtree, { units: ['u'], from: at })).toBeGreaterThanOrEqual(
      10 * costAtV29(ownRecords, { units: ['u'], from: at }),
    );
  });
});

describe("one link, one cost in both of v30's spellings", () => {
  const referencePlain = `{ org_units(filter: { uuids: ["a", "b", "c"] }) { objects { current { name
    managers { manager_type { user_key } person { name engagements { job_function { user_key } } } }
  } } } }`;
  const referenceResponse = `{ org_units(filter: { uuids: ["a", "b", "c"] }) { objects { current { name
    managers_response { objects { current {
      manager_type_response { current { user_key } }
      person_response { current { name
        engagements_response { objects { current { job_function_response { current { user_key } } } } }
      } }
    } } }
  } } } }`;

  it("lets the reference query through in v30's *_response links, at less than twice its plain cost", () => {
    const plain = costAtV29(referencePlain, {});
    const response = costAtV29(referenceResponse, {});
    expect(response).toBeLessThanOrEqual(maxCost);
    expect(response).toBeLessThan(plain * 2);
  });

  it('weighs a limit given on a *_response link as given, as on its plain twin', () => {
    const limited = referenceResponse.replace('managers_response {', 'managers_response(limit: 1000) {');
    expect(costAtV29(limited, {})).toBeGreaterThan(maxCost);
  });

  it('refuses the facet chain in *_response links as in plain links: a list passed again weighs 10', () => {
    const chain = (turns: number) => {
      let inner = 'classes_response { objects { current { uuid } } }';
      for (let turn = 0; turn < turns; turn += 1)
        inner = `classes_response { objects { current { uuid facet_response { current { ${inner} } } } } }`;
      return `{ facets { objects { current { ${inner} } } } }`;
    };
    expect(costAtV29(chain(3), {})).toBeGreaterThan(maxCost);
    const aliases = Array.from({ length: 30 }, (_, i) => `a${i}: ${chain(2).slice(2, -2)}`).join(' ');
    expect(costAtV29(`{ ${aliases} }`, {})).toBeGreaterThan(maxCost);
  });
});
