import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, startStubBackend, type StubBackend } from '../../legacy/stub-backend.test-helpers.js';
import { answerStubOrg, stubOrg, stubbedVersions, type StubbedVersions } from '../stub-org.test-helpers.js';
import { heldNoneTypes } from './ledger/index.js';
import { v30Collections } from './collections-view.js';

/**
 * What the backend never holds, answered as OS2mo answers it for data written through the 2.x Service API
 * (each such entry of the ledger is checked against the contract in `ledger/ledger.test.ts`). Role bindings: OS2mo stores them as `Rollebinding` functions (`mora/mapping.py`@HEAD, `ROLEBINDING_KEY`),
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
    if (path === `/service/o/${stubOrg.organisation}/f/`) return json(response, 200, [jobFunctions]);
    if (path === `/service/o/${stubOrg.organisation}/f/job_function/`) {
      return json(response, 200, { ...jobFunctions, data: { items: [accountant], offset: 0, total: 1 } });
    }
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

const jobFunctions = {
  uuid: '0a000000-0000-4000-8000-000000000030',
  user_key: 'job_function',
  description: '',
  path: `/service/o/${stubOrg.organisation}/f/job_function/`,
};
const accountant = {
  uuid: stubOrg.jobFunction,
  name: 'Accountant',
  user_key: 'accountant',
  example: null,
  scope: null,
  owner: null,
};
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

// One fact, one answer: every spelling of a fact 2.x holds none of answers alike (null, the empty list or page).
describe("a facet's parent and a class's IT system", () => {
  it('answer null or empty in every spelling, without an error', async () => {
    const ask = async (query: string) => {
      const { body } = await versions.ask('v30', query);
      expect(body.errors).toBeUndefined();
      const objects = Object.values(body.data as Record<string, { objects: { current: unknown }[] }>)[0]!
        .objects;
      expect(objects.length).toBeGreaterThan(0);
      return objects.map((object) => object.current);
    };
    expect(
      await ask(
        '{ facets(limit: 1) { objects { current { parent { uuid } parent_uuid parent_response { uuid } } } } }',
      ),
    ).toEqual([{ parent: null, parent_uuid: null, parent_response: null }]);
    expect(
      await ask(
        '{ facets(limit: 1) { objects { current { children(limit: 1) { uuid } children_response(limit: 1) { objects { uuid } } } } } }',
      ),
    ).toEqual([{ children: [], children_response: { objects: [] } }]);
    expect(
      await ask(
        '{ classes(limit: 1) { objects { current { it_system { uuid } it_system_uuid it_system_response { uuid } } } } }',
      ),
    ).toEqual([{ it_system: null, it_system_uuid: null, it_system_response: null }]);
  });

  it('are served on v21 too, whose printout has the older spellings', async () => {
    const { body } = await versions.ask(
      'v21',
      '{ facets { objects { current { parent { uuid } parent_uuid children { uuid } } } } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.facets.objects[0].current).toEqual({ parent: null, parent_uuid: null, children: [] });
  });
});
