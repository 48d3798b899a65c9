import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, startStubBackend, type StubBackend } from '../../legacy/stub-backend.test-helpers.js';
import { answerStubOrg, stubOrg, stubbedVersions, type StubbedVersions } from '../stub-org.test-helpers.js';
import { heldNoneTypes } from './ledger/index.js';
import { v30Collections } from './collections-view.js';

/**
 * What the backend never holds, answered as OS2mo answers it for data written through the 2.x Service API.
 * Unit hierarchies: the contract's unit reads give none and its writes take none. Role bindings: OS2mo stores them as `Rollebinding` functions (`mora/mapping.py`@HEAD, `ROLEBINDING_KEY`),
 * a kind 2.4.0's `backend/mora/mapping.py` does not know, so no 2.x record is one.
 */
let backend: StubBackend;
let versions: StubbedVersions;
const itUser = {
  uuid: '0a000000-0000-4000-8000-000000000020',
  user_key: 'anne.h',
  itsystem: { uuid: '0a000000-0000-4000-8000-000000000021', name: 'AD', user_key: 'ad' },
  person: null,
  org_unit: { uuid: stubOrg.unit, name: 'Finance', user_key: 'finance' },
  validity: { from: '2020-01-01', to: null },
};

beforeAll(async () => {
  backend = await startStubBackend();
  backend.answer((request, response) => {
    const path = request.url.replace(/\?.*$/, '');
    if (path === `/service/ou/${stubOrg.unit}/details/it`) return json(response, 200, [itUser]);
    if (path === `/service/o/${stubOrg.organisation}/children`) {
      return json(response, 200, [{ ...finance, child_count: 0 }]);
    }
    return answerStubOrg(request, response);
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

const finance = { uuid: stubOrg.unit, name: 'Finance', user_key: 'finance', validity: itUser.validity };
const empty = { objects: [], page_info: { next_cursor: null } };

describe('role bindings', () => {
  it('are the one collection held none, declared with its reason', () => {
    const empty = v30Collections.filter((view) => view.source.kind === 'none').map((view) => view.type);
    expect(heldNoneTypes.map((held) => held.type)).toEqual(empty);
    expect(heldNoneTypes.every((held) => held.reason.length > 20)).toBe(true);
  });

  // The shape of os2mo-naldo's role-binding tab (`lib/components/tables/RoleBindingTable.svelte`).
  const tab = `query($filter: RoleBindingFilter!) { rolebindings(filter: $filter) { objects { validities {
    uuid
    ituser_response { uuid validities { user_key } }
    role_response { uuid current { name } }
    validity { from to }
  } } page_info { next_cursor } } }`;

  it('lists none, whatever the filter, without asking the Service API', async () => {
    const { body } = await versions.ask('v30', tab, {
      variables: { filter: { ituser: { uuids: [itUser.uuid] }, from_date: null, to_date: null } },
    });
    expect(body.errors).toBeUndefined();
    expect(body.data.rolebindings).toEqual(empty);
    expect(backend.received).toEqual([]);
  });

  it('refuses a window OS2mo refuses, as every collection does', async () => {
    const { body } = await versions.ask(
      'v30',
      '{ rolebindings(filter: {from_date: null}) { objects { uuid } } }',
    );
    expect(body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it("answers an IT account's role bindings with the empty list and the empty page", async () => {
    const { body } = await versions.ask(
      'v30',
      `query($unit: UUID!) { itusers(filter: {org_unit: {uuids: [$unit]}}) { objects { current {
        uuid rolebindings { uuid } rolebindings_response(limit: 1) { objects { uuid } page_info { next_cursor } }
      } } } }`,
      { variables: { unit: stubOrg.unit } },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.itusers.objects).toEqual([
      { current: { uuid: itUser.uuid, rolebindings: [], rolebindings_response: empty } },
    ]);
  });

  it('are not in v21, whose printout predates them', async () => {
    const { body } = await versions.ask('v21', '{ rolebindings { objects { uuid } } }');
    expect(body.errors?.[0]?.message).toMatch(/rolebindings/);
    expect(body.data).toBeUndefined();
  });
});

describe('unit hierarchies', () => {
  it('give a unit no hierarchy class', async () => {
    const { body } = await versions.ask(
      'v30',
      `query($unit: UUID!) { org_units(filter: {uuids: [$unit]}) { objects { current {
        name org_unit_hierarchy org_unit_hierarchy_model { uuid } unit_hierarchy_response { uuid }
      } } } }`,
      { variables: { unit: stubOrg.unit } },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.org_units.objects[0].current).toEqual({
      name: 'Finance',
      org_unit_hierarchy: null,
      org_unit_hierarchy_model: null,
      unit_hierarchy_response: null,
    });
  });

  it.each([
    ['a hierarchy class filter', `{hierarchy: {uuids: ["${stubOrg.jobFunction}"]}}`, []],
    ['an empty class filter', '{hierarchy: {}}', []],
    ['the deprecated list', `{hierarchies: ["${stubOrg.jobFunction}"]}`, []],
    ['an empty list', '{hierarchies: []}', []],
    ['null, which filters nothing', '{hierarchy: null, hierarchies: null}', ['Finance', 'Payroll']],
  ])('keep for %s the units OS2mo keeps of 2.x units', async (_what, filter, names) => {
    const { body } = await versions.ask(
      'v30',
      `{ org_units(filter: ${filter}) { objects { current { name } } } }`,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.org_units.objects.map((o: { current: { name: string } }) => o.current.name)).toEqual(
      names,
    );
  });

  // os2mo-naldo's organisation tree with a hierarchy chosen (`lib/components/org/tree/OrgTree.svelte`).
  it("answers the UI's filtered tree with no units", async () => {
    const { body } = await versions.ask(
      'v30',
      `query($fromDate: DateTime, $orgUnitHierarchies: [UUID!]) {
        org_units(filter: {parents: null, descendant: {from_date: $fromDate, hierarchy: {uuids: $orgUnitHierarchies}}}) {
          objects { validities { name uuid
            has_children(filter: {descendant: {from_date: $fromDate, hierarchy: {uuids: $orgUnitHierarchies}}})
          } }
        }
      }`,
      { variables: { fromDate: '2024-06-01', orgUnitHierarchies: [stubOrg.jobFunction] } },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.org_units.objects).toEqual([]);
  });

  it('keeps every child for a descendant filter whose hierarchy is null', async () => {
    const { body } = await versions.ask(
      'v30',
      `{ org_units(filter: {parents: null, descendant: {hierarchy: null}}) { objects { current {
        name has_children(filter: {hierarchy: {}})
      } } } }`,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.org_units.objects).toEqual([{ current: { name: 'Finance', has_children: false } }]);
  });
});
