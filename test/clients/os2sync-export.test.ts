import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organisationUuid } from '../../legacy-service/src/fixture/organisation.js';
import { sharedReadOnlyStack, type TestStack } from '../stack.js';
import {
  bearer,
  integrationToken,
  serviceSession,
  type RequestsParam,
  type ServiceSession,
} from './service-session.js';

/**
 * DIPEX's os2sync exporter (OS2mo/os2mo-data-import-and-export at 573b24ca, `exporters/os2sync_export/`;
 * `os2mo.py:LINE` is `os2sync_export/os2mo.py`, `__main__.py:LINE` is `os2sync_export/__main__.py`), its unit
 * and user export walked as the exporter walks them, through the gateway (RBAC on, the integration client's
 * token) on the seeded stand-in. The walk here is ours, a reading of the exporter's functions: each step reads
 * the keys the exporter reads, and a key it indexes that is missing fails the walk as it would crash the
 * exporter. What the exporter then sends to OS2sync is not ours to test.
 */

let stack: TestStack;
let mo: ServiceSession;
beforeAll(async () => {
  stack = await sharedReadOnlyStack();
  mo = serviceSession(stack, bearer(await integrationToken(stack)));
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

/** `os2mo_get` (os2mo.py:112-125): `{BASE}/service/…` with params; `raise_for_status()` on anything but 2xx. */
async function os2moGet(path: string, params: Record<string, RequestsParam> = {}): Promise<any> {
  const response = await mo.get(path, params);
  expect(response.status, `GET ${path}: ${response.text}`).toBeLessThan(300);
  return response.json;
}

/** Python's `more_itertools.one`: exactly one item, or the exporter raises. */
function one<T>(items: readonly T[], what: string): T {
  expect(items, what).toHaveLength(1);
  return items[0]!;
}

/** The exporter's settings that decide what it reads (`config.py:54-92`), with their defaults. */
interface Settings {
  topUnitUuid: string;
  syncManagers: boolean;
  useContactForTasks: boolean;
  uuidFromItSystems: string[];
  filterHierarchyNames: string[];
  employeeEngagementAddress: string[];
  ignoredUnitLevels: string[];
  ignoredUnitTypes: string[];
}
const defaults = {
  syncManagers: false,
  useContactForTasks: false,
  uuidFromItSystems: [],
  filterHierarchyNames: [],
  employeeEngagementAddress: [],
  ignoredUnitLevels: [],
  ignoredUnitTypes: [],
} satisfies Omit<Settings, 'topUnitUuid'>;

/** `organization_uuid` (os2mo.py:322-324): `one()` of `o/`. */
async function organizationUuid(): Promise<string> {
  return one<{ uuid: string }>(await os2moGet('o/'), 'organisations').uuid;
}

/** `get_org_unit_hierarchy` (os2mo.py:245-261): the uuids of the org_unit_hierarchy classes named. */
async function orgUnitHierarchy(titles: string[]): Promise<string[] | undefined> {
  if (titles.length === 0) return undefined;
  const classes = await os2moGet(`o/${await organizationUuid()}/f/org_unit_hierarchy/`);
  const filtered = classes.data.items.filter((item: { name: string }) => titles.includes(item.name));
  expect(filtered.length, `org_unit_hierarchy classes named ${titles.join(', ')}`).toBeGreaterThan(0);
  return filtered.map((item: { uuid: string }) => item.uuid);
}

/** `org_unit_uuids` (os2mo.py:327-336): `o/{org}/ou/?limit=999999&root=…[&at=…][&hierarchy_uuids=…]`. */
async function orgUnitUuids(params: {
  root: string;
  at?: string;
  hierarchyUuids?: string[];
}): Promise<Set<string>> {
  const org = await organizationUuid();
  const answer = await os2moGet(`o/${org}/ou/`, {
    limit: 999999,
    root: params.root,
    ...(params.at === undefined ? {} : { at: params.at }),
    hierarchy_uuids: params.hierarchyUuids,
  });
  return new Set(answer.items.map((item: { uuid: string }) => item.uuid));
}

/** `has_kle` (os2mo.py:128-130): the global configuration's `show_kle`, read for every unit. */
async function hasKle(): Promise<boolean> {
  const configuration = await os2moGet('configuration');
  expect(configuration).toHaveProperty('show_kle');
  expect(typeof configuration.show_kle).toBe('boolean');
  return configuration.show_kle as boolean;
}

/** `get_fk_org_uuid` (os2mo.py:219-230). */
function fkOrgUuid(
  accounts: { itsystem: { name: string }; user_key: string }[],
  moUuid: string,
  names: string[],
) {
  const matching = accounts
    .filter((account) => names.includes(account.itsystem.name))
    .sort((a, b) => names.indexOf(a.itsystem.name) - names.indexOf(b.itsystem.name));
  return matching[0]?.user_key ?? moUuid;
}

/** `partition_kle`/`filter_kle` (os2mo.py:381-424): `one(k["kle_aspect"])["name"]`, `k["kle_number"]["uuid"]`. */
function partitionKle(
  kle: { kle_aspect: { name: string }[]; kle_number: { uuid: string } }[],
  contact: boolean,
) {
  if (contact) {
    const filterKle = (aspect: string) =>
      [
        ...new Set(
          kle.filter((k) => one(k.kle_aspect, 'kle_aspect').name === aspect).map((k) => k.kle_number.uuid),
        ),
      ].sort();
    return { tasks: filterKle('Udførende'), contactForTasks: filterKle('Ansvarlig') };
  }
  return { tasks: [...new Set(kle.map((k) => k.kle_number.uuid))].sort(), contactForTasks: [] };
}

/** `get_sts_orgunit` (os2mo.py:472-524) for one unit: every read it makes and the keys it reads. */
async function stsOrgUnit(uuid: string, settings: Settings, kle: boolean) {
  const base = await os2moGet(`ou/${uuid}/`);
  // is_ignored (os2mo.py:438-455): org_unit_level and org_unit_type, each null or with a uuid.
  for (const key of ['org_unit_level', 'org_unit_type']) {
    expect(base, uuid).toHaveProperty(key);
    if (base[key] !== null) expect(base[key].uuid).toEqual(expect.any(String));
  }
  const ignored =
    (base.org_unit_level && settings.ignoredUnitLevels.includes(base.org_unit_level.uuid)) ||
    (base.org_unit_type && settings.ignoredUnitTypes.includes(base.org_unit_type.uuid));
  if (ignored) return null;
  // The walk up the parents, each one the parent in full, until the top unit (os2mo.py:478-488).
  let parent = base;
  if (parent.uuid !== settings.topUnitUuid) {
    while (parent.parent) {
      if (parent.uuid === settings.topUnitUuid) break;
      parent = parent.parent;
    }
  }
  expect(parent.uuid, `unit ${uuid} is below the top unit`).toBe(settings.topUnitUuid);

  const sts: Record<string, unknown> & { ItSystemUuids: string[] } = {
    ItSystemUuids: [],
    Name: base.name,
    Uuid: uuid,
  };
  if (base.parent && 'uuid' in base.parent) sts.ParentOrgUnitUuid = base.parent.uuid;
  // itsystems_to_orgunit (os2mo.py:346-351): itsystem.name and itsystem.uuid of the unit's IT accounts.
  for (const account of await os2moGet(`ou/${uuid}/details/it`)) {
    if (!settings.uuidFromItSystems.includes(account.itsystem.name))
      sts.ItSystemUuids.push(account.itsystem.uuid);
  }
  expect(sts.ItSystemUuids.every((system) => typeof system === 'string')).toBe(true);
  // addresses_to_orgunit (os2mo.py:363-378): address_type.scope and user_key, and the address's name.
  for (const address of await os2moGet(`ou/${uuid}/details/address`)) {
    expect(address.address_type).toMatchObject({ scope: expect.any(String), user_key: expect.any(String) });
    const field = { EMAIL: 'Email', EAN: 'Ean', PHONE: 'PhoneNumber', DAR: 'Post', PNUMBER: 'Location' }[
      address.address_type.scope as string
    ];
    if (field) sts[field] = address.name;
  }
  if (settings.syncManagers) {
    // manager_to_orgunit (os2mo.py:339-343): one(manager)["person"]["uuid"].
    const managers = await os2moGet(`ou/${uuid}/details/manager`);
    if (managers.length > 0)
      sts.managerUuid = one<{ person: { uuid: string } }>(managers, `managers of ${uuid}`).person.uuid;
  }
  if (kle) {
    const { tasks, contactForTasks } = partitionKle(
      await os2moGet(`ou/${uuid}/details/kle`),
      settings.useContactForTasks,
    );
    if (tasks.length > 0) sts.Tasks = tasks;
    if (contactForTasks.length > 0) sts.ContactForTasks = contactForTasks;
  }
  if (settings.uuidFromItSystems.length > 0) {
    // overwrite_unit_uuids (os2mo.py:458-469).
    sts.Uuid = fkOrgUuid(await os2moGet(`ou/${uuid}/details/it`), uuid, settings.uuidFromItSystems);
    const parentUuid = sts.ParentOrgUnitUuid as string | undefined;
    if (parentUuid) {
      sts.ParentOrgUnitUuid = fkOrgUuid(
        await os2moGet(`ou/${parentUuid}/details/it`),
        parentUuid,
        settings.uuidFromItSystems,
      );
    }
  }
  return sts;
}

/** `sync_os2sync_orgunits` (__main__.py:48-100): the units today and at the previous run, then each unit. */
async function syncOrgUnits(settings: Settings) {
  const hierarchyUuids = await orgUnitHierarchy(settings.filterHierarchyNames);
  const present = await orgUnitUuids({ root: settings.topUnitUuid, hierarchyUuids });
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const past = await orgUnitUuids({ root: settings.topUnitUuid, at: yesterday, hierarchyUuids });
  expect(present.size).toBeGreaterThan(0);
  const exported = [];
  for (const uuid of present) {
    // has_kle() is read once a unit (os2mo.py:510), as the exporter does.
    exported.push(await stsOrgUnit(uuid, settings, await hasKle()));
  }
  return { present, past, exported };
}

/** The top units: each is a possible `os2sync_top_unit_uuid`; together their trees hold every unit open today. */
async function topUnits(): Promise<string[]> {
  return (await os2moGet(`o/${organisationUuid}/children`)).map((unit: { uuid: string }) => unit.uuid);
}

describe('the os2sync unit export through the gateway', () => {
  it('reaches the end for every unit open today, with each top unit as os2sync_top_unit_uuid (__main__.py:48-100)', async () => {
    const everyUnit = new Set(
      (await os2moGet(`o/${organisationUuid}/ou/`)).items.map((unit: { uuid: string }) => unit.uuid),
    );
    const walked = new Set<string>();
    for (const topUnitUuid of await topUnits()) {
      const { present, exported } = await syncOrgUnits({ ...defaults, topUnitUuid });
      expect(exported).toHaveLength(present.size);
      for (const [index, sts] of exported.entries()) {
        expect(sts, [...present][index]).toMatchObject({
          Name: expect.any(String),
          Uuid: expect.any(String),
        });
      }
      for (const uuid of present) walked.add(uuid);
    }
    expect(walked).toEqual(everyUnit);
  }, 240_000);

  it('fills Email, PhoneNumber, Post (the rendered DAR address, not its UUID) and Ean from the addresses', async () => {
    const [topUnitUuid] = await topUnits();
    const sts = await stsOrgUnit(topUnitUuid!, { ...defaults, topUnitUuid: topUnitUuid! }, false);
    expect(sts).toMatchObject({
      Email: expect.stringContaining('@'),
      PhoneNumber: expect.stringMatching(/^\+45\d{8}$/),
      Post: expect.stringMatching(/^Town Hall Square \d+/),
      Ean: expect.stringMatching(/^\d{13}$/),
    });
  });

  it('reads the KLE of every unit with its numbers and one aspect each, as partition_kle does (os2mo.py:394-424)', async () => {
    let withTasks = 0;
    for (const topUnitUuid of await topUnits()) {
      for (const uuid of await orgUnitUuids({ root: topUnitUuid })) {
        const sts = await stsOrgUnit(uuid, { ...defaults, topUnitUuid }, true);
        if (sts && Array.isArray(sts.Tasks)) withTasks += 1;
      }
    }
    expect(withTasks).toBeGreaterThan(0);
  }, 240_000);

  it('with os2sync_uuid_from_it_systems, reads the unit’s and its parent’s IT accounts (os2mo.py:458-469)', async () => {
    const [topUnitUuid] = await topUnits();
    const [child] = await os2moGet(`ou/${topUnitUuid}/children`);
    const sts = await stsOrgUnit(
      child.uuid,
      { ...defaults, topUnitUuid: topUnitUuid!, uuidFromItSystems: ['Active Directory'] },
      false,
    );
    // The seed gives the top levels an Active Directory account: its user key replaces the MO uuid.
    expect(sts).toMatchObject({
      Uuid: expect.stringMatching(/^ou-/),
      ParentOrgUnitUuid: expect.stringMatching(/^ou-/),
    });
    expect(sts!.ItSystemUuids).toEqual([]);
  });

  it('with os2sync_filter_hierarchy_names, finds the org_unit_hierarchy class by name (os2mo.py:245-261)', async () => {
    const [topUnitUuid] = await topUnits();
    const hierarchies = await orgUnitHierarchy(['Line management']);
    expect(hierarchies).toHaveLength(1);
    // 2.4.0's o/{org}/ou/ has no hierarchy_uuids argument (backend/mora/service/orgunit.py:1085-1094 at
    // 2.4.0) and FastAPI ignores an unknown one: the listing is the one without it.
    const filtered = await orgUnitUuids({ root: topUnitUuid!, hierarchyUuids: hierarchies });
    expect(filtered).toEqual(await orgUnitUuids({ root: topUnitUuid! }));
  });

  it('with os2sync_sync_managers, one(manager)["person"]["uuid"] holds for units with one held manager (os2mo.py:339-343)', async () => {
    const [topUnitUuid] = await topUnits();
    const sts = await stsOrgUnit(
      topUnitUuid!,
      { ...defaults, topUnitUuid: topUnitUuid!, syncManagers: true },
      false,
    );
    expect(sts!.managerUuid).toEqual(expect.any(String));
  });
});

describe('the os2sync user export through the gateway', () => {
  /** `read_all_user_uuids` (__main__.py:103-122): pages of 1000 by `?limit=…&start=…` in the URL. */
  async function readAllUserUuids(org: string): Promise<string[]> {
    const limit = 1000;
    let start = 0;
    let total = 1;
    const all: string[] = [];
    while (start < total) {
      const page = await os2moGet(`o/${org}/e/?limit=${limit}&start=${start}`);
      all.push(...page.items.map((item: { uuid: string }) => item.uuid));
      start = page.offset + limit;
      total = page.total;
    }
    return all;
  }

  /** `get_sts_user_raw` (os2mo.py:264-311) with employee_engagement_address set, for one person. */
  async function stsUser(uuid: string, allowedUnits: Set<string>, workAddressNames: string[]) {
    const employee = await os2moGet(`e/${uuid}/`);
    // templates.Person/User read user_key, name and (with os2sync_xfer_cpr) cpr_no.
    expect(employee).toMatchObject({ user_key: expect.any(String), name: expect.any(String) });
    expect(employee).toHaveProperty('cpr_no');
    // try_get_it_user_key (os2mo.py:172-185): IT.from_mo_json reads itsystem.name and user_key.
    for (const account of await os2moGet(`e/${uuid}/details/it`)) {
      expect(account).toMatchObject({ user_key: expect.any(String), itsystem: { name: expect.any(String) } });
    }
    const user: {
      Positions: { OrgUnitUuid: string; Name: string; is_primary: boolean }[];
      [key: string]: unknown;
    } = {
      Positions: [],
    };
    // addresses_to_user (os2mo.py:133-156) through choose_public_address: scope, visibility.scope, type uuid.
    for (const address of await os2moGet(`e/${uuid}/details/address`)) {
      expect(address).toMatchObject({
        uuid: expect.any(String),
        name: expect.any(String),
        address_type: { scope: expect.any(String), uuid: expect.any(String) },
      });
      if (address.visibility) expect(address.visibility.scope).toEqual(expect.any(String));
    }
    // engagements_to_user (os2mo.py:159-169), with is_primary from calculate_primary=true (os2mo.py:292-294).
    const engagements = await os2moGet(`e/${uuid}/details/engagement?calculate_primary=true`);
    for (const engagement of engagements) {
      expect(engagement).toMatchObject({
        uuid: expect.any(String),
        job_function: { name: expect.any(String) },
        org_unit: { uuid: expect.any(String) },
        is_primary: expect.any(Boolean),
      });
      if (allowedUnits.has(engagement.org_unit.uuid)) {
        user.Positions.push({
          OrgUnitUuid: engagement.org_unit.uuid,
          Name: engagement.job_function.name,
          is_primary: engagement.is_primary,
        });
      }
    }
    if (user.Positions.length > 0 && workAddressNames.length > 0) {
      // get_work_address (os2mo.py:188-216): the primary position's unit's addresses by address_type.name.
      const primary = user.Positions.filter((position) => position.is_primary);
      const chosen = primary.length === 1 ? primary[0]! : user.Positions[0]!;
      const addresses = await os2moGet(`ou/${chosen.OrgUnitUuid}/details/address`);
      const work = addresses
        .filter((address: { address_type: { name: string } }) =>
          workAddressNames.includes(address.address_type.name),
        )
        .sort(
          (a: { address_type: { name: string } }, b: { address_type: { name: string } }) =>
            workAddressNames.indexOf(a.address_type.name) - workAddressNames.indexOf(b.address_type.name),
        );
      user.Location = work[0]?.name;
    }
    return user;
  }

  it('reaches the end for every person, with positions in the units of a top unit (__main__.py:125-157)', async () => {
    const org = await organizationUuid();
    const people = await readAllUserUuids(org);
    expect(people.length).toBeGreaterThan(0);
    const units = new Set<string>();
    for (const topUnitUuid of await topUnits())
      for (const uuid of await orgUnitUuids({ root: topUnitUuid })) units.add(uuid);
    let located = 0;
    for (const uuid of people) {
      const user = await stsUser(uuid, units, ['Postal address']);
      if (typeof user.Location === 'string') {
        located += 1;
        // The work address is the unit's rendered postal address, not a DAR UUID.
        expect(user.Location).toMatch(/^Town Hall Square \d+/);
      }
    }
    expect(located).toBeGreaterThan(0);
  }, 300_000);
});
