import { beforeAll, describe, expect, it } from 'vitest';
import { referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import { signIn, sharedReadOnlyStack, type GraphQLSession, type TestStack } from './stack.js';

/**
 * OS2mo's unit and person filters over the seeded stand-in, through the whole stack. Each expectation is
 * worked out from the units' own `parent_uuid` (another read of the Service API), so the filters are held to
 * the tree as the Service API tells it. The cases follow OS2mo's `tests/graphapi/test_organisation_units.py`
 * (`test_org_unit_parent_filter`, `…_name_filter`, `…_subtree_filter`, `…_descendant_filter`,
 * `…_ancestor_filter`) at HEAD.
 */
let stack: TestStack;
let nora: GraphQLSession;
interface Unit {
  uuid: string;
  name: string;
  parent_uuid: string | null;
}
let units: Unit[];
beforeAll(async () => {
  stack = await sharedReadOnlyStack();
  nora = await signIn(stack, 'nora');
  const body = await nora.ask('v30', '{ org_units { objects { current { uuid name parent_uuid } } } }');
  units = body.data!.org_units.objects.map((response: { current: Unit }) => response.current);
});

const byFilter = `query Units($filter: OrganisationUnitFilter!) {
  org_units(filter: $filter) { objects { uuid } }
}`;

async function unitsBy(filter: Record<string, unknown>): Promise<string[]> {
  const body = await nora.ask('v30', byFilter, { filter });
  expect(body.errors).toBeUndefined();
  return body.data!.org_units.objects.map((response: { uuid: string }) => response.uuid).sort();
}

const sorted = (list: Unit[]) => list.map((unit) => unit.uuid).sort();
const childrenOf = (uuid: string | null) => units.filter((unit) => unit.parent_uuid === uuid);
const parentOf = (uuid: string) => units.find((unit) => unit.uuid === uuid)?.parent_uuid ?? null;
function ancestorsAndSelf(uuid: string): string[] {
  const chain: string[] = [];
  for (let at: string | null = uuid; at !== null; at = parentOf(at)) chain.push(at);
  return chain;
}
/** A unit two levels down, with a parent that has a parent. */
const deepUnit = () => units.find((unit) => ancestorsAndSelf(unit.uuid).length >= 3)!;

describe('v30: OrganisationUnitFilter by the tree', () => {
  it('`parents: null` and `parent: null` are the top-level units; a list is the units directly below', async () => {
    const roots = sorted(childrenOf(null));
    expect(roots.length).toBeGreaterThan(0);
    expect(await unitsBy({ parents: null })).toEqual(roots);
    expect(await unitsBy({ parent: null })).toEqual(roots);
    const [first, second] = childrenOf(null).filter((unit) => childrenOf(unit.uuid).length > 0);
    expect(await unitsBy({ parents: [first!.uuid] })).toEqual(sorted(childrenOf(first!.uuid)));
    expect(await unitsBy({ parent: { uuids: [first!.uuid] } })).toEqual(sorted(childrenOf(first!.uuid)));
    if (second) {
      expect(await unitsBy({ parents: [first!.uuid, second.uuid] })).toEqual(
        sorted([...childrenOf(first!.uuid), ...childrenOf(second.uuid)]),
      );
    }
  });

  it('`descendant` (and its old name `subtree`) keeps the matched unit and its ancestors', async () => {
    const deep = deepUnit();
    const chain = ancestorsAndSelf(deep.uuid).sort();
    expect(await unitsBy({ descendant: { uuids: [deep.uuid] } })).toEqual(chain);
    expect(await unitsBy({ subtree: { uuids: [deep.uuid] } })).toEqual(chain);
  });

  it('`ancestor` keeps the matched unit and every unit below it', async () => {
    const top = parentOf(deepUnit().uuid)!;
    const below = units.filter((unit) => ancestorsAndSelf(unit.uuid).includes(top));
    expect(below.length).toBeGreaterThan(1);
    expect(await unitsBy({ ancestor: { uuids: [top] } })).toEqual(sorted(below));
  });

  it('`child` keeps the parents of the matched units', async () => {
    const deep = deepUnit();
    expect(await unitsBy({ child: { uuids: [deep.uuid] } })).toEqual([parentOf(deep.uuid)]);
  });

  it('members combine: the children of a unit that are also named', async () => {
    const parent = parentOf(deepUnit().uuid)!;
    const child = childrenOf(parent)[0]!;
    expect(await unitsBy({ parent: { uuids: [parent] }, names: [child.name] })).toEqual(
      sorted(childrenOf(parent).filter((unit) => unit.name === child.name)),
    );
  });

  it('a nested filter runs with variables of its own type (graphql-js coerces them)', async () => {
    const deep = deepUnit();
    const body = await nora.ask(
      'v30',
      `query($inner: OrganisationUnitFilter) { org_units(filter: { descendant: $inner }) { objects { uuid } } }`,
      { inner: { parent: { uuids: [parentOf(deep.uuid)] }, uuids: [deep.uuid] } },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.org_units.objects.map((o: { uuid: string }) => o.uuid).sort()).toEqual(
      ancestorsAndSelf(deep.uuid).sort(),
    );
  });
});

describe('v30: OrganisationUnitFilter by name and search', () => {
  it('`names` keeps units of exactly those names; an empty list keeps none; null is no filter', async () => {
    const [one, two] = units;
    expect(await unitsBy({ names: [] })).toEqual([]);
    expect(await unitsBy({ names: ['__this__should__never__match__'] })).toEqual([]);
    expect(await unitsBy({ names: [one!.name, two!.name] })).toEqual(
      sorted(units.filter((unit) => unit.name === one!.name || unit.name === two!.name)),
    );
    expect((await unitsBy({ names: null })).length).toBe(units.length);
  });

  it('`query` finds a unit by a word of its name', async () => {
    const unit = deepUnit();
    const found = await unitsBy({ query: unit.name });
    expect(found).toContain(unit.uuid);
    expect(await unitsBy({ query: 'zzqx-nothing-like-it' })).toEqual([]);
  });
});

describe('v30: OrganisationUnit.has_children', () => {
  it('is whether the unit has a child, and whether one matches the filter', async () => {
    const body = await nora.ask(
      'v30',
      `{
      org_units(filter: { parents: null }) {
        objects { current { uuid has_children child_count named: has_children(filter: { names: ["__none__"] }) } }
      }
    }`,
    );
    expect(body.errors).toBeUndefined();
    const roots = body.data!.org_units.objects.map((response: { current: any }) => response.current);
    expect(roots.length).toBe(childrenOf(null).length);
    for (const root of roots) {
      expect(root.has_children).toBe(root.child_count > 0);
      expect(root.named).toBe(false);
    }
    expect(roots.some((root: { has_children: boolean }) => root.has_children)).toBe(true);
  });

  it("answers the UI's tree query (os2mo-naldo's OrgTree.svelte, OrgUnitsWithChildren)", async () => {
    const body = await nora.ask(
      'v30',
      `query OrgUnitsWithChildren($fromDate: DateTime) {
        org_units(filter: { parents: null, from_date: $fromDate }) {
          objects { validities { name user_key uuid has_children(filter: { from_date: $fromDate }) } }
        }
      }`,
      { fromDate: new Date().toISOString().slice(0, 10) },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.org_units.objects).toHaveLength(childrenOf(null).length);
  });
});

describe('v30: EmployeeFilter.query', () => {
  it('finds a person by a word of their name, and nobody for a word no one has', async () => {
    const everyone = await nora.ask(
      'v30',
      '{ persons(limit: 3) { objects { current { uuid given_name } } } }',
    );
    const person = everyone.data!.persons.objects[1].current;
    const body = await nora.ask(
      'v30',
      'query($query: String) { persons(filter: { query: $query }) { objects { uuid } } }',
      { query: person.given_name },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.persons.objects.map((o: { uuid: string }) => o.uuid)).toContain(person.uuid);
    const none = await nora.ask(
      'v30',
      '{ persons(filter: { query: "zzqx-nothing-like-it" }) { objects { uuid } } }',
    );
    expect(none.data!.persons.objects).toEqual([]);
  });
});

describe('v30: Employee.validity and Class.top_level_facet', () => {
  it("gives a person's validity from their version in force, the one `validities` lists", async () => {
    const body = await nora.ask(
      'v30',
      `{
      persons(limit: 3) { objects { current { validity { from to } } validities { validity { from to } } } }
    }`,
    );
    expect(body.errors).toBeUndefined();
    for (const response of body.data!.persons.objects) {
      expect(response.current.validity.from).toMatch(/^\d{4}-\d\d-\d\d/);
      expect(response.validities.map((version: any) => version.validity)).toContainEqual(
        response.current.validity,
      );
    }
  });

  it("answers a class's full name and top-level facet as OS2mo does: its name and its facet", async () => {
    const body = await nora.ask(
      'v30',
      '{ classes(limit: 5) { objects { current { name full_name facet { uuid } top_level_facet { uuid } } } } }',
    );
    expect(body.errors).toBeUndefined();
    for (const { current } of body.data!.classes.objects) {
      expect(current.full_name).toBe(current.name);
      expect(current.top_level_facet).toEqual(current.facet);
    }
  });
});

describe('v30: ClassFilter (OS2mo’s tests/graphapi/test_classes.py, test_class_filter)', () => {
  const classesBy = async (filter: Record<string, unknown>) => {
    const body = await nora.ask(
      'v30',
      'query($filter: ClassFilter) { classes(filter: $filter) { objects { current { uuid name scope facet { uuid } } } } }',
      { filter },
    );
    expect(body.errors).toBeUndefined();
    return body.data!.classes.objects.map((response: any) => response.current) as any[];
  };

  it('keeps classes of exactly the names and scopes given, and of the facets named by UUID', async () => {
    const all = await classesBy({});
    const sample = all.find((record) => record.scope !== null)!;
    expect((await classesBy({ name: [sample.name] })).map((c) => c.name)).toEqual(
      all.filter((c) => c.name === sample.name).map((c) => c.name),
    );
    expect((await classesBy({ scope: [sample.scope] })).length).toBe(
      all.filter((c) => c.scope === sample.scope).length,
    );
    expect(await classesBy({ scope: ['360NoScope'] })).toEqual([]);
    expect((await classesBy({ facets: [sample.facet.uuid] })).length).toBe(
      all.filter((c) => c.facet.uuid === sample.facet.uuid).length,
    );
  });

  it('`parent` (a self-containing filter, through a variable) keeps what `parents` keeps', async () => {
    const all = await classesBy({});
    const byList = await classesBy({ parents: all.map((c) => c.uuid) });
    expect(await classesBy({ parent: { uuids: all.map((c) => c.uuid) } })).toEqual(byList);
    expect(await classesBy({ parents: [] })).toEqual([]);
  });

  // test_integration_class_owner_filter: `include_none` keeps the classes without an owner, which every
  // seeded class is (the cases with owners are in gateway/src/graphql/os2mo/class-filters.test.ts).
  it('`owner` keeps no unowned class, and with include_none every one', async () => {
    const all = await classesBy({});
    const unit = { descendant: { uuids: [referenceUnitUuids[0]] } };
    expect(await classesBy({ owner: { ...unit, include_none: false } })).toEqual([]);
    expect(await classesBy({ owner: { ...unit, include_none: true } })).toEqual(all);
    expect(await classesBy({ owner: {} })).toEqual([]);
  });
});
