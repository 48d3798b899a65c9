import { buildSchema, isInputObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { Source } from '../context.js';
import { encodeCursor } from '../resolvers/pagination.js';
import { filterMembers, v30Collections } from './collections-view.js';
import { boundFilters, linkFilterTypeDefs, linkTarget, oneOf, pageLink } from './link-filters.js';

const membersOf = (sdl: string, name: string) => {
  const type = buildSchema(
    `scalar UUID scalar DateTime scalar CPR ${inputStubs} ${sdl} type Query { a: Int }`,
  ).getType(name);
  return isInputObjectType(type) ? Object.keys(type.getFields()) : [];
};

/** The input types the collection filters name, as empty stand-ins. */
const inputStubs = [
  'EmployeeFilter',
  'OrganisationUnitFilter',
  'ClassFilter',
  'EngagementFilter',
  'ITUserFilter',
  'ITSystemFilter',
  'FacetFilter',
]
  .map((name) => `input ${name} { a: Int }`)
  .join(' ');

const record = (uuid: string, from: string): Source => ({ uuid, __at: from, validity: { from } });

describe('bound filters (OS2mo seed_resolver.py@HEAD, get_bound_filter)', () => {
  it('are their collection filter less the members the link binds, and nothing else', () => {
    const address = v30Collections.find((view) => view.filter === 'AddressFilter')!;
    const all = filterMembers(address).map((line) => line.trim().split(':')[0]);
    expect(membersOf(linkFilterTypeDefs(['OrgUnitboundaddressfilter']), 'OrgUnitboundaddressfilter')).toEqual(
      all.filter((member) => member !== 'org_unit' && member !== 'org_units'),
    );
    expect(membersOf(linkFilterTypeDefs(['UuidsBoundEmployeeFilter']), 'UuidsBoundEmployeeFilter')).toEqual([
      'user_keys',
      'from_date',
      'to_date',
      'query',
      'cpr_numbers',
    ]);
  });

  it("test a link's objects with the collection of their kind", () => {
    expect(linkTarget('EmployeeBoundManagerFilter')).toEqual({ kind: 'detail', type: 'manager' });
    expect(linkTarget('ParentBoundOrganisationUnitFilter')).toEqual({ kind: 'unit' });
    expect(linkTarget('FacetBoundClassFilter')).toEqual({ kind: 'class' });
    for (const name of Object.keys(boundFilters)) expect(() => linkTarget(name)).not.toThrow();
    expect(() => linkTarget('NoSuchFilter')).toThrow('NoSuchFilter is not a bound filter');
  });
});

describe("a link's page", () => {
  it('counts objects, not versions, and starts at the cursor', () => {
    const records = [
      record('a', '2020-01-01'),
      record('a', '2021-01-01'),
      record('b', '2020-01-01'),
      record('c', '2020-01-01'),
    ];
    expect(pageLink(records, { limit: 1 }).map((r) => r.uuid)).toEqual(['a', 'a']);
    expect(pageLink(records, { limit: 1, cursor: encodeCursor(1) }).map((r) => r.uuid)).toEqual(['b']);
    expect(pageLink(records, { cursor: encodeCursor(2) }).map((r) => r.uuid)).toEqual(['c']);
    expect(pageLink(records, { limit: 0 })).toEqual([]);
  });

  it('of one object is that object, null for a nullable link, and an error where OS2mo always has one', () => {
    const one = record('a', '2020-01-01');
    expect(oneOf([one], 'Address.address_type', false)).toBe(one);
    expect(oneOf([], 'Address.visibility', true)).toBeNull();
    expect(() => oneOf([], 'Address.address_type', false)).toThrow(
      'Address.address_type always has its one object',
    );
  });
});
