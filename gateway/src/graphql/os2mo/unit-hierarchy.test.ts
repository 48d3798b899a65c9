import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, startStubBackend, type StubBackend } from '../../legacy/stub-backend.test-helpers.js';
import { stubbedVersions, type StubbedVersions } from '../stub-org.test-helpers.js';

/**
 * Unit hierarchies as OS2mo 2.4.0 keeps them: stored by `ou/create` and the unit edit, never given back by a
 * unit read, filtered on by the children reads (`backend/mora/service/orgunit.py`@2.4.0, `get_children`,
 * `_get_immediate_children`: `org_unit_hierarchy=<class>` becomes LoRa's `opmærkning`). This backend answers
 * those reads so: Top at the top, Line and Safety below it in one hierarchy each, Plain (below Line) in none.
 */
const org = '0b000000-0000-4000-8000-000000000000';
const line = '0b000000-0000-4000-8000-0000000000a1';
const safety = '0b000000-0000-4000-8000-0000000000a2';
const unitType = '0b000000-0000-4000-8000-0000000000a3';
const validity = { from: '2020-01-01', to: null };
const unit = (n: number, name: string, parent: string | null, hierarchy: string | null) => ({
  uuid: `0b000000-0000-4000-8000-00000000000${n}`,
  name,
  user_key: name.toLowerCase(),
  validity,
  parent,
  hierarchy,
});
const top = unit(1, 'Top', null, null);
const lineUnit = unit(2, 'Line', top.uuid, line);
const safetyUnit = unit(3, 'Safety', top.uuid, safety);
const plain = unit(4, 'Plain', lineUnit.uuid, null);
const units = [top, lineUnit, safetyUnit, plain];
const hierarchyClasses = [
  { uuid: line, name: 'Linjeorganisation', user_key: 'linjeorg', example: null, scope: null, owner: null },
  {
    uuid: safety,
    name: 'Sikkerhedsorganisation',
    user_key: 'sikkerhed',
    example: null,
    scope: null,
    owner: null,
  },
];
const facet = (key: string, items: object[]) => ({
  uuid:
    key === 'org_unit_hierarchy'
      ? '0b000000-0000-4000-8000-0000000000f1'
      : '0b000000-0000-4000-8000-0000000000f2',
  user_key: key,
  description: '',
  path: `/service/o/${org}/f/${key}/`,
  data: { items, offset: 0, total: items.length },
});

const item = ({ uuid, name, user_key }: (typeof units)[number]) => ({ uuid, name, user_key, validity });
/** A unit as `GET /service/ou/{uuid}/` gives it: its parent chain, and no hierarchy (2.4.0 reads none). */
const read = (record: (typeof units)[number]): object => {
  const parent = units.find((candidate) => candidate.uuid === record.parent);
  return { ...item(record), parent: parent ? read(parent) : null, org_unit_type: { uuid: unitType } };
};

let backend: StubBackend;
let versions: StubbedVersions;

beforeAll(async () => {
  backend = await startStubBackend();
  backend.answer((request, response) => {
    const url = new URL(request.url, 'http://stub');
    const path = url.pathname;
    const hierarchy = url.searchParams.get('org_unit_hierarchy');
    const inHierarchy = (record: (typeof units)[number]) => !hierarchy || record.hierarchy === hierarchy;
    if (path === '/service/o/') return json(response, 200, [{ uuid: org, name: 'Org', user_key: 'org' }]);
    if (path === `/service/o/${org}/ou/`) {
      // 2.4.0's `details=nchildren`: each unit's number of children.
      const counted = url.searchParams.get('details') === 'nchildren';
      const items = units.map((unit) => ({
        ...item(unit),
        ...(counted ? { child_count: units.filter((u) => u.parent === unit.uuid).length } : {}),
      }));
      return json(response, 200, { items, offset: 0, total: units.length });
    }
    if (path === `/service/o/${org}/children`) {
      return json(response, 200, units.filter((u) => u.parent === null && inHierarchy(u)).map(item));
    }
    if (path === `/service/o/${org}/f/`) {
      return json(response, 200, [
        { uuid: facet('org_unit_hierarchy', []).uuid, user_key: 'org_unit_hierarchy' },
        { uuid: facet('org_unit_type', []).uuid, user_key: 'org_unit_type' },
      ]);
    }
    if (path === `/service/o/${org}/f/org_unit_hierarchy/`) {
      return json(response, 200, facet('org_unit_hierarchy', hierarchyClasses));
    }
    if (path === `/service/o/${org}/f/org_unit_type/`) {
      return json(
        response,
        200,
        facet('org_unit_type', [{ uuid: unitType, name: 'Afdeling', user_key: 'afd' }]),
      );
    }
    const klass = hierarchyClasses.find((candidate) => path === `/service/c/${candidate.uuid}/`);
    if (klass)
      return json(response, 200, { ...klass, facet: { uuid: facet('org_unit_hierarchy', []).uuid } });
    for (const record of units) {
      if (path === `/service/ou/${record.uuid}/`) return json(response, 200, read(record));
      if (path === `/service/ou/${record.uuid}/details/org_unit`) {
        return json(response, 200, url.searchParams.get('validity') ? [] : [read(record)]);
      }
      if (path === `/service/ou/${record.uuid}/children`) {
        const children = units.filter((u) => u.parent === record.uuid && inHierarchy(u));
        return json(
          response,
          200,
          children.map((child) => ({ ...item(child), child_count: 0 })),
        );
      }
    }
    return json(response, 404, { error: true, status: 404, error_key: 'E_NOT_FOUND', description: path });
  });
  versions = stubbedVersions(backend);
});
afterAll(async () => {
  await versions.close();
  await backend.close();
});
beforeEach(() => {
  backend.received.length = 0;
});

const names = (body: { data?: any }): string[] =>
  body.data.org_units.objects.map((object: { current: { name: string } }) => object.current.name).sort();

describe("a unit's hierarchy", () => {
  it("is read from 2.4.0's filtered children listings, in every spelling OS2mo has", async () => {
    const { body } = await versions.ask(
      'v30',
      `{ org_units { objects { current {
        name org_unit_hierarchy org_unit_hierarchy_model { uuid user_key }
        unit_hierarchy_response { uuid current { name } }
      } } } }`,
    );
    expect(body.errors).toBeUndefined();
    const byName = Object.fromEntries(
      body.data.org_units.objects.map((o: { current: { name: string } }) => [o.current.name, o.current]),
    );
    expect(byName.Line).toEqual({
      name: 'Line',
      org_unit_hierarchy: line,
      org_unit_hierarchy_model: { uuid: line, user_key: 'linjeorg' },
      unit_hierarchy_response: { uuid: line, current: { name: 'Linjeorganisation' } },
    });
    expect(byName.Safety.org_unit_hierarchy).toBe(safety);
    for (const none of ['Top', 'Plain']) {
      expect(byName[none]).toEqual({
        name: none,
        org_unit_hierarchy: null,
        org_unit_hierarchy_model: null,
        unit_hierarchy_response: null,
      });
    }
    expect(backend.received.map((request) => request.url)).toContain(
      `/service/ou/${top.uuid}/children?at=2024-06-01&org_unit_hierarchy=${line}`,
    );
  });

  it('is served on v21 under its older spellings', async () => {
    const { body } = await versions.ask(
      'v21',
      `query($uuid: UUID!) { org_units(filter: {uuids: [$uuid]}) { objects { current {
        org_unit_hierarchy org_unit_hierarchy_model { uuid }
      } } } }`,
      { variables: { uuid: safetyUnit.uuid } },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.org_units.objects[0].current).toEqual({
      org_unit_hierarchy: safety,
      org_unit_hierarchy_model: { uuid: safety },
    });
  });
});

describe("the unit filter's hierarchy reads", () => {
  it('read the filtered children of the top level and of the units with children, not of a leaf', async () => {
    const { body } = await versions.ask(
      'v30',
      `{ org_units(filter: {hierarchies: ["${line}"]}) { objects { uuid } } }`,
    );
    expect(body.errors).toBeUndefined();
    const filtered = backend.received
      .map((request) => request.url)
      .filter((url) => url.includes(`org_unit_hierarchy=${line}`))
      .map((url) => url.split('?')[0]);
    // Top has Line and Safety below it, Line has Plain; Safety and Plain have none.
    expect(filtered.sort()).toEqual(
      [
        `/service/o/${org}/children`,
        `/service/ou/${top.uuid}/children`,
        `/service/ou/${lineUnit.uuid}/children`,
      ].sort(),
    );
  });
});

// OS2mo's `tests/graphapi/test_organisation_units.py`@HEAD, `test_org_unit_hierarchy_filter`: no filter and
// `hierarchies: null` keep every unit, one hierarchy its units, two the units of either.
describe("the unit filter's hierarchy members", () => {
  it.each([
    ['nothing given', '{}', ['Line', 'Plain', 'Safety', 'Top']],
    ['`hierarchies: null`', '{hierarchies: null}', ['Line', 'Plain', 'Safety', 'Top']],
    ['`hierarchy: null`', '{hierarchy: null}', ['Line', 'Plain', 'Safety', 'Top']],
    ['one hierarchy (deprecated list)', `{hierarchies: ["${line}"]}`, ['Line']],
    ['two hierarchies (deprecated list)', `{hierarchies: ["${line}", "${safety}"]}`, ['Line', 'Safety']],
    ['one hierarchy by UUID', `{hierarchy: {uuids: ["${safety}"]}}`, ['Safety']],
    ['a hierarchy by user key', '{hierarchy: {user_keys: ["linjeorg"]}}', ['Line']],
    [
      'both members, added together',
      `{hierarchy: {uuids: ["${line}"]}, hierarchies: ["${safety}"]}`,
      ['Line', 'Safety'],
    ],
    // OS2mo: an empty class filter keeps every class, so every unit with a hierarchy.
    ['an empty class filter', '{hierarchy: {}}', ['Line', 'Safety']],
    // OS2mo: `hierarchies: []` becomes `hierarchy.uuids: []`, which no class matches.
    ['an empty list', '{hierarchies: []}', []],
    ['a class of no hierarchy', `{hierarchies: ["${unitType}"]}`, []],
  ])('keeps for %s the units of that hierarchy', async (_what, filter, expected) => {
    const { body } = await versions.ask(
      'v30',
      `{ org_units(filter: ${filter}) { objects { current { name } } } }`,
    );
    expect(body.errors).toBeUndefined();
    expect(names(body)).toEqual(expected);
  });

  it('narrows with the other members', async () => {
    const { body } = await versions.ask(
      'v30',
      `query($top: UUID!) { org_units(filter: {parents: [$top], hierarchies: ["${safety}"]}) {
        objects { current { name } } } }`,
      { variables: { top: top.uuid } },
    );
    expect(body.errors).toBeUndefined();
    expect(names(body)).toEqual(['Safety']);
  });

  // os2mo-naldo's organisation tree with a hierarchy chosen (`web/src/lib/components/org/tree/OrgTree.svelte`,
  // `OrgUnitsWithFilteredChildren`): the top units with a descendant in the hierarchy.
  it("answers the UI's filtered tree with the top units above the hierarchy's units", async () => {
    const tree = `query($fromDate: DateTime, $orgUnitHierarchies: [UUID!]) {
      org_units(filter: {parents: null, descendant: {from_date: $fromDate, hierarchy: {uuids: $orgUnitHierarchies}}}) {
        objects { validities { name uuid
          has_children(filter: {descendant: {from_date: $fromDate, hierarchy: {uuids: $orgUnitHierarchies}}})
        } }
      }
    }`;
    const { body } = await versions.ask('v29', tree, {
      variables: { fromDate: '2024-06-01', orgUnitHierarchies: [safety] },
    });
    expect(body.errors).toBeUndefined();
    expect(body.data.org_units.objects).toEqual([
      { validities: [{ name: 'Top', uuid: top.uuid, has_children: true }] },
    ]);
    const { body: none } = await versions.ask('v29', tree, {
      variables: { fromDate: '2024-06-01', orgUnitHierarchies: [unitType] },
    });
    expect(none.data.org_units.objects).toEqual([]);
  });

  it("refuses a sub-filter's window other than the listing's day, as for every sub-filter", async () => {
    const { body } = await versions.ask(
      'v30',
      `{ org_units(filter: {descendant: {from_date: "2023-01-01", hierarchy: {uuids: ["${line}"]}}}) {
        objects { uuid } } }`,
    );
    expect(body.errors?.[0]?.extensions?.code).toBe('NOT_SERVED_BY_THIS_BACKEND');
  });
});
