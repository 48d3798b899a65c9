import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLegacyApp } from '../app.js';
import { readLegacyConfig } from '../config.js';
import { readDevUsers } from '../fixture/dev-users.js';
import { buildOrganisation, classUuid, organisationUuid, unitUuid } from '../fixture/organisation.js';
import { orgDataIndexes } from '../org-data.js';
import { openStore, type Store } from '../store/index.js';
import { testToday } from '../testing.js';

/**
 * The `/service` routes OS2mo 2.4.0 serves its own frontend and operators (configuration, nav links, exports,
 * class writes, integration data, refresh, validation, the keycloak settings), as 2.4.0's tests and source
 * state them. Each case names the test or line it ports.
 */

const [, oscar] = readDevUsers().map((user) => user.uuid) as [string, string];
const os2moTests = 'OS2mo 2.4.0 backend/tests';

let dir: string;
let exportDir: string;
let store: Store;
let app: ReturnType<typeof createLegacyApp>;
const open = (options: Partial<Parameters<typeof createLegacyApp>[0]> = {}) => {
  app = createLegacyApp({ store, clock: () => testToday, exportDir, ...options });
};
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'legacy-frontend-'));
  exportDir = join(dir, 'exports');
  await mkdir(exportDir);
  store = await openStore({
    dir: join(dir, 'data'),
    fsync: false,
    indexes: orgDataIndexes,
    seed: () => buildOrganisation({ units: 20, employees: 40, seed: 7 }),
  });
  open();
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const get = async (path: string) => {
  const response = await app.request(path);
  return { status: response.status, body: (await response.json()) as any };
};
const post = async (path: string, body: unknown) => {
  const response = await app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
};

describe('configuration and nav links (2.4.0 service/configuration.py)', () => {
  it(`reads the global settings with their defaults (${os2moTests}/test_integration_configuration_settings.py::Tests::test_global_user_settings_read)`, async () => {
    const { status, body } = await get('/service/configuration');
    expect(status).toBe(200);
    expect(body).toMatchObject({ show_location: true, show_user_key: true, show_roles: true });
    // config.py:110-137 with the prefix stripped, and the one key get_global_configuration adds in full.
    expect(body).toMatchObject({
      show_kle: false,
      inherit_manager: true,
      substitute_roles: '',
      autocomplete_attrs_employee: null,
      confdb_autocomplete_use_new_api: false,
    });
    expect(Object.keys(body)).toHaveLength(22);
  });

  it(`refuses a settings write with 410 and keeps the setting (…::test_global_user_settings_write)`, async () => {
    expect(await post('/service/configuration', { org_units: { show_roles: 'False' } })).toEqual({
      status: 410,
      body: false,
    });
    expect((await get('/service/configuration')).body.show_roles).toBe(true);
    expect((await post('/service/configuration', [])).status).toBe(400);
  });

  it(`reads a unit's settings, which any unit UUID has (…::test_ou_user_settings)`, async () => {
    const unit = 'b688513d-11f7-4efc-b679-ab082a2055d0';
    expect(
      (await post(`/service/ou/${unit}/configuration`, { org_units: { show_user_key: 'True' } })).status,
    ).toBe(410);
    const { status, body } = await get(`/service/ou/${unit}/configuration`);
    expect(status).toBe(200);
    expect(body).toHaveProperty('show_kle', false);
    expect(body).not.toHaveProperty('confdb_autocomplete_use_new_api');
    expect((await get('/service/ou/not-a-uuid/configuration')).body.error_key).toBe('E_INVALID_INPUT');
  });

  it(`shows a unit's settings in the unit, the writes notwithstanding (…::LoRaTest::test_ou_service_response)`, async () => {
    const unit = unitUuid(1);
    await post(`/service/ou/${unit}/configuration`, { org_units: { show_user_key: 'True' } });
    await post(`/service/ou/${unit}/configuration`, { org_units: { show_location: 'False' } });
    const { body } = await get(`/service/ou/${unit}/`);
    expect(body.user_settings.orgunit).toMatchObject({ show_user_key: true, show_location: true });
    expect(body.user_settings.orgunit).toEqual((await get(`/service/ou/${unit}/configuration`)).body);
  });

  it(`answers [{}] without nav links (…::TestNavLink::test_empty_list)`, async () => {
    expect(await get('/service/navlinks')).toEqual({ status: 200, body: [{}] });
  });

  it(`answers the configured nav links (…::TestNavLink::test_populated_list)`, async () => {
    open({ navlinks: [{ href: 'http://google.com', text: 'Google' }] });
    expect((await get('/service/navlinks')).body).toEqual([{ href: 'http://google.com', text: 'Google' }]);
  });
});

describe('exports (2.4.0 service/exports.py)', () => {
  it(`answers 500 E_DIR_NOT_FOUND without the folder (${os2moTests}/test_service_exports.py::test_list_export_files_raises_on_invalid_dir, test_get_export_file_raises_on_invalid_dir)`, async () => {
    open({ exportDir: join(dir, 'nowhere') });
    const missing = {
      status: 500,
      body: {
        description: 'Directory does not exist.',
        error: true,
        error_key: 'E_DIR_NOT_FOUND',
        status: 500,
      },
    };
    expect(await get('/service/exports/')).toEqual(missing);
    expect(await get('/service/exports/whatever')).toEqual(missing);
  });

  it('lists only the files of the folder (…::test_list_export_files_returns_filenames)', async () => {
    await writeFile(join(exportDir, 'file2'), 'b');
    await writeFile(join(exportDir, 'file1'), 'a');
    await mkdir(join(exportDir, 'dir'));
    expect(await get('/service/exports/')).toEqual({ status: 200, body: ['file1', 'file2'] });
  });

  it('answers 404 E_NOT_FOUND with the filename for a missing file (…::test_get_export_file_raises_on_file_not_found)', async () => {
    expect(await get('/service/exports/whatever')).toEqual({
      status: 404,
      body: {
        description: 'Not found.',
        error: true,
        error_key: 'E_NOT_FOUND',
        filename: 'whatever',
        status: 404,
      },
    });
    // A name that would leave the folder names no file in it.
    await writeFile(join(dir, 'secret.csv'), 'x');
    expect((await get('/service/exports/..%2Fsecret.csv')).status).toBe(404);
    expect((await get('/service/exports/..')).status).toBe(404);
  });

  it('sends the file (…::test_get_export_file_returns_file)', async () => {
    await writeFile(join(exportDir, 'units.csv'), 'uuid;name\n');
    const response = await app.request('/service/exports/units.csv');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await response.text()).toBe('uuid;name\n');
  });
});

describe('class create and update through POST /service/f/{facet}/ (2.4.0 service/facet.py:800)', () => {
  it(`creates a class and writes it anew by its UUID (${os2moTests}/test_integration_service.py::Tests::test_facet_create_and_update)`, async () => {
    const uuid = '18638313-d9e6-4e1d-aea6-67f5fce7a6b0';
    const payload = { uuid, user_key: 'BVN', name: 'Jurist', scope: 'TEXT', org_uuid: organisationUuid };
    expect(await post('/service/f/engagement_job_function/', payload)).toEqual({ status: 200, body: uuid });
    const listed = async () =>
      ((await get('/service/f/engagement_job_function/')).body.data.items as any[]).find(
        (item) => item.uuid === uuid,
      );
    expect(await listed()).toEqual({
      example: null,
      name: 'Jurist',
      owner: null,
      scope: 'TEXT',
      user_key: 'BVN',
      uuid,
    });
    expect(await post('/service/f/engagement_job_function/', { ...payload, name: 'Ergoterapeut' })).toEqual({
      status: 200,
      body: uuid,
    });
    expect((await listed()).name).toBe('Ergoterapeut');
  });

  it('makes a UUID when none is given, and refuses an unknown facet or a body without the model', async () => {
    const made = await post('/service/f/org_unit_type/', {
      user_key: 'X',
      name: 'X',
      org_uuid: organisationUuid,
    });
    expect(made.status).toBe(200);
    expect((await get(`/service/c/${made.body}/`)).body).toMatchObject({
      name: 'X',
      user_key: 'X',
      scope: null,
    });
    expect(
      (await post('/service/f/no_such_facet/', { user_key: 'X', name: 'X', org_uuid: organisationUuid }))
        .body,
    ).toMatchObject({ status: 404, error_key: 'E_NOT_FOUND' });
    expect((await post('/service/f/org_unit_type/', { name: 'X' })).body).toMatchObject({
      status: 400,
      error_key: 'E_INVALID_INPUT',
    });
  });
});

describe('integration data and refresh (2.4.0 service/integration_data.py, service/orgunit.py:1043)', () => {
  it('answers a unit and a person in their minimal form with empty integration data', async () => {
    const unit = await get(`/service/ou/${unitUuid(1)}/integration-data`);
    expect(unit.status).toBe(200);
    expect(Object.keys(unit.body).sort()).toEqual([
      'integration_data',
      'name',
      'user_key',
      'uuid',
      'validity',
    ]);
    expect(unit.body.integration_data).toEqual({});
    const person = await get(`/service/e/${oscar}/integration-data`);
    expect(person.status).toBe(200);
    expect(person.body).toMatchObject({ uuid: oscar, integration_data: {} });
    expect(Object.keys(person.body)).toContain('nickname');
    expect((await get(`/service/ou/${organisationUuid}/integration-data`)).body.error_key).toBe(
      'E_ORG_UNIT_NOT_FOUND',
    );
    expect((await get(`/service/e/${organisationUuid}/integration-data`)).body.error_key).toBe(
      'E_USER_NOT_FOUND',
    );
  });

  it('refreshes a unit with the messages of no triggers, and refuses an unknown one', async () => {
    expect(await get(`/service/ou/${unitUuid(1)}/refresh`)).toEqual({ status: 200, body: { message: '' } });
    expect((await get(`/service/ou/${organisationUuid}/refresh`)).body.error_key).toBe(
      'E_ORG_UNIT_NOT_FOUND',
    );
  });
});

describe('validation (2.4.0 service/validation/validate.py)', () => {
  const success = { status: 200, body: { success: true } };
  const emailType = { uuid: classUuid('org_unit_address_type', 'unit_email') };

  it('checks dates against a unit and a person (validate.py:18, :62)', async () => {
    expect(
      await post('/service/validate/org-unit/', {
        org_unit: { uuid: unitUuid(1) },
        validity: { from: '2020-01-01', to: null },
      }),
    ).toEqual(success);
    const before = await post('/service/validate/org-unit/', {
      org_unit: { uuid: unitUuid(1) },
      validity: { from: '1900-01-01', to: null },
    });
    expect(before.body.error_key).toBe('V_DATE_OUTSIDE_ORG_UNIT_RANGE');
    // validator.py:15-30, `forceable`: ?force=1 skips the check.
    expect(
      (
        await post('/service/validate/org-unit/?force=1', {
          org_unit: { uuid: unitUuid(1) },
          validity: { from: '1900-01-01', to: null },
        })
      ).status,
    ).toBe(200);
    expect(
      (await post('/service/validate/org-unit/', { validity: { from: '2020-01-01' } })).body.error_key,
    ).toBe('V_MISSING_REQUIRED_VALUE');
    const person = await post('/service/validate/employee/', {
      person: { uuid: oscar },
      validity: { from: '1800-01-01' },
    });
    expect(person.body.error_key).toBe('V_DATE_OUTSIDE_EMPL_RANGE');
  });

  it('checks a CPR number is free (validate.py:100)', async () => {
    const taken = (await get(`/service/e/${oscar}/`)).body.cpr_no as string;
    expect(
      (await post('/service/validate/cpr/', { cpr_no: taken, org: { uuid: organisationUuid } })).body,
    ).toMatchObject({ status: 409, error_key: 'V_EXISTING_CPR' });
    expect(
      await post('/service/validate/cpr/', { cpr_no: '0101011234', org: { uuid: organisationUuid } }),
    ).toEqual(success);
  });

  it('checks engagements and associations (validate.py:136, :175)', async () => {
    expect(
      await post('/service/validate/active-engagements/', {
        person: { uuid: oscar },
        validity: { from: '2024-01-01' },
      }),
    ).toEqual(success);
    expect(
      (
        await post('/service/validate/active-engagements/', {
          person: { uuid: oscar },
          validity: { from: '1900-01-01' },
        })
      ).body.error_key,
    ).toBe('V_NO_ACTIVE_ENGAGEMENT');
    expect(
      await post('/service/validate/existing-associations/', {
        person: { uuid: oscar },
        org_unit: { uuid: unitUuid(1) },
        validity: { from: '2024-01-01' },
      }),
    ).toEqual(success);
  });

  it('checks a move: not the top unit, not below itself, not to the top (validate.py:224, :233)', async () => {
    expect(
      (await post('/service/validate/movable-org-unit/', { org_unit: { uuid: unitUuid(0) } })).body.error_key,
    ).toBe('V_CANNOT_MOVE_ROOT_ORG_UNIT');
    expect(await post('/service/validate/movable-org-unit/', { org_unit: { uuid: unitUuid(1) } })).toEqual(
      success,
    );
    const move = (unit: string, parent: string) =>
      post('/service/validate/candidate-parent-org-unit/', {
        org_unit: { uuid: unit },
        parent: { uuid: parent },
        validity: { from: '2024-01-01' },
      });
    expect((await move(unitUuid(0), unitUuid(1))).body.error_key).toBe('V_ORG_UNIT_MOVE_TO_CHILD');
    expect((await move(unitUuid(1), organisationUuid)).body.error_key).toBe(
      'V_CANNOT_MOVE_UNIT_TO_ROOT_LEVEL',
    );
    expect(await move(unitUuid(2), unitUuid(1))).toEqual(success);
  });

  it('checks an address value against its type (validate.py:281)', async () => {
    expect(
      await post('/service/validate/address/', { value: 'someone@example.org', address_type: emailType }),
    ).toEqual(success);
    expect(
      (await post('/service/validate/address/', { value: 'nobody', address_type: emailType })).body.error_key,
    ).toBe('V_INVALID_ADDRESS_EMAIL');
  });
});

describe('the settings of these routes (LEGACY_NAVLINKS, LEGACY_EXPORT_DIR)', () => {
  it('reads the nav links as OS2mo reads NAVLINKS, and refuses a list it cannot use', () => {
    const env = { LEGACY_AUTH: 'off' };
    expect(readLegacyConfig(env)).toMatchObject({ navlinks: [] });
    expect(readLegacyConfig(env).exportDir).toBeUndefined();
    expect(
      readLegacyConfig({
        ...env,
        LEGACY_NAVLINKS: '[{"href": "https://intra.example.org/", "text": "Intranet"}]',
        LEGACY_EXPORT_DIR: '/srv/exports',
      }),
    ).toMatchObject({
      navlinks: [{ href: 'https://intra.example.org/', text: 'Intranet' }],
      exportDir: '/srv/exports',
    });
    expect(() => readLegacyConfig({ ...env, LEGACY_NAVLINKS: '{"href": 1}' })).toThrow(
      /LEGACY_NAVLINKS must be/,
    );
    expect(() => readLegacyConfig({ ...env, LEGACY_NAVLINKS: '[{"href": "ftp://x", "text": "x"}]' })).toThrow(
      /item 0/,
    );
  });
});
