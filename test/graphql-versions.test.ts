import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceQuery } from '../gateway/src/graphql/reference-query.js';
import { classUuid, closedUnitUuid, referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import { postGraphQL, startTestStack, type TestStack } from './stack.js';

let stack: TestStack;
let token: string;
beforeAll(async () => {
  stack = await startTestStack({ gatewayEnv: { GRAPHQL_REMOVED_VERSIONS: 'v0' } });
  token = await stack.token('alice');
});
afterAll(() => stack.close());

async function graphql(version: string, query: string, variables?: Record<string, unknown>, trace = false) {
  const { status, text, body } = await postGraphQL(
    stack,
    version,
    { query, variables },
    { authorization: `Bearer ${token}`, trace },
  );
  expect(text).not.toContain(stack.legacyUrl);
  return { status, body };
}

async function legacy(path: string) {
  const response = await stack.legacyFetch(path);
  return (await response.json()) as any;
}

/** What the six legacy calls a person would make by hand return for the same units, in the same shape. */
async function expectedFromLegacy() {
  return Promise.all(
    referenceUnitUuids.map(async (uuid) => {
      const unit = await legacy(`/service/ou/${uuid}/`);
      const managers = await legacy(`/service/ou/${uuid}/details/manager`);
      return {
        name: unit.name,
        managers: await Promise.all(
          managers.map(async (manager: any) => ({
            manager_type: { user_key: manager.manager_type.user_key },
            employee: manager.person && {
              name: manager.person.name,
              engagements: (await legacy(`/service/e/${manager.person.uuid}/details/engagement`)).map(
                (e: any) => ({
                  job_function: { user_key: e.job_function.user_key },
                }),
              ),
            },
          })),
        ),
      };
    }),
  );
}

describe('the specification reference query', () => {
  it('answers on v2 with objects and page_info, equal to the legacy endpoints, in two rounds', async () => {
    const withPageInfo = referenceQuery.replace('objects {', 'page_info { next_cursor } objects {');
    const { status, body } = await graphql('v2', withPageInfo, { uuids: referenceUnitUuids }, true);
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(body.data.org_units.page_info).toEqual({ next_cursor: null });
    expect(body.data.org_units.objects).toEqual(await expectedFromLegacy());
    const upstream = body.extensions.upstream;
    // The specification's count: 3 manager listings (which embed each unit's name), then 3 engagement listings.
    expect(upstream.requests).toBe(6);
    expect(upstream.rounds).toBe(2);
    expect(
      upstream.calls
        .map((call: any) => `${call.round} ${call.path.split('?')[0].replace(/[0-9a-f-]{36}/g, '{uuid}')}`)
        .sort(),
    ).toEqual([
      ...Array(3).fill('1 /service/ou/{uuid}/details/manager'),
      ...Array(3).fill('2 /service/e/{uuid}/details/engagement'),
    ]);
  });

  it('answers on v1 with a list of {uuid, objects} and list-valued employee', async () => {
    const { body } = await graphql('v1', referenceQuery, { uuids: referenceUnitUuids });
    expect(body.errors).toBeUndefined();
    const expected = await expectedFromLegacy();
    expect(body.data.org_units).toEqual(
      referenceUnitUuids.map((uuid, index) => ({
        objects: [
          {
            ...expected[index],
            managers: expected[index]!.managers.map((manager: any) => ({
              ...manager,
              employee: manager.employee ? [manager.employee] : [],
            })),
          },
        ],
      })),
    );
  });
});

describe('units read through their manager listings', () => {
  it('still finds a unit without managers and leaves out units that do not exist today', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const { body } = await graphql(
      'v2',
      `
        query Units($uuids: [UUID!]) {
          org_units(filter: { uuids: $uuids }) {
            objects {
              uuid
              name
              managers {
                uuid
              }
            }
          }
        }
      `,
      { uuids: [referenceUnitUuids[0], closedUnitUuid(), missing] },
      true,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.org_units.objects.map((unit: any) => unit.uuid)).toEqual([referenceUnitUuids[0]]);
    const paths = body.extensions.upstream.calls.map((call: any) => call.path.split('?')[0]);
    // The closed unit has no managers today, so it is looked up on its own (and is not there).
    expect(paths).toContain(`/service/ou/${closedUnitUuid()}/`);
    expect(paths).not.toContain(`/service/ou/${referenceUnitUuids[0]}/`);
  });
});

describe('collections', () => {
  it('lists IT systems on both versions', async () => {
    const systems = (await legacy(`/service/o/${(await legacy('/service/o/'))[0].uuid}/it/`)).map(
      (s: any) => s.name,
    );
    const v2 = await graphql('v2', '{ itsystems { objects { name } } }');
    expect(v2.body.data.itsystems.objects.map((s: any) => s.name)).toEqual(systems);
    const v1 = await graphql('v1', '{ itsystems { objects { name } } }');
    expect(v1.body.data.itsystems.map((s: any) => s.objects[0].name)).toEqual(systems);
  });

  it('walks every unit on v2 in pages of 7 with no duplicate and no gap', async () => {
    const organisation = (await legacy('/service/o/'))[0].uuid;
    const all = (await legacy(`/service/o/${organisation}/ou/`)).items.map((unit: any) => unit.uuid);
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pageCount = 0; pageCount < 100; pageCount += 1) {
      const { body }: { body: any } = await graphql(
        'v2',
        'query Page($cursor: Cursor) { org_units(limit: 7, cursor: $cursor) { objects { uuid name } page_info { next_cursor } } }',
        { cursor },
      );
      expect(body.errors).toBeUndefined();
      expect(body.data.org_units.objects.length).toBeLessThanOrEqual(7);
      seen.push(...body.data.org_units.objects.map((unit: any) => unit.uuid));
      cursor = body.data.org_units.page_info.next_cursor;
      if (cursor === null) break;
    }
    expect(cursor).toBeNull();
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(all);
  });

  it('refuses a limit out of range and a forged cursor with BAD_USER_INPUT', async () => {
    const limit = await graphql('v2', '{ org_units(limit: 0) { objects { uuid } } }');
    expect(limit.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const cursor = await graphql('v2', '{ org_units(cursor: "bm9wZQ") { objects { uuid } } }');
    expect(cursor.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});

describe('mutations write through the legacy service', () => {
  it('creates a unit and returns it; a legacy validation error keeps its error_key', async () => {
    const office = classUuid('org_unit_type', 'office');
    const created = await graphql(
      'v2',
      `
        mutation Create($input: OrgUnitCreateInput!) {
          org_unit_create(input: $input) {
            uuid
            object {
              name
              parent {
                uuid
              }
            }
          }
        }
      `,
      {
        input: {
          name: 'GraphQL Office',
          parent: referenceUnitUuids[0],
          org_unit_type: office,
          validity: { from: '2024-01-01' },
        },
      },
    );
    expect(created.body.errors).toBeUndefined();
    const { uuid, object } = created.body.data.org_unit_create;
    expect(object).toEqual({ name: 'GraphQL Office', parent: { uuid: referenceUnitUuids[0] } });
    expect((await legacy(`/service/ou/${uuid}/`)).name).toBe('GraphQL Office');

    const refused = await graphql(
      'v2',
      `mutation { org_unit_create(input: { name: "X", org_unit_type: "${office}", validity: { from: "2024-01-01", to: "2023-01-01" } }) { uuid } }`,
    );
    expect(refused.body.data?.org_unit_create ?? null).toBeNull();
    expect(refused.body.errors[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      error_key: 'V_END_BEFORE_START',
    });
  });

  it('creates and edits an engagement and a manager, reading each back through its unit', async () => {
    const managerShown = 'fragment ManagerShown on Manager { employee { uuid } responsibility { user_key } }';
    const unit = referenceUnitUuids[1];
    const person = (await legacy(`/service/ou/${unit}/details/manager`))[0].person.uuid;
    const engagement = await graphql(
      'v2',
      `
        mutation E($input: EngagementCreateInput!) {
          engagement_create(input: $input) {
            uuid
            object {
              job_function {
                user_key
              }
              employee {
                uuid
              }
              org_unit {
                uuid
              }
            }
          }
        }
      `,
      {
        input: {
          employee: person,
          org_unit: unit,
          job_function: classUuid('engagement_job_function', 'teacher'),
          engagement_type: classUuid('engagement_type', 'hourly'),
          validity: { from: '2024-01-01' },
        },
      },
    );
    expect(engagement.body.errors).toBeUndefined();
    expect(engagement.body.data.engagement_create.object).toEqual({
      job_function: { user_key: 'teacher' },
      employee: { uuid: person },
      org_unit: { uuid: unit },
    });

    const manager = await graphql(
      'v2',
      `
        ${managerShown}
        mutation M($create: ManagerCreateInput!) {
          manager_create(input: $create) {
            uuid
            object {
              ...ManagerShown
            }
          }
        }
      `,
      {
        create: {
          org_unit: unit,
          manager_type: classUuid('manager_type', 'team_leader'),
          manager_level: classUuid('manager_level', 'level_4'),
          responsibility: [classUuid('responsibility', 'budget')],
          validity: { from: '2024-01-01' },
        },
      },
    );
    expect(manager.body.errors).toBeUndefined();
    const { uuid, object } = manager.body.data.manager_create;
    expect(object).toEqual({ employee: null, responsibility: [{ user_key: 'budget' }] });

    const updated = await graphql(
      'v2',
      `
        ${managerShown}
        mutation U($input: ManagerUpdateInput!) {
          manager_update(input: $input) {
            uuid
            object {
              ...ManagerShown
            }
          }
        }
      `,
      { input: { uuid, org_unit: unit, employee: person, validity: { from: '2025-01-01' } } },
    );
    expect(updated.body.errors).toBeUndefined();
    // Responsibilities were not given, so the edit keeps them.
    expect(updated.body.data.manager_update.object).toEqual({
      employee: { uuid: person },
      responsibility: [{ user_key: 'budget' }],
    });
  });
});

describe('versions and schemas', () => {
  it('redirects a browser at /graphql to the newest version and never runs a query there', async () => {
    const redirect = await fetch(`${stack.gatewayUrl}/graphql`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('/graphql/v30');
    const post = await fetch(`${stack.gatewayUrl}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(post.status).toBe(404);
    const body = (await post.json()) as any;
    expect(body.errors[0].message).toContain('/graphql/v1');
    expect(body.errors[0].message).toContain('/graphql/v2');
    expect(body.errors[0].message).toContain('/graphql/v30');
  });

  it('answers 410 with the migration guide for a removed version and 404 for an unknown one', async () => {
    const removed = await fetch(`${stack.gatewayUrl}/graphql/v0`, { method: 'POST' });
    expect(removed.status).toBe(410);
    expect(((await removed.json()) as any).errors[0].extensions).toMatchObject({
      code: 'VERSION_REMOVED',
      migration_guide: expect.any(String),
    });
    const guide = await fetch(`${stack.gatewayUrl}/docs/migration`);
    expect(guide.status).toBe(200);
    const text = await guide.text();
    expect(text).toContain('# Migrating from GraphQL v2 to v30');
    expect(text).toContain('# Migrating from GraphQL v1 to v2');
    const future = await fetch(`${stack.gatewayUrl}/graphql/v9`, { method: 'POST' });
    expect(future.status).toBe(404);
    expect(((await future.json()) as any).errors[0].extensions.code).toBe('VERSION_NOT_FOUND');
  });

  it('serves each version as SDL with only the org graph in it', async () => {
    for (const version of ['v1', 'v2']) {
      const response = await fetch(`${stack.gatewayUrl}/graphql/${version}/schema.graphql`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      const sdl = await response.text();
      expect(sdl).toContain('type OrgUnit');
      expect(sdl).not.toMatch(/@httpOperation|@transport|_response|ObjMap|getOrgUnit|listOrgUnitManagers/);
    }
    // OS2mo's v30 shows the same graph under OS2mo's names, without Mesh's internals either.
    for (const version of ['v21', 'v22', 'v23', 'v24', 'v25', 'v26', 'v27', 'v28', 'v29']) {
      const response = await fetch(`${stack.gatewayUrl}/graphql/${version}/schema.graphql`);
      expect(response.status, version).toBe(200);
      expect(await response.text(), version).toContain('type OrganisationUnitResponse {');
    }
    const v30 = await fetch(`${stack.gatewayUrl}/graphql/v30/schema.graphql`);
    expect(v30.status).toBe(200);
    const sdl = await v30.text();
    expect(sdl).toContain('type OrganisationUnitResponse {');
    expect(sdl).not.toMatch(/@httpOperation|@transport|ObjMap|getOrgUnit|listOrgUnitManagers|type OrgUnit\b/);
  });

  it('shows no Mesh internals through introspection', async () => {
    const { body } = await graphql(
      'v2',
      '{ __schema { types { name } directives { name } queryType { fields { name } } } }',
    );
    const types = body.data.__schema.types.map((t: any) => t.name);
    expect(types.filter((name: string) => /_response$|^ObjMap$|^JSON$|LegacyError/.test(name))).toEqual([]);
    const builtIn = ['deprecated', 'include', 'oneOf', 'skip', 'specifiedBy'];
    for (const directive of body.data.__schema.directives) expect(builtIn).toContain(directive.name);
    expect(body.data.__schema.queryType.fields.map((f: any) => f.name).sort()).toEqual([
      'addresses',
      'associations',
      'classes',
      'cpr_lookup',
      'employees',
      'engagement_associations',
      'engagements',
      'facets',
      'itsystems',
      'itusers',
      'kles',
      'leaves',
      'managers',
      'org',
      'org_units',
      'owners',
      'related_units',
      'roles',
    ]);
  });
});

describe('authentication and /idp.json', () => {
  it('refuses GraphQL without a token with 401, WWW-Authenticate and UNAUTHENTICATED', async () => {
    const response = await fetch(`${stack.gatewayUrl}/graphql/v2`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ itsystems { objects { name } } }' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="org"/);
    expect(((await response.json()) as any).errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('refuses /service without a token with the legacy error body', async () => {
    const response = await fetch(`${stack.gatewayUrl}/service/o/`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await response.json()).toMatchObject({ error: true, status: 401, error_key: 'E_UNAUTHORIZED' });
  });

  it('refuses a token that is not signed by the identity provider', async () => {
    const [header, payload] = token.split('.');
    const response = await fetch(`${stack.gatewayUrl}/service/o/`, {
      headers: { authorization: `Bearer ${header}.${payload}.${'A'.repeat(342)}` },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('invalid_token');
  });

  it('serves /idp.json without a token', async () => {
    const response = await fetch(`${stack.gatewayUrl}/idp.json`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      realm: 'org',
      'auth-server-url': expect.stringMatching(/^http:\/\/localhost:\d+\/auth\/$/),
      'ssl-required': 'external',
      resource: 'org-frontend',
      'public-client': true,
      'confidential-port': 0,
    });
  });
});
