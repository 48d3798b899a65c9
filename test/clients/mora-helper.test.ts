import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classUuid, organisationUuid } from '../../legacy-service/src/fixture/organisation.js';
import { oscar } from '../../openapi/contract-fixture.js';
import { startTestStack, type TestStack } from '../stack.js';
import { bearer, integrationToken, serviceSession, type ServiceSession } from './service-session.js';

/**
 * DIPEX's `MoraHelper` (OS2mo/os2mo-data-import-and-export at 573b24ca,
 * `os2mo_data_import/os2mo_helpers/mora_helpers.py`, cited below as `mora_helpers.py:LINE`), every read and
 * write it makes, driven through the gateway (RBAC on, the integration client's token, as
 * `TokenSettings().get_headers()` gives it) on the seeded stand-in. Each test names the method it mirrors
 * and asserts the keys the method reads, with the kind of value it reads them as.
 *
 * `_mo_lookup` (mora_helpers.py:138-186) GETs `{host}/service/{url}` with `calculate_primary=1`,
 * `only_primary_uuid=1`, `at` or `validity` as asked, raises on 401 and on a 500; `_mo_post`
 * (mora_helpers.py:188-197) POSTs JSON with `?force=1`.
 *
 * Not here: `terminate_detail` (mora_helpers.py:380-389) sends nothing at this commit (its POST is commented out
 * at line 389); the payload it logs is ImportUtility's `_terminate_details`, in `import-utility.test.ts`.
 */

let stack: TestStack;
let mo: ServiceSession;
beforeAll(async () => {
  stack = await startTestStack();
  mo = serviceSession(stack, bearer(await integrationToken(stack)));
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

/** `_mo_lookup`: any answer but 200 is a failure the helper raises (or, for 401, logs and raises). */
async function lookup(url: string, params: Record<string, string | number> = {}) {
  const response = await mo.get(url, params);
  expect(response.status, `GET ${url}: ${response.text}`).toBe(200);
  return response.json;
}

const isUuid = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
const isDate = expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/);

/** `read_organisation` (mora_helpers.py:205-212): `o/`, the first organisation's `uuid`. */
async function readOrganisation(): Promise<string> {
  const orgs = await lookup('o/');
  return orgs[0].uuid as string;
}

describe('MoraHelper through the gateway', () => {
  it('check_connection (mora_helpers.py:199-203): GET configuration has show_roles', async () => {
    const configuration = await lookup('configuration');
    expect(configuration).toHaveProperty('show_roles');
  });

  it('read_organisation (mora_helpers.py:205-212): o/ answers a list whose first item has uuid', async () => {
    expect(await readOrganisation()).toBe(organisationUuid);
  });

  it('read_all_users (mora_helpers.py:214-231): pages o/{org}/e/ by limit and start until offset+limit ≥ total', async () => {
    const org = await readOrganisation();
    const limit = 200;
    let start = 0;
    let total = 1;
    const all: { uuid: string; name: string }[] = [];
    while (start < total) {
      const page = await lookup(`o/${org}/e/?limit=${limit}&start=${start}`);
      expect(page).toEqual({ items: expect.any(Array), offset: start, total: expect.any(Number) });
      all.push(...page.items);
      start = page.offset + limit;
      total = page.total;
    }
    expect(all.length).toBe(total);
    expect(new Set(all.map((person) => person.uuid)).size).toBe(total);
    // os2rollekatalog's get_users reads each listed person's uuid, name and nickname from these items.
    for (const person of all) expect(person).toMatchObject({ uuid: isUuid, name: expect.any(String) });
  });

  it('read_it_systems (mora_helpers.py:233-240): o/{org}/it/ lists the IT systems', async () => {
    const systems = await lookup(`o/${await readOrganisation()}/it/`);
    expect(systems.map((system: { name: string }) => system.name)).toContain('Active Directory');
    for (const system of systems) expect(system).toMatchObject({ uuid: isUuid, name: expect.any(String) });
  });

  it('read_ou (mora_helpers.py:242-249) and read_top_units (688-695): o/{org}/children, ou/{uuid}/', async () => {
    const tops = await lookup(`o/${await readOrganisation()}/children`);
    expect(tops.length).toBeGreaterThan(0);
    for (const top of tops) {
      expect(top).toMatchObject({ uuid: isUuid, name: expect.any(String), child_count: expect.any(Number) });
      const unit = await lookup(`ou/${top.uuid}/`);
      // The keys common_queries.export_adm_org and _create_path_dict read from read_ou.
      expect(unit).toMatchObject({
        uuid: top.uuid,
        name: top.name,
        user_key: expect.any(String),
        parent: null,
        org_unit_type: { uuid: isUuid, name: expect.any(String) },
        validity: { from: isDate },
      });
    }
  });

  it('read_ou_tree (mora_helpers.py:697-715): ou/{uuid}/children recursively while child_count > 0', async () => {
    const [top] = await lookup(`o/${await readOrganisation()}/children`);
    const seen: string[] = [];
    const walk = async (uuid: string): Promise<void> => {
      for (const child of await lookup(`ou/${uuid}/children`)) {
        expect(child).toMatchObject({ uuid: isUuid, child_count: expect.any(Number) });
        seen.push(child.uuid);
        if (child.child_count > 0) await walk(child.uuid);
      }
    };
    await walk(top.uuid);
    // The walk finds every unit the listing under that root holds (the root itself aside).
    const listed = await lookup(`o/${organisationUuid}/ou/`, { root: top.uuid, limit: 0 });
    expect(new Set([top.uuid, ...seen])).toEqual(
      new Set(listed.items.map((unit: { uuid: string }) => unit.uuid)),
    );
  });

  it('read_ou_root (mora_helpers.py:717-727): o/{org}/ou/?root= answers items under that root', async () => {
    const org = await readOrganisation();
    const [top] = await lookup(`o/${org}/children`);
    const units = (await lookup(`o/${org}/ou/?root=${top.uuid}`)).items;
    expect(units.map((unit: { uuid: string }) => unit.uuid)).toContain(top.uuid);
    for (const unit of units) expect(unit).toMatchObject({ uuid: isUuid, name: expect.any(String) });
  });

  it('read_ou_address (mora_helpers.py:251-293): scope DAR reads the rendered address as Adresse, not a UUID', async () => {
    const [top] = await lookup(`o/${await readOrganisation()}/children`);
    const addresses = await lookup(`ou/${top.uuid}/details/address`);
    const postal = addresses.filter(
      (address: { address_type: { scope: string } }) => address.address_type.scope === 'DAR',
    );
    expect(postal).toHaveLength(1);
    // reformat_address (mora_helpers.py:268-277) reads these keys of every address.
    for (const address of addresses) {
      expect(address).toMatchObject({
        uuid: isUuid,
        name: expect.any(String),
        value: expect.any(String),
        address_type: { uuid: isUuid, scope: expect.any(String) },
      });
      // address.get("visibility"): absent when the address has none, as 2.4.0 leaves it out
      // (backend/mora/service/address_handler/base.py:112 at 2.4.0).
      if ('visibility' in address) expect(address.visibility).toMatchObject({ uuid: isUuid });
    }
    expect(postal[0].name).not.toBe(postal[0].value);
    expect(postal[0].name).toMatch(/^Town Hall Square \d+/);
  });

  it('read_classes_in_facet (mora_helpers.py:295-306): o/{org}/f/{facet}/ has data.items and the facet uuid', async () => {
    const facet = await lookup(`o/${await readOrganisation()}/f/engagement_job_function/`);
    expect(facet.uuid).toEqual(isUuid);
    expect(facet.data.items.length).toBeGreaterThan(0);
    for (const item of facet.data.items)
      expect(item).toMatchObject({ uuid: isUuid, name: expect.any(String), user_key: expect.any(String) });
  });

  describe('ensure_class_in_facet (mora_helpers.py:308-352)', () => {
    it('finds an existing class by name or user key and writes nothing', async () => {
      const org = await readOrganisation();
      const facet = await lookup(`o/${org}/f/responsibility/`);
      const match = facet.data.items.filter(
        (item: { name: string; user_key: string }) =>
          item.name.toLowerCase() === 'personnel' || item.user_key.toLowerCase() === 'personnel',
      );
      expect(match.map((item: { uuid: string }) => item.uuid)).toEqual([
        classUuid('responsibility', 'personnel'),
      ]);
    });

    it('creates a new class with POST f/{facet}/?force=1 and reads its UUID from the JSON answer', async () => {
      const org = await readOrganisation();
      const payload = {
        name: 'Head of Marina',
        user_key: 'head_of_marina',
        scope: 'TEXT',
        org_uuid: org,
        owner: null,
      };
      const created = await mo.post('f/engagement_job_function/', payload, { force: 1 });
      // r.raise_for_status(); UUID(r.json())
      expect(created.status, created.text).toBeLessThan(300);
      expect(created.json).toEqual(isUuid);
      const after = await lookup(`o/${org}/f/engagement_job_function/`);
      expect(after.data.items).toContainEqual(
        expect.objectContaining({ uuid: created.json, name: 'Head of Marina', user_key: 'head_of_marina' }),
      );
    });

    it('creates a class with the uuid it was given', async () => {
      const org = await readOrganisation();
      const uuid = '3c1b9e7a-5d2f-4c8e-9a61-0f2b7d4e8c10';
      const payload = {
        name: 'Harbour watch',
        user_key: 'harbour_watch',
        scope: 'TEXT',
        org_uuid: org,
        owner: null,
        uuid,
      };
      const created = await mo.post('f/manager_type/', payload, { force: 1 });
      expect(created.status, created.text).toBeLessThan(300);
      expect(created.json).toBe(uuid);
    });
  });

  describe('people', () => {
    it('read_user (mora_helpers.py:354-378): by uuid e/{uuid}/, by CPR o/{org}/e/?query={cpr} with total < 2', async () => {
      const person = await lookup(`e/${oscar}/`);
      expect(person).toMatchObject({
        uuid: oscar,
        name: expect.any(String),
        givenname: expect.any(String),
        surname: expect.any(String),
        user_key: expect.any(String),
        cpr_no: expect.stringMatching(/^\d{10}$/),
      });
      const found = await lookup(`o/${await readOrganisation()}/e/?query=${person.cpr_no}`);
      expect(found.total).toBe(1);
      expect(found.items[0].uuid).toBe(oscar);
    });

    it('read_user_engagement(s) (mora_helpers.py:391-441): details/engagement with calculate_primary, only_primary_uuid and each validity', async () => {
      const present = await lookup(`e/${oscar}/details/engagement`, { calculate_primary: 1 });
      expect(present.length).toBeGreaterThan(0);
      for (const engagement of present) {
        expect(engagement).toMatchObject({
          uuid: isUuid,
          user_key: expect.any(String),
          is_primary: expect.any(Boolean),
          job_function: { uuid: isUuid, name: expect.any(String) },
          engagement_type: { uuid: isUuid, name: expect.any(String) },
          org_unit: { uuid: isUuid, name: expect.any(String) },
          person: { uuid: oscar },
          validity: { from: isDate },
        });
      }
      // read_all: past, present and future, each a list (an answer that is not one is printed and dropped).
      for (const validity of ['past', 'present', 'future']) {
        const answer = await lookup(`e/${oscar}/details/engagement`, { only_primary_uuid: 1, validity });
        expect(Array.isArray(answer), validity).toBe(true);
        // only_primary_uuid: the classes are their uuid alone.
        for (const engagement of answer) expect(Object.keys(engagement.job_function)).toEqual(['uuid']);
      }
    });

    it('read_user_association (mora_helpers.py:443-470, read_all): details/association per validity', async () => {
      // The read_all=False branch passes `use_cach=` to _mo_lookup (mora_helpers.py:457), a TypeError before
      // any request: only read_all=True reaches MO.
      for (const validity of ['past', 'present', 'future']) {
        const associations = await lookup(`e/${oscar}/details/association`, { validity });
        expect(Array.isArray(associations)).toBe(true);
      }
    });

    it('read_user_address (mora_helpers.py:472-510): PHONE and EMAIL names, then user_key and cpr_no from e/{uuid}/', async () => {
      const addresses = await lookup(`e/${oscar}/details/address`);
      const scopes = addresses.map(
        (address: { address_type: { scope: string } }) => address.address_type.scope,
      );
      expect(scopes).toEqual(expect.arrayContaining(['EMAIL']));
      for (const address of addresses)
        expect(address).toMatchObject({
          name: expect.any(String),
          address_type: { uuid: isUuid, scope: expect.any(String) },
        });
      const personal = await lookup(`e/${oscar}/`);
      expect(personal).toMatchObject({
        user_key: expect.any(String),
        cpr_no: expect.stringMatching(/^\d{10}$/),
      });
    });

    it('read_user_manager_status (mora_helpers.py:512-523): details/manager, each responsibility has a name', async () => {
      const roles = await lookup(`e/${oscar}/details/manager`);
      expect(roles.length).toBeGreaterThan(0);
      for (const role of roles)
        for (const responsibility of role.responsibility)
          expect(responsibility).toMatchObject({ name: expect.any(String) });
    });

    it('read_user_roller (mora_helpers.py:525-534): details/role, each role_type has a name', async () => {
      const roles = await lookup(`e/${oscar}/details/role`);
      expect(Array.isArray(roles)).toBe(true);
      for (const role of roles) expect(role.role_type).toMatchObject({ name: expect.any(String) });
    });

    it('get_e_username, get_e_itsystems (mora_helpers.py:770-793): details/it, itsystem.user_key and uuid, user_key', async () => {
      const accounts = await lookup(`e/${oscar}/details/it`);
      expect(accounts.length).toBeGreaterThan(0);
      for (const account of accounts)
        expect(account).toMatchObject({
          user_key: expect.any(String),
          itsystem: { uuid: isUuid, user_key: expect.any(String), name: expect.any(String) },
        });
    });

    it('find_cut_dates (mora_helpers.py:729-768): primary engagements of every validity have from dates', async () => {
      const validities = [];
      for (const validity of ['past', 'present', 'future'])
        for (const engagement of await lookup(`e/${oscar}/details/engagement`, {
          only_primary_uuid: 1,
          validity,
        }))
          validities.push(engagement.validity);
      expect(validities.length).toBeGreaterThan(0);
      for (const validity of validities) {
        expect(validity.from).toEqual(isDate);
        expect(validity).toHaveProperty('to');
      }
    });

    it('update_user (mora_helpers.py:795-797): POST details/edit?force=1 with type employee', async () => {
      const before = await lookup(`e/${oscar}/`);
      const edited = await mo.post(
        'details/edit',
        {
          type: 'employee',
          uuid: oscar,
          data: { nickname_givenname: 'Ozzy', validity: { from: '2020-01-01' } },
        },
        { force: 1 },
      );
      expect(edited.status, edited.text).toBe(200);
      expect(edited.json).toBe(oscar);
      const after = await lookup(`e/${oscar}/`);
      expect(after).toMatchObject({ uuid: oscar, cpr_no: before.cpr_no, nickname_givenname: 'Ozzy' });
    });
  });

  describe('units and their people', () => {
    it('read_ou_manager (mora_helpers.py:575-622): details/manager with and without inherit_manager=1', async () => {
      const [top] = await lookup(`o/${await readOrganisation()}/children`);
      const [child] = await lookup(`ou/${top.uuid}/children`);
      for (const url of [
        `ou/${top.uuid}/details/manager`,
        `ou/${child.uuid}/details/manager?inherit_manager=1`,
      ]) {
        const managers = await lookup(url);
        expect(managers.length, url).toBeGreaterThan(0);
        for (const manager of managers) {
          expect(Array.isArray(manager.responsibility)).toBe(true);
          // A vacant position is `person: null`, which the helper skips; a held one has uuid and name.
          expect(manager).toHaveProperty('person');
          if (manager.person !== null)
            expect(manager.person).toMatchObject({ uuid: isUuid, name: expect.any(String) });
        }
      }
    });

    it('read_organisation_people (mora_helpers.py:624-686): engagements and associations of a unit, with the keys of each row', async () => {
      const org = await readOrganisation();
      const units = (await lookup(`o/${org}/ou/`)).items as { uuid: string }[];
      let engagements = 0;
      let associations = 0;
      for (const unit of units.slice(0, 20)) {
        for (const person of await lookup(`ou/${unit.uuid}/details/engagement`)) {
          engagements += 1;
          expect(person).toMatchObject({
            uuid: isUuid,
            validity: { from: isDate },
            person: {
              uuid: isUuid,
              name: expect.any(String),
              givenname: expect.any(String),
              surname: expect.any(String),
            },
            org_unit: { uuid: unit.uuid, name: expect.any(String) },
            job_function: { name: expect.any(String) },
            engagement_type: { uuid: isUuid, name: expect.any(String) },
          });
          expect(person.validity).toHaveProperty('to');
        }
        for (const person of await lookup(`ou/${unit.uuid}/details/association`)) {
          associations += 1;
          expect(person).toMatchObject({ uuid: isUuid, association_type: { name: expect.any(String) } });
          // person["person"]["uuid"] (mora_helpers.py:655): an association without a person would raise.
          expect(person.person).toMatchObject({ uuid: isUuid });
        }
      }
      expect(engagements).toBeGreaterThan(0);
      expect(associations).toBeGreaterThan(0);
    });

    it('_get_detail (mora_helpers.py:799-813): {ou|e}/{uuid}/details/{type} for past, present and future', async () => {
      const [top] = await lookup(`o/${await readOrganisation()}/children`);
      for (const [kind, uuid] of [
        ['ou', top.uuid],
        ['e', oscar],
      ] as const)
        for (const validity of ['past', 'present', 'future'])
          expect(Array.isArray(await lookup(`${kind}/${uuid}/details/address`, { validity }))).toBe(true);
    });
  });

  it('read_engagement_manager (mora_helpers.py:536-573) reads LoRa, not /service: the gateway has no such route', async () => {
    // It GETs http://localhost:5000/lora/organisation/organisationfunktion/{uuid} (line 548), OS2mo's LoRa
    // database API, which no /service router serves and the gateway does not front: the request never reaches
    // the gateway's /service. Through the gateway's origin the path is unknown and refused as such.
    const response = await fetch(`${stack.gatewayUrl}/lora/organisation/organisationfunktion/${oscar}`);
    expect(response.status).toBe(404);
  });
});
