import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, startStubBackend, type StubBackend } from '../../legacy/stub-backend.test-helpers.js';
import { answerStubOrg, stubOrg, stubbedVersions, type StubbedVersions } from '../stub-org.test-helpers.js';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { backendHoldsNone, heldNoneTypes } from './backend-holds-none.js';
import { contractSourceOf, heldNoneContradictions } from './held-none-contract.js';
import { v30Collections } from './collections-view.js';

/**
 * What the backend never holds, answered as OS2mo answers it for data written through the 2.x Service API,
 * and each such entry checked against the contract (`openapi/legacy-service.yaml`). Role bindings: OS2mo stores them as `Rollebinding` functions (`mora/mapping.py`@HEAD, `ROLEBINDING_KEY`),
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

describe('every "holds none" entry, against the contract', () => {
  const contract = parse(
    readFileSync(new URL('../../../../openapi/legacy-service.yaml', import.meta.url), 'utf8'),
  );

  it('names no property a schema of its 2.x record carries', () => {
    expect(heldNoneContradictions(backendHoldsNone, contract)).toEqual([]);
  });

  // The entries this list held until 2.4.0's unit writes were found to store a hierarchy
  // (`backend/mora/service/orgunit.py`@2.4.0, lines 121 and 255; the contract's `OrgUnitCreate`, `OrgUnitEdit`).
  it.each(['OrganisationUnit.org_unit_hierarchy', 'OrganisationUnit.unit_hierarchy_response'])(
    'refuses %s, which the contract carries',
    (coordinate) => {
      const withOld = [...backendHoldsNone, { coordinate, type: 'UUID', reason: 'none, it was said' }];
      expect(heldNoneContradictions(withOld, contract)).toEqual([
        `${coordinate}: OrgUnitCreate.org_unit_hierarchy`,
        `${coordinate}: OrgUnitEdit.org_unit_hierarchy`,
      ]);
    },
  );

  it('reads a link backwards from the record that would name it, and refuses a type it cannot map', () => {
    expect(contractSourceOf('ITUser.addresses_response')).toEqual({
      schemas: ['Address', 'AddressCreate'],
      properties: ['ituser', 'it_user', 'it'],
    });
    expect(heldNoneContradictions([{ coordinate: 'Engagement.leave_uuid' }], contract)).toEqual([]);
    expect(heldNoneContradictions([{ coordinate: 'Address.engagement_uuid' }], contract)).toEqual([
      'Address.engagement_uuid: Address.engagement',
      'Address.engagement_uuid: AddressCreate.engagement',
    ]);
    expect(() => contractSourceOf('Organisation.name')).toThrow(/no contract record/);
  });

  it('reports a mapped schema the contract lacks', () => {
    expect(
      heldNoneContradictions([{ coordinate: 'Manager.engagement_response' }], {
        components: { schemas: {} },
      }),
    ).toEqual([
      'Manager.engagement_response: the contract has no schema Manager',
      'Manager.engagement_response: the contract has no schema ManagerCreate',
      'Manager.engagement_response: the contract has no schema ManagerEdit',
    ]);
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
