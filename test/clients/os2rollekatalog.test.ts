import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedReadOnlyStack, type TestStack } from '../stack.js';
import { bearer, integrationToken, serviceSession, type ServiceSession } from './service-session.js';

/**
 * DIPEX's OS2rollekatalog exporter (OS2mo/os2mo-data-import-and-export at 573b24ca,
 * `exporters/os2rollekatalog/os2rollekatalog_integration.py`, cited as `integration.py:LINE`, and
 * `exporters/os2rollekatalog/titles.py`), walked as `main` walks it (integration.py:454-490): the units with
 * their parents, managers and KLE, then every person with positions and e-mail, through `MoraHelper`'s
 * `_mo_lookup` (URLs with their query in the path), through the gateway (RBAC on, the integration client's
 * token) on the seeded stand-in.
 */

let stack: TestStack;
let mo: ServiceSession;
let token: string;
beforeAll(async () => {
  stack = await sharedReadOnlyStack();
  token = await integrationToken(stack);
  mo = serviceSession(stack, bearer(token));
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

async function lookup(url: string): Promise<any> {
  const response = await mo.get(url);
  expect(response.status, `GET ${url}: ${response.text}`).toBe(200);
  return response.json;
}

interface OrgUnitPayload {
  uuid: string;
  name: string;
  parentOrgUnitUuid: string | null;
  manager: { uuid: string; userId: string } | null;
  klePerforming: string[];
  kleInterest: string[];
}

/** The mapping file (`cpr_mo_ad_map.csv`, integration.py:37-54): here every person is in AD. */
const samAccountName = (uuid: string) => `sam-${uuid.slice(0, 8)}`;

/** `get_org_units` (integration.py:116-200) with `ou_filter` and the root unit as in the settings. */
async function getOrgUnits(rootUnit: string, ouFilter: boolean): Promise<Map<string, OrgUnitPayload>> {
  const org = (await lookup('o/'))[0].uuid as string;
  // read_ou_root (mora_helpers.py:717-727): o/{org}/ou/, with ?root= only when filtering.
  const listed = (await lookup(`o/${org}/ou/${ouFilter ? `?root=${rootUnit}` : ''}`)).items;
  const converted = new Map<string, OrgUnitPayload>();
  for (const { uuid } of listed) {
    // "Fetch the OU again, as the 'parent' field is missing in the data when listing all org units".
    const ou = await lookup(`ou/${uuid}/`);
    expect(ou).toHaveProperty('parent');
    // get_manager (integration.py:134-163): present and future managers, the first one's person.
    const managers = [
      ...(await lookup(`ou/${uuid}/details/manager?validity=present`)),
      ...(await lookup(`ou/${uuid}/details/manager?validity=future`)),
    ];
    const person = managers[0]?.person;
    // get_kle (integration.py:165-184): kle_number.user_key and every kle_aspect's scope.
    const kles = [
      ...(await lookup(`ou/${uuid}/details/kle?validity=present`)),
      ...(await lookup(`ou/${uuid}/details/kle?validity=future`)),
    ];
    const tuples: [string, string][] = kles.flatMap(
      (kle: { kle_number: { user_key: string }; kle_aspect: { scope: string }[] }) =>
        kle.kle_aspect.map((aspect) => [kle.kle_number.user_key, aspect.scope] as [string, string]),
    );
    const bucket = (scope: string) =>
      tuples.filter(([, aspect]) => aspect === scope).map(([number]) => number);
    // integration.py:186 unpacks get_kle's (interest, performing) as (kle_performing, kle_interest).
    const [klePerforming, kleInterest] = [bucket('INDSIGT'), bucket('UDFOERENDE')];
    converted.set(uuid, {
      uuid,
      name: ou.name,
      // get_parent_org_unit_uuid (integration.py:97-113).
      parentOrgUnitUuid: uuid === rootUnit ? null : (ou.parent?.uuid ?? rootUnit),
      manager: person ? { uuid: person.uuid, userId: samAccountName(person.uuid) } : null,
      klePerforming,
      kleInterest,
    });
  }
  return converted;
}

describe('the OS2rollekatalog export through the gateway', () => {
  it('get_org_units (integration.py:116-200): every unit with its name, parent, manager and KLE by aspect scope', async () => {
    const org = (await lookup('o/'))[0].uuid as string;
    const [root] = await lookup(`o/${org}/children`);
    const units = await getOrgUnits(root.uuid, false);
    const everyUnit = (await lookup(`o/${org}/ou/`)).items.map((unit: { uuid: string }) => unit.uuid);
    expect(new Set(units.keys())).toEqual(new Set(everyUnit));
    for (const unit of units.values()) {
      expect(unit.name).toEqual(expect.any(String));
      if (unit.uuid !== root.uuid) expect(unit.parentOrgUnitUuid).toEqual(expect.any(String));
    }
    expect([...units.values()].filter((unit) => unit.manager !== null).length).toBeGreaterThan(0);
    // OS2mo's kle_aspect classes carry the scopes INDSIGT, UDFOERENDE and ANSVARLIG: both buckets fill.
    expect([...units.values()].some((unit) => unit.klePerforming.length > 0)).toBe(true);
    expect([...units.values()].some((unit) => unit.kleInterest.length > 0)).toBe(true);
  }, 240_000);

  it('get_org_units with ou_filter: o/{org}/ou/?root= lists the root and the units below it, each with a parent', async () => {
    const org = (await lookup('o/'))[0].uuid as string;
    const [root] = await lookup(`o/${org}/children`);
    const listed = (await lookup(`o/${org}/ou/?root=${root.uuid}`)).items as { uuid: string }[];
    expect(listed.map((unit) => unit.uuid)).toContain(root.uuid);
    // integration.py:106-107 asserts every filtered unit but the root has a parent (the rest of each unit's
    // reads are the unfiltered case's).
    for (const { uuid } of listed)
      if (uuid !== root.uuid) expect((await lookup(`ou/${uuid}/`)).parent).not.toBeNull();
  }, 120_000);

  it('get_users (integration.py:219-299): every person, positions from engagements, e-mail by scope EMAIL', async () => {
    const org = (await lookup('o/'))[0].uuid as string;
    const unitUuids = new Set(
      (await lookup(`o/${org}/ou/`)).items.map((unit: { uuid: string }) => unit.uuid),
    );
    // read_all_users (mora_helpers.py:214-231).
    const people = [];
    for (let start = 0, total = 1; start < total;) {
      const page = await lookup(`o/${org}/e/?limit=1000&start=${start}`);
      people.push(...page.items);
      start = page.offset + 1000;
      total = page.total;
    }
    let withPositions = 0;
    let withEmail = 0;
    for (const employee of people) {
      // get_employee_engagements (integration.py:203-206), convert_position (209-216) with sync_titles.
      const engagements = [
        ...(await lookup(`e/${employee.uuid}/details/engagement?validity=present`)),
        ...(await lookup(`e/${employee.uuid}/details/engagement?validity=future`)),
      ];
      const positions = engagements
        .map((engagement: { job_function: { name: string; uuid: string }; org_unit: { uuid: string } }) => {
          expect(engagement.job_function).toMatchObject({
            name: expect.any(String),
            uuid: expect.any(String),
          });
          return {
            name: engagement.job_function.name,
            orgUnitUuid: engagement.org_unit.uuid,
            titleUuid: engagement.job_function.uuid,
          };
        })
        .filter((position: { orgUnitUuid: string }) => unitUuids.has(position.orgUnitUuid));
      if (positions.length === 0) continue;
      withPositions += 1;
      // get_employee_name (integration.py:283-288): name, or nickname when asked and set.
      expect(employee.name).toEqual(expect.any(String));
      // get_employee_email (integration.py:242-264): the first EMAIL address's value.
      const addresses = [
        ...(await lookup(`e/${employee.uuid}/details/address?validity=present`)),
        ...(await lookup(`e/${employee.uuid}/details/address?validity=future`)),
      ];
      const emails = addresses.filter(
        (address: { address_type: { scope: string } }) => address.address_type.scope === 'EMAIL',
      );
      if (emails.length > 0) {
        expect(emails[0].value).toContain('@');
        withEmail += 1;
      }
    }
    expect(withPositions).toBeGreaterThan(0);
    expect(withEmail).toBeGreaterThan(0);
  }, 300_000);

  it('export_titles (titles.py:85-111) asks GraphQL v3, which the gateway does not serve: 404 VERSION_NOT_FOUND', async () => {
    // titles.py reads the engagement_job_function classes with `facets { user_key uuid classes { user_key uuid } }`
    // at {mora_base}/graphql/v3 (titles.py:22-47, 96). The gateway serves OS2mo's GraphQL v21-v30 only (the
    // versions of the specification), so with sync_titles on the exporter stops here with this answer; the
    // same classes are `o/{org}/f/engagement_job_function/` under /service, or `facets` in /graphql/v21+.
    const response = await fetch(`${stack.gatewayUrl}/graphql/v3`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ facets { user_key uuid classes { user_key uuid } } }' }),
    });
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error_key?: string; code?: string };
    expect(JSON.stringify(body)).toContain('VERSION_NOT_FOUND');
  });
});
