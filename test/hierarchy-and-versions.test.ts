import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildOrganisation,
  classUuid,
  defaultFixtureSize,
  oscarOwnedUnitUuid,
} from '../legacy-service/src/fixture/organisation.js';
import { collections } from '../legacy-service/src/model.js';
import { postGraphQL, sharedReadOnlyStack, type TestStack, type UpstreamTrace } from './stack.js';

/**
 * The hierarchy and history reads of `/service` through the graph: `OrgUnit.ancestors`/`child_count`
 * (the unit trees), `Class.children`/`child_count` and `Facet.top_level_classes` (class children), and
 * `OrgUnit.validities`/`Employee.validities` (`details/org_unit`, `details/employee`), on v2 and v1, with
 * the same records as the legacy reads and each legacy GET once.
 */
let stack: TestStack;
let token: string;
beforeAll(async () => {
  stack = await sharedReadOnlyStack();
  token = await stack.token('nora');
});

type Json = Record<string, unknown>;
async function graphql(query: string, variables: Json = {}, version = 'v2') {
  const { body } = await postGraphQL(
    stack,
    version,
    { query, variables },
    { authorization: `Bearer ${token}`, trace: true },
  );
  expect(body.errors).toBeUndefined();
  return { data: body.data as Json, trace: body.extensions.upstream as UpstreamTrace };
}

async function legacy(path: string): Promise<unknown> {
  const response = await fetch(`${stack.gatewayUrl}${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status, path).toBe(200);
  return response.json();
}

const objectsOf = (data: Json, root: string) => (data[root] as { objects: Json[] }).objects;
const shape = (path: string) => path.split('?')[0]!.replace(/[0-9a-f-]{36}/g, '{uuid}');
const pick =
  (...fields: string[]) =>
  (record: unknown) =>
    Object.fromEntries(fields.map((field) => [field, (record as Json)[field] ?? null]));

/** The fixture's units and people with a past, a present and a future version. */
const withHistory = (collection: string) =>
  buildOrganisation(defaultFixtureSize)
    .filter((mutation) => mutation.collection === collection)
    .filter((mutation) => (mutation.value as unknown as { versions: unknown[] }).versions.length === 3)
    .map((mutation) => mutation.uuid);

describe('unit hierarchy', () => {
  it('answers ancestors and child counts as the full record and the children listings do, in two rounds', async () => {
    const { data, trace } = await graphql(
      `
        query Up($uuids: [UUID!]) {
          org_units(filter: { uuids: $uuids }) {
            objects {
              uuid
              child_count
              ancestors {
                uuid
                name
                user_key
                validity {
                  from
                  to
                }
                child_count
              }
            }
          }
        }
      `,
      { uuids: [oscarOwnedUnitUuid] },
    );
    const [unit] = objectsOf(data, 'org_units');
    const record = (await legacy(`/service/ou/${oscarOwnedUnitUuid}/`)) as Json;
    const chain: Json[] = [];
    for (let parent = record.parent as Json | null; parent; parent = parent.parent as Json | null)
      chain.push(parent);
    expect(chain.length).toBeGreaterThan(1);
    const ancestors = unit!.ancestors as Json[];
    expect(ancestors.map(pick('uuid', 'name', 'user_key', 'validity'))).toEqual(
      chain.map(pick('uuid', 'name', 'user_key', 'validity')),
    );
    const childCount = async (uuid: string) =>
      ((await legacy(`/service/ou/${uuid}/children`)) as unknown[]).length;
    expect(unit!.child_count).toBe(await childCount(oscarOwnedUnitUuid));
    for (const ancestor of ancestors)
      expect(ancestor.child_count).toBe(await childCount(String(ancestor.uuid)));
    // The unit's read and its children listing, then one children listing per ancestor.
    expect(trace.rounds).toBe(2);
    expect(trace.requests).toBe(2 + chain.length);
    expect(new Set(trace.calls.map((call) => call.path)).size).toBe(trace.requests);
  });

  it('is empty above a top-level unit, on v1 too', async () => {
    const [top] = (await legacy(`/service/o/${await organisation()}/children`)) as Json[];
    const { data } = await graphql(
      `
        query Top($uuids: [UUID!]) {
          org_units(filter: { uuids: $uuids }) {
            objects {
              ancestors {
                uuid
              }
              child_count
            }
          }
        }
      `,
      { uuids: [top!.uuid] },
      'v1',
    );
    const [response] = data.org_units as { objects: Json[] }[];
    expect(response!.objects[0]!.ancestors).toEqual([]);
    expect(response!.objects[0]!.child_count).toBe(top!.child_count);
  });
});

async function organisation() {
  const [first] = (await legacy('/service/o/')) as Json[];
  return String(first!.uuid);
}

describe('class hierarchy', () => {
  it('answers a facet’s top-level classes and their children as /f/{facet}/children and /c/{uuid}/children do', async () => {
    const { data, trace } = await graphql(`
      {
        facets(filter: { user_keys: ["kle_number"] }) {
          objects {
            top_level_classes {
              uuid
              name
              user_key
              child_count
              scope
              children {
                uuid
                name
                user_key
                child_count
              }
            }
          }
        }
      }
    `);
    const [facet] = objectsOf(data, 'facets');
    const top = facet!.top_level_classes as Json[];
    const legacyTop = (await legacy('/service/f/kle_number/children')) as Json[];
    expect(top.map(pick('uuid', 'name', 'user_key', 'child_count'))).toEqual(legacyTop);
    expect(top.some((record) => (record.child_count as number) > 0)).toBe(true);
    for (const record of top) {
      const children = (await legacy(`/service/c/${String(record.uuid)}/children`)) as Json[];
      expect(record.children).toEqual(children);
      // A class from a children listing still shows what the class's own read says.
      expect(record.scope).toBe(((await legacy(`/service/c/${String(record.uuid)}/`)) as Json).scope ?? null);
    }
    const paths = trace.calls.map((call) => call.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths.filter((path) => shape(path) === '/service/c/{uuid}/children')).toHaveLength(top.length);
    expect(paths.filter((path) => shape(path) === '/service/f/{uuid}/children')).toHaveLength(1);
  });

  it('answers a class’s children on v1', async () => {
    const group = classUuid('kle_number', '27.24');
    const { data } = await graphql(
      `
        query Kids($uuids: [UUID!]) {
          classes(filter: { uuids: $uuids, facets: ["kle_number"] }) {
            objects {
              child_count
              children {
                uuid
                name
                user_key
                child_count
              }
            }
          }
        }
      `,
      { uuids: [group] },
      'v1',
    );
    const [response] = data.classes as { objects: Json[] }[];
    const children = (await legacy(`/service/c/${group}/children`)) as Json[];
    expect(children.length).toBe(3);
    expect(response!.objects[0]!.children).toEqual(children);
    expect(response!.objects[0]!.child_count).toBe(3);
  });
});

describe('versions', () => {
  const select = 'name user_key validity { from to }';
  const scopes = `past: validities(validity: PAST) { ${select} }
    present: validities { ${select} }
    future: validities(validity: FUTURE) { ${select} }`;

  for (const [kind, root, listing, collection] of [
    ['unit', 'org_units', 'ou/{uuid}/details/org_unit', collections.orgUnit],
    ['person', 'employees', 'e/{uuid}/details/employee', collections.employee],
  ] as const) {
    it(`lists a ${kind}'s past, present and future versions as the legacy listing does, in one round`, async () => {
      const uuids = withHistory(collection);
      expect(uuids.length).toBeGreaterThan(0);
      const { data, trace } = await graphql(
        `query Versions($uuids: [UUID!]) { ${root}(filter: { uuids: $uuids }) { objects { uuid ${scopes} } } }`,
        { uuids },
      );
      for (const object of objectsOf(data, root)) {
        const path = `/service/${listing.replace('{uuid}', String(object.uuid))}`;
        for (const scope of ['past', 'present', 'future'] as const) {
          const records = (await legacy(`${path}?validity=${scope}`)) as Json[];
          expect(records).toHaveLength(1);
          expect(object[scope]).toEqual(records.map(pick('name', 'user_key', 'validity')));
        }
        expect((object.past as Json[])[0]!.name).not.toBe((object.present as Json[])[0]!.name);
      }
      // Each object's read and its three listings, all at once.
      expect(trace.rounds).toBe(1);
      expect(trace.requests).toBe(uuids.length * 4);
      expect(new Set(trace.calls.map((call) => call.path)).size).toBe(trace.requests);
    });
  }

  it('answers the versions on v1, as of from_date', async () => {
    const [uuid] = withHistory(collections.orgUnit);
    const { data } = await graphql(
      `query V1($uuids: [UUID!]) { org_units(filter: { uuids: $uuids, from_date: "2015-06-01" }) { objects { name future: validities(validity: FUTURE) { ${select} } } } }`,
      { uuids: [uuid] },
      'v1',
    );
    const [response] = data.org_units as { objects: Json[] }[];
    const records = (await legacy(
      `/service/ou/${uuid}/details/org_unit?at=2015-06-01&validity=future`,
    )) as Json[];
    expect(records).toHaveLength(2);
    expect(response!.objects[0]!.future).toEqual(records.map(pick('name', 'user_key', 'validity')));
  });
});
