import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { darAddressOf } from '../fixture/os2mo-records.js';
import { organisationUuid } from '../fixture/organisation.js';
import { collections, type DarAddress } from '../model.js';
import { openTestLegacy, type TestLegacy } from '../testing.js';
import { darAddressText } from '../views.js';

/**
 * `GET /service/o/{orgid}/address_autocomplete/`, OS2mo 2.4.0's DAWA lookup (`backend/mora/service/address.py:54-161`)
 * answered from the stand-in's address register. Cases port 2.4.0's `backend/tests/test_service_address.py`
 * (`TestAddressLookup`), with its Strandlodsvej addresses (`tests/mocking/dawa-autocomplete.json`: in
 * Copenhagen, municipality 101) put in the register beside the seed's own.
 */

const os2moTest = 'OS2mo 2.4.0 backend/tests/test_service_address.py::TestAddressLookup';
const strandlodsvej = (uuid: string, etage: string | null, dør: string | null): DarAddress => ({
  uuid,
  vejnavn: 'Strandlodsvej',
  husnr: '25M',
  etage,
  dør,
  supplerendebynavn: null,
  postnr: '2300',
  postnrnavn: 'København S',
  kommunekode: 101,
  x: 12.6,
  y: 55.66,
});
// The access address and four of the addresses 2.4.0's test finds.
const copenhagen = [
  strandlodsvej('18fbd56e-c6b2-4d0f-bb08-80133edb896e', null, null),
  strandlodsvej('b18f681b-dcce-4a1f-9231-08182653dbd9', '1', 'th'),
  strandlodsvej('21483493-bf6d-4cdd-badd-74bc5109c7b1', '1', 'tv'),
  strandlodsvej('22bf4e3e-14f3-4096-b479-2e8d4ac090fb', '2', 'th'),
  strandlodsvej('d4764afd-f5f1-4038-9298-9148bcb56421', '2', 'tv'),
];

let legacy: TestLegacy;
beforeEach(async () => {
  legacy = await openTestLegacy();
  await legacy.store.transaction(() => ({
    mutations: copenhagen.map((address) => ({
      collection: collections.darAddress,
      uuid: address.uuid,
      value: { ...address },
    })),
    result: undefined,
  }));
});
afterEach(() => legacy.cleanup());

const autocomplete = async (query: string, orgid = organisationUuid) => {
  const response = await legacy.request(`/service/o/${orgid}/address_autocomplete/?${query}`);
  return { status: response.status, body: (await response.json()) as any };
};

describe('address_autocomplete (2.4.0 service/address.py)', () => {
  it(`finds an address anywhere with global=1 or global=true, the access address first (${os2moTest}::test_autocomplete)`, async () => {
    const found = [
      {
        location: {
          name: 'Strandlodsvej 25M, 2300 København S',
          uuid: '18fbd56e-c6b2-4d0f-bb08-80133edb896e',
        },
      },
      {
        location: {
          name: 'Strandlodsvej 25M, 1. th, 2300 København S',
          uuid: 'b18f681b-dcce-4a1f-9231-08182653dbd9',
        },
      },
      {
        location: {
          name: 'Strandlodsvej 25M, 1. tv, 2300 København S',
          uuid: '21483493-bf6d-4cdd-badd-74bc5109c7b1',
        },
      },
      {
        location: {
          name: 'Strandlodsvej 25M, 2. th, 2300 København S',
          uuid: '22bf4e3e-14f3-4096-b479-2e8d4ac090fb',
        },
      },
      {
        location: {
          name: 'Strandlodsvej 25M, 2. tv, 2300 København S',
          uuid: 'd4764afd-f5f1-4038-9298-9148bcb56421',
        },
      },
    ];
    expect(await autocomplete('q=Strandlodsvej+25M&global=1')).toEqual({ status: 200, body: found });
    expect(await autocomplete('q=Strandlodsvej+25M&global=true')).toEqual({ status: 200, body: found });
  });

  it(`finds nothing outside the organisation's municipality without global (${os2moTest}::test_autocomplete)`, async () => {
    expect(await autocomplete('q=Strandlodsvej+25M')).toEqual({ status: 200, body: [] });
    // OS2mo's frontend sends global=0 for a local search (frontend/src/api/Search.js:71-72 at 2.4.0).
    expect(await autocomplete('q=Strandlodsvej+25M&global=0')).toEqual({ status: 200, body: [] });
  });

  it("finds the municipality's own addresses without global, as their rendered text and DAR UUID", async () => {
    // Number 18 of the square: no other number, floor or postcode there begins with 18.
    const own = darAddressOf(17);
    const { status, body } = await autocomplete(`q=${encodeURIComponent(`Town Hall Square ${own.husnr}`)}`);
    expect(status).toBe(200);
    expect(body).toContainEqual({ location: { name: darAddressText(own), uuid: own.uuid } });
    for (const hit of body) expect(hit.location.name).toMatch(/^Town Hall Square 18,/);
  });

  it('answers at most five access addresses and ten addresses, each text once', async () => {
    const { body } = await autocomplete('q=Town+Hall+Square');
    const names = body.map((hit: { location: { name: string } }) => hit.location.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeLessThanOrEqual(15);
    expect(names.length).toBeGreaterThan(5);
  });

  it(`answers 400 E_NO_LOCAL_MUNICIPALITY for an organisation without a municipality (${os2moTest}::test_autocomplete_no_municipality)`, async () => {
    const [organisation] = [...legacy.store.all(collections.organisation)];
    const { municipality_code: _code, ...withoutCode } = organisation as Record<string, unknown>;
    await legacy.store.transaction(() => ({
      mutations: [
        { collection: collections.organisation, uuid: organisationUuid, value: withoutCode as never },
      ],
      result: undefined,
    }));
    expect(await autocomplete('q=42')).toEqual({
      status: 400,
      body: {
        error: true,
        error_key: 'E_NO_LOCAL_MUNICIPALITY',
        description: 'No local municipality found.',
        status: 400,
      },
    });
    // A global lookup needs no municipality.
    expect((await autocomplete('q=Strandlodsvej&global=1')).body).toHaveLength(copenhagen.length);
  });

  it(`answers 400 E_NO_LOCAL_MUNICIPALITY for an organisation it does not hold (${os2moTest}::test_autocomplete_missing_org)`, async () => {
    expect(await autocomplete('q=42', '00000000-0000-0000-0000-000000000000')).toEqual({
      status: 400,
      body: {
        error: true,
        error_key: 'E_NO_LOCAL_MUNICIPALITY',
        description: 'No local municipality found.',
        status: 400,
      },
    });
  });

  it('refuses a missing q and a malformed organisation UUID with E_INVALID_INPUT (FastAPI request validation)', async () => {
    expect((await autocomplete('global=1')).body).toMatchObject({
      status: 400,
      error_key: 'E_INVALID_INPUT',
    });
    expect((await autocomplete('q=Vej', 'not-a-uuid')).body).toMatchObject({
      status: 400,
      error_key: 'E_INVALID_INPUT',
    });
  });
});
