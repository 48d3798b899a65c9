import { beforeAll, describe, expect, it } from 'vitest';
import { referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import { postGraphQL, sharedReadOnlyStack, type TestStack, type UpstreamTrace } from './stack.js';

/**
 * The Service API reads beside the collections, through `/graphql/v1` and `/graphql/v2`: the organisation
 * and its counts, the top-level units, which detail types a unit or person has, free-text search and the
 * CPR lookup. Each answers what the legacy endpoint answers, reading that endpoint once.
 */
let stack: TestStack;
let token: string;
beforeAll(async () => {
  stack = await sharedReadOnlyStack();
  token = await stack.token('nora');
});

type Json = Record<string, unknown>;
async function post(query: string, variables: Json = {}, version = 'v2', authorization = `Bearer ${token}`) {
  const { status, body } = await postGraphQL(
    stack,
    version,
    { query, variables },
    { authorization, trace: true },
  );
  return { status, body: body as Json };
}

async function graphql(query: string, variables: Json = {}, version = 'v2') {
  const { body } = await post(query, variables, version);
  expect(body.errors).toBeUndefined();
  const trace = (body.extensions as { upstream: UpstreamTrace }).upstream;
  return { data: body.data as Json, trace, paths: trace.calls.map((call) => call.path.split('?')[0]!) };
}

async function service<T>(path: string): Promise<T> {
  const response = await fetch(`${stack.gatewayUrl}${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

const organisation = async () => (await service<Json[]>('/service/o/'))[0]!;

describe('org', () => {
  it('answers /service/o/ with one read, and the counts of /service/o/{org}/ with one more', async () => {
    const listed = await organisation();
    const plain = await graphql('{ org { uuid name user_key } }');
    expect(plain.data.org).toEqual({ uuid: listed.uuid, name: listed.name, user_key: listed.user_key });
    expect(plain.paths).toEqual(['/service/o/']);

    const counted = await graphql(
      '{ org { uuid name child_count unit_count person_count engagement_count association_count leave_count role_count manager_count } }',
    );
    const summary = await service<Json>(`/service/o/${String(listed.uuid)}/`);
    expect(counted.data.org).toEqual({
      uuid: summary.uuid,
      name: summary.name,
      child_count: summary.child_count,
      unit_count: summary.unit_count,
      person_count: summary.person_count,
      engagement_count: summary.engagement_count,
      association_count: summary.association_count,
      leave_count: summary.leave_count,
      role_count: summary.role_count,
      manager_count: summary.manager_count,
    });
    expect(summary.unit_count).toBeGreaterThan(0);
    expect(counted.paths).toEqual(['/service/o/', `/service/o/${String(listed.uuid)}/`]);
    expect(counted.trace.rounds).toBe(2);
  });

  it('is the same object in v1', async () => {
    const { data } = await graphql('{ org { uuid user_key unit_count } }', {}, 'v1');
    const summary = await service<Json>(`/service/o/${String((await organisation()).uuid)}/`);
    expect(data.org).toEqual({
      uuid: summary.uuid,
      user_key: summary.user_key,
      unit_count: summary.unit_count,
    });
  });
});

describe('org_units(filter: { parent })', () => {
  it('parent: null lists /service/o/{org}/children, each legacy read once', async () => {
    const org = String((await organisation()).uuid);
    const roots = await service<Json[]>(`/service/o/${org}/children`);
    const { data, paths } = await graphql(
      '{ org_units(filter: { parent: null }) { objects { uuid name user_key validity { from to } } } }',
    );
    const objects = (data.org_units as { objects: Json[] }).objects;
    expect(roots.length).toBeGreaterThan(0);
    expect(objects).toEqual(
      roots.map((unit) => ({
        uuid: unit.uuid,
        name: unit.name,
        user_key: unit.user_key,
        validity: unit.validity,
      })),
    );
    expect(paths.filter((path) => path === `/service/o/${org}/children`)).toHaveLength(1);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('parent: { uuids } lists the units directly below, in v1 as { uuid, objects }', async () => {
    const [top] = await service<Json[]>(`/service/o/${String((await organisation()).uuid)}/children`);
    const children = await service<Json[]>(`/service/ou/${String(top!.uuid)}/children`);
    const { data } = await graphql(
      'query Below($uuid: UUID!) { org_units(filter: { parent: { uuids: [$uuid] } }) { uuid objects { name } } }',
      { uuid: top!.uuid },
      'v1',
    );
    expect(data.org_units).toEqual(
      children.map((unit) => ({ uuid: unit.uuid, objects: [{ name: unit.name }] })),
    );
  });

  it('refuses a parent filter it cannot read in one listing: the schema takes only uuids there', async () => {
    const { body } = await post(
      '{ org_units(filter: { parent: { user_keys: ["x"] } }) { objects { uuid } } }',
    );
    const [error] = body.errors as { message: string; extensions: { code: string } }[];
    expect(error!.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const messages = (body.errors as { message: string }[]).map((each) => each.message).join('\n');
    expect(messages).toMatch(/ParentFilter/);
    expect(messages).toMatch(/"user_keys" is not defined by type "ParentFilter"/);
  });

  it('takes the filter, parent included, as a variable', async () => {
    const { body } = await post(
      'query ($filter: OrgUnitFilter) { org_units(filter: $filter) { objects { uuid } } }',
      { filter: { parent: null } },
    );
    expect(body.errors).toBeUndefined();
  });
});

describe('detail_types', () => {
  it('answers /service/ou/{uuid}/details/ for each unit, in the same round as the units', async () => {
    const { data, trace, paths } = await graphql(
      'query Types($uuids: [UUID!]) { org_units(filter: { uuids: $uuids }) { objects { uuid detail_types { address engagement manager org_unit role } } } }',
      { uuids: referenceUnitUuids },
    );
    const objects = (data.org_units as { objects: Json[] }).objects;
    for (const unit of objects) {
      const legacy = await service<Json>(`/service/ou/${String(unit.uuid)}/details/`);
      expect(unit.detail_types).toEqual({
        address: legacy.address,
        engagement: legacy.engagement,
        manager: legacy.manager,
        org_unit: legacy.org_unit,
        role: legacy.role,
      });
    }
    expect(objects.map((unit) => unit.uuid)).toEqual(referenceUnitUuids);
    expect(paths.filter((path) => path.endsWith('/details/'))).toHaveLength(3);
    expect(trace.rounds).toBe(1);
  });

  it('answers /service/e/{uuid}/details/ for a person', async () => {
    const page = await service<{ items: Json[] }>(
      `/service/o/${String((await organisation()).uuid)}/e/?limit=2`,
    );
    const uuids = page.items.map((person) => person.uuid);
    const { data } = await graphql(
      'query Types($uuids: [UUID!]) { employees(filter: { uuids: $uuids }) { uuid objects { detail_types { engagement org_unit it leave } } } }',
      { uuids },
      'v1',
    );
    for (const person of data.employees as { uuid: string; objects: Json[] }[]) {
      const legacy = await service<Json>(`/service/e/${person.uuid}/details/`);
      expect(person.objects[0]!.detail_types).toEqual({
        engagement: legacy.engagement,
        org_unit: false,
        it: legacy.it,
        leave: legacy.leave,
      });
    }
  });
});

describe('filter: { query }', () => {
  it('employees: the hits of /service/e/autocomplete/, in its order, from one read', async () => {
    const hits = (await service<{ items: Json[] }>('/service/e/autocomplete/?query=an')).items;
    expect(hits.length).toBeGreaterThan(1);
    const { data, paths } = await graphql(
      '{ employees(filter: { query: "an" }, limit: 1000) { objects { uuid name } } }',
    );
    expect((data.employees as { objects: Json[] }).objects).toEqual(
      hits.map(({ uuid, name }) => ({ uuid, name })),
    );
    expect(paths).toEqual(['/service/e/autocomplete/']);
  });

  it('org_units: the hits of /service/ou/autocomplete/, read in full when more is selected', async () => {
    const hits = (await service<{ items: Json[] }>('/service/ou/autocomplete/?query=office')).items;
    expect(hits.length).toBeGreaterThan(0);
    const { data, paths } = await graphql(
      '{ org_units(filter: { query: "office" }, limit: 1000) { objects { uuid name user_key } } }',
    );
    const objects = (data.org_units as { objects: Json[] }).objects;
    expect(objects.map(({ uuid, name }) => ({ uuid, name }))).toEqual(
      hits.map(({ uuid, name }) => ({ uuid, name })),
    );
    expect(objects.every((unit) => typeof unit.user_key === 'string')).toBe(true);
    expect(paths.filter((path) => path === '/service/ou/autocomplete/')).toHaveLength(1);
    expect(paths).toHaveLength(1 + hits.length);
  });

  it('an empty text matches nothing', async () => {
    const { data } = await graphql('{ employees(filter: { query: "" }) { objects { uuid } } }');
    expect(data.employees).toEqual({ objects: [] });
  });
});

describe('cpr_lookup', () => {
  it('answers the name /service/e/cpr_lookup/ gives, and never the number', async () => {
    const page = await service<{ items: Json[] }>(
      `/service/o/${String((await organisation()).uuid)}/e/?limit=1`,
    );
    const person = await service<Json>(`/service/e/${String(page.items[0]!.uuid)}/`);
    const cpr = String(person.cpr_no);
    const legacy = await service<Json>(`/service/e/cpr_lookup/?q=${cpr}`);
    const { data, paths } = await graphql(
      'query Cpr($cpr: String!) { cpr_lookup(cpr_number: $cpr) { name } }',
      {
        cpr,
      },
    );
    expect(data.cpr_lookup).toEqual({ name: legacy.name });
    expect(JSON.stringify(data)).not.toContain(cpr);
    expect(paths).toEqual(['/service/e/cpr_lookup/']);
  });

  it('passes the legacy refusal of a malformed number on, with its error key', async () => {
    const { body } = await post('{ cpr_lookup(cpr_number: "12") { name } }');
    const [error] = body.errors as { extensions: { code: string; error_key?: string } }[];
    expect(error!.extensions.error_key).toBe('V_CPR_NOT_VALID');
    expect((body.data as Json).cpr_lookup).toBeNull();
  });
});

describe('access', () => {
  it('needs a bearer token, as every other read', async () => {
    for (const query of ['{ org { uuid } }', '{ cpr_lookup(cpr_number: "0101011234") { name } }']) {
      const { status } = await post(query, {}, 'v2', '');
      expect(status).toBe(401);
    }
  });
});
