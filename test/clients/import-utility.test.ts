import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classUuid, organisationUuid } from '../../legacy-service/src/fixture/organisation.js';
import { startTestStack, type TestStack } from '../stack.js';
import { bearer, integrationToken, serviceSession, type ServiceSession } from './service-session.js';

/**
 * DIPEX's importer, `ImportUtility` (OS2mo/os2mo-data-import-and-export at 573b24ca,
 * `os2mo_data_import/os2mo_data_import/utilities.py`, cited as `utilities.py:LINE`; its payloads are built by
 * `mora_data_types.py` in the same folder): every write it makes to `/service`, with the payloads its types
 * build, through `MoraHelper._mo_post` (`?force=1`, mora_helpers.py:188-197), and the reads it compares them
 * with, through the gateway (RBAC on, the integration client's token) on a stand-in of its own.
 *
 * `insert_mora_data` (utilities.py:615-662) takes a 200 or 201 and reads the new UUID from the JSON answer;
 * any other status fails the import.
 *
 * Not here: `insert_mox_data` (utilities.py:575-613) writes classes, facets, IT systems and the organisation
 * to LoRa (`{mox_base}/klassifikation/…`, `/organisation/…`), which is not `/service` and which neither OS2mo's
 * Service API nor the gateway fronts; the seeded classes stand for what it would have written.
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

/** `insert_mora_data` (utilities.py:615-662): POST `{resource}?force=1`; 200 or 201, and the answer's UUID(s). */
async function insertMoraData(resource: string, data: unknown): Promise<unknown> {
  const response = await mo.post(resource, data, { force: 1 });
  expect([200, 201], `POST ${resource}: ${response.status} ${response.text}`).toContain(response.status);
  return response.json;
}

/** `MoraHelper._get_detail` (mora_helpers.py:799-813): a detail type's records of every validity. */
async function getDetail(uuid: string, type: string, objectType: 'e' | 'ou' = 'e'): Promise<unknown[]> {
  const all: unknown[] = [];
  for (const validity of ['past', 'present', 'future']) {
    const response = await mo.get(`${objectType}/${uuid}/details/${type}`, { validity });
    expect(response.status, response.text).toBe(200);
    all.push(...(response.json as unknown[]));
  }
  return all;
}

const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
const cls = classUuid;
const unitUuidOf = '5d1c3b8e-0a7f-4e2d-9c61-2b4f8e7a1d30';
const subunitUuid = '5d1c3b8e-0a7f-4e2d-9c61-2b4f8e7a1d31';
const personUuid = '7e2f4a9c-1b3d-4c5e-8f60-3a5b7c9d1e20';

// One import run in steps: the unit is created before its subunit and the person placed in them.
describe('ImportUtility through the gateway', { shuffle: false }, () => {
  it('import_org_unit (utilities.py:249-377): a new top unit is POST ou/create under the organisation, with its uuid', async () => {
    // OrganisationUnitType.build (mora_data_types.py:710-745) and MoType._build_payload (68-108); a unit
    // without a parent reference has the organisation as its parent (utilities.py:278-279).
    const payload = {
      user_key: 'Harbour Office',
      name: 'Harbour Office',
      parent: { uuid: organisationUuid },
      org_unit_type: { uuid: cls('org_unit_type', 'department') },
      org_unit_level: { uuid: cls('org_unit_level', 'level_1') },
      uuid: unitUuidOf,
      validity: { from: '2020-01-01', to: null },
    };
    // `assert (uuid == payload['uuid'])` (utilities.py:326-327).
    expect(await insertMoraData('ou/create', payload)).toBe(unitUuidOf);
    const unit = await mo.get(`ou/${unitUuidOf}/`);
    expect(unit.json).toMatchObject({ uuid: unitUuidOf, name: 'Harbour Office', parent: null });
    // The addresses it compares the unit's details with (utilities.py:334-335), then details/create with
    // the details it has: none here, so an empty list (utilities.py:370-375).
    expect(await getDetail(unitUuidOf, 'address', 'ou')).toEqual([]);
    expect(await insertMoraData('details/create', [])).toEqual([]);
  });

  it('import_org_unit: a subunit with its address details, POST details/create of a list', async () => {
    const payload = {
      user_key: 'Harbour Desk',
      name: 'Harbour Desk',
      parent: { uuid: unitUuidOf },
      org_unit_type: { uuid: cls('org_unit_type', 'office') },
      time_planning: { uuid: cls('time_planning', 'working_time_plans') },
      uuid: subunitUuid,
      validity: { from: '2020-01-01', to: null },
    };
    expect(await insertMoraData('ou/create', payload)).toBe(subunitUuid);
    // AddressType.build (mora_data_types.py:164-188) for a unit: value, org, address_type, visibility.
    const addresses = [
      {
        value: 'desk@harbour.example',
        org: { uuid: organisationUuid },
        address_type: { uuid: cls('org_unit_address_type', 'unit_email') },
        visibility: { uuid: cls('visibility', 'public') },
        type: 'address',
        org_unit: { uuid: subunitUuid },
        validity: { from: '2020-01-01', to: null },
      },
      {
        value: '+4512345678',
        org: { uuid: organisationUuid },
        address_type: { uuid: cls('org_unit_address_type', 'unit_phone') },
        type: 'address',
        org_unit: { uuid: subunitUuid },
        validity: { from: '2020-01-01', to: null },
      },
    ];
    const created = await insertMoraData('details/create', addresses);
    expect(created).toEqual([expect.any(String), expect.any(String)]);
    const read = (await getDetail(subunitUuid, 'address', 'ou')) as { name: string }[];
    expect(read.map((address) => address.name).sort()).toEqual(['+4512345678', 'desk@harbour.example']);
  });

  it('import_org_unit, re-import (utilities.py:299-309, 366-369): details/edit of type org_unit, then the old addresses terminated', async () => {
    const data = {
      user_key: 'Harbour Desk',
      name: 'Harbour Front Desk',
      parent: { uuid: unitUuidOf },
      org_unit_type: { uuid: cls('org_unit_type', 'office') },
      uuid: subunitUuid,
      validity: { from: '2021-01-01', to: null },
    };
    expect(await insertMoraData('details/edit', { data, type: 'org_unit' })).toBe(subunitUuid);
    expect((await mo.get(`ou/${subunitUuid}/`)).json.name).toBe('Harbour Front Desk');
    // _terminate_details (utilities.py:686-704): {type, uuid, validity: {to: yesterday}}.
    for (const address of (await getDetail(subunitUuid, 'address', 'ou')) as { uuid: string }[]) {
      expect(
        await insertMoraData('details/terminate', {
          type: 'address',
          uuid: address.uuid,
          validity: { to: yesterday() },
        }),
      ).toBe(address.uuid);
    }
    const present = await mo.get(`ou/${subunitUuid}/details/address`);
    expect(present.json).toEqual([]);
  });

  it('import_employee (utilities.py:379-497): POST e/create with validity {from: null, to: null}, as EmployeeType builds it', async () => {
    // EmployeeType.build (mora_data_types.py:784-810) with MoType._build_payload's validity of no dates.
    // utilities.py:405-408 at this commit calls insert_mora_data without `data` (a TypeError before any
    // request); the payload is the one built two lines before it (line 393), as every earlier commit sent.
    const payload = {
      user_key: 'harbour.master',
      cpr_no: '0101801234',
      org: { uuid: organisationUuid },
      name: 'Hanne Havn',
      uuid: personUuid,
      validity: { from: null, to: null },
    };
    expect(await insertMoraData('e/create', payload)).toBe(personUuid);
    const person = await mo.get(`e/${personUuid}/`);
    expect(person.json).toMatchObject({ uuid: personUuid, name: 'Hanne Havn', cpr_no: '0101801234' });
    // The details it compares with (utilities.py:413-420): each type, every validity, an empty list.
    for (const type of ['it', 'role', 'leave', 'address', 'manager', 'engagement', 'association'])
      expect(await getDetail(personUuid, type), type).toEqual([]);
  });

  it("import_employee's details: POST details/create with every detail type its mora_data_types build", async () => {
    const person = { uuid: personUuid };
    const validity = { from: '2020-01-01', to: null };
    const engagementUuid = '7e2f4a9c-1b3d-4c5e-8f60-3a5b7c9d1e21';
    const details = [
      // EngagementType.build (mora_data_types.py:244-305): fraction and the extension fields always sent.
      {
        uuid: engagementUuid,
        org_unit: { uuid: subunitUuid },
        primary: { uuid: cls('primary_type', 'explicitly_primary') },
        job_function: { uuid: cls('engagement_job_function', 'caseworker') },
        engagement_type: { uuid: cls('engagement_type', 'permanent') },
        user_key: 'H-001',
        fraction: null,
        extension_1: 'Harbour',
        type: 'engagement',
        person,
        validity,
      },
      // AddressType.build for a person.
      {
        value: 'hanne@harbour.example',
        org: { uuid: organisationUuid },
        address_type: { uuid: cls('employee_address_type', 'employee_email') },
        visibility: { uuid: cls('visibility', 'public') },
        type: 'address',
        person,
        validity,
      },
      // AssociationType.build (mora_data_types.py:376-407).
      {
        user_key: 'H-A-001',
        org_unit: { uuid: unitUuidOf },
        association_type: { uuid: cls('association_type', 'member') },
        type: 'association',
        person,
        validity,
      },
      // ItsystemType.build (mora_data_types.py:435-454).
      {
        user_key: 'hanne',
        itsystem: { uuid: (await mo.get(`o/${organisationUuid}/it/`)).json[0].uuid },
        type: 'it',
        person,
        validity,
      },
      // RoleType.build (mora_data_types.py:543-561).
      {
        org_unit: { uuid: subunitUuid },
        role_type: { uuid: cls('role_type', 'first_aider') },
        type: 'role',
        person,
        validity,
      },
      // ManagerType.build (mora_data_types.py:630-666).
      {
        user_key: 'H-M-001',
        org_unit: { uuid: subunitUuid },
        manager_type: { uuid: cls('manager_type', 'head_of_office') },
        manager_level: { uuid: cls('manager_level', 'level_3') },
        responsibility: [{ uuid: cls('responsibility', 'personnel') }],
        type: 'manager',
        person,
        validity,
      },
    ];
    const created = (await insertMoraData('details/create', details)) as string[];
    expect(created).toHaveLength(details.length);
    // LeaveType.build (mora_data_types.py:485-499): needs the engagement it pauses.
    await insertMoraData('details/create', [
      {
        leave_type: { uuid: cls('leave_type', 'parental') },
        engagement: { uuid: engagementUuid },
        type: 'leave',
        person,
        validity: { from: '2024-01-01', to: '2024-06-30' },
      },
    ]);
    for (const type of ['engagement', 'address', 'association', 'it', 'role', 'manager', 'leave'])
      expect((await getDetail(personUuid, type)).length, type).toBe(1);
  });

  it('import_employee, EngagementTerminationType (utilities.py:433-440): details/terminate of the engagement', async () => {
    const [engagement] = (await getDetail(personUuid, 'engagement')) as { uuid: string }[];
    expect(
      await insertMoraData('details/terminate', {
        type: 'engagement',
        uuid: engagement!.uuid,
        validity: { to: yesterday() },
      }),
    ).toBe(engagement!.uuid);
    expect((await mo.get(`e/${personUuid}/details/engagement`)).json).toEqual([]);
  });

  it('_terminate_employee (utilities.py:664-684): POST e/{uuid}/terminate with terminate_all and validity.to', async () => {
    expect(
      await insertMoraData(`e/${personUuid}/terminate`, {
        terminate_all: true,
        validity: { to: yesterday() },
      }),
    ).toBe(personUuid);
    for (const type of ['address', 'association', 'it', 'role', 'manager'])
      expect((await mo.get(`e/${personUuid}/details/${type}`)).json, type).toEqual([]);
  });

  it('_terminate_details of a UUID nobody holds: the failure it logs as "Tried to terminate a non-existing uuid"', async () => {
    // utilities.py:697-703 catches the HTTPError insert_mora_data raises for a status it does not accept.
    const response = await mo.post(
      'details/terminate',
      { type: 'address', uuid: '00000000-0000-4000-8000-00000000abcd', validity: { to: yesterday() } },
      { force: 1 },
    );
    expect([200, 201]).not.toContain(response.status);
    expect(response.json).toMatchObject({ error: true, error_key: expect.any(String) });
  });

  it('an importer whose token has no write role is refused, and nothing is written', async () => {
    // The integration client is an admin under RBAC; nora has no role. The gateway judges /service writes as
    // it judges GraphQL's, so the importer's first write is refused before it reaches the backend.
    const unauthorised = serviceSession(stack, bearer(await stack.token('nora')));
    const uuid = '5d1c3b8e-0a7f-4e2d-9c61-2b4f8e7a1d3f';
    const response = await unauthorised.post(
      'ou/create',
      {
        user_key: 'Refused',
        name: 'Refused',
        parent: { uuid: organisationUuid },
        org_unit_type: { uuid: cls('org_unit_type', 'department') },
        uuid,
        validity: { from: '2020-01-01', to: null },
      },
      { force: 1 },
    );
    expect(response.status).toBe(403);
    expect(response.text).not.toContain(stack.legacyUrl);
    expect((await mo.get(`ou/${uuid}/`)).status).toBe(404);
  });
});
