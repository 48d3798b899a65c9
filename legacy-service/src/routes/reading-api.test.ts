import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDevUsers } from '../fixture/dev-users.js';
import { unitUuid } from '../fixture/organisation.js';
import { detailTypes } from '../model.js';
import { openTestLegacy, type TestLegacy } from '../testing.js';
import { readChangedSince } from './reading-api.js';

/** OS2mo 2.4.0's reading API (`backend/mora/api/v1/reading_endpoints.py`), its tests in `backend/tests/api/v1/`. */

let legacy: TestLegacy;
beforeAll(async () => {
  legacy = await openTestLegacy();
});
afterAll(() => legacy.cleanup());

const get = async (path: string) => {
  const response = await legacy.request(path);
  return { status: response.status, body: (await response.json()) as any };
};

const [alice] = readDevUsers();
const readTypes = [...detailTypes, 'employee', 'org_unit'];

describe('changed_since (2.4.0 tests/api/v1/test_changed_since.py)', () => {
  // `ChangedSinceBasic.test_changed_since`: every type, nothing changed after 9999, everything after 1930.
  it.each(readTypes)(
    '/api/v1/%s lists nothing changed since 9999-01-01 and something since 1930',
    async (type) => {
      const future = await get(`/api/v1/${type}?changed_since=${encodeURIComponent('9999-01-01 00:00:00')}`);
      expect(future).toEqual({ status: 200, body: [] });
      const past = await get(`/api/v1/${type}?changed_since=${encodeURIComponent('1930-01-01 00:00:00')}`);
      expect(past.status).toBe(200);
      expect(past.body.length).toBeGreaterThan(0);
    },
  );

  // `ChangedSinceEmployee.test_changed_since_with_edit`: an edit makes the person show up.
  it('lists a person after an edit made after changed_since, and nobody before it', async () => {
    const since = new Date().toISOString();
    const before = await get(`/api/v1/employee?changed_since=${encodeURIComponent(since)}`);
    expect(before).toEqual({ status: 200, body: [] });
    const edit = await legacy.post('/service/details/edit', [
      {
        type: 'employee',
        uuid: alice!.uuid,
        data: { validity: { from: '2026-02-02' }, nickname_givenname: 'John' },
      },
    ]);
    expect(edit.status).toBe(200);
    const after = await get(`/api/v1/employee?changed_since=${encodeURIComponent(since)}`);
    expect(after.status).toBe(200);
    expect([...new Set(after.body.map((person: { uuid: string }) => person.uuid))]).toEqual([alice!.uuid]);
    // The other people were not written: the unit listing still has none either.
    expect((await get(`/api/v1/org_unit?changed_since=${encodeURIComponent(since)}`)).body).toEqual([]);
  });

  it('reads a date as its midnight and a time without an offset in Copenhagen time, as 2.4.0 does', () => {
    expect(readChangedSince('2017-01-01')?.toISOString()).toBe('2016-12-31T23:00:00.000Z');
    expect(readChangedSince('2017-07-01T12:00:00')?.toISOString()).toBe('2017-07-01T10:00:00.000Z');
    expect(readChangedSince('2017-07-01T12:00:00Z')?.toISOString()).toBe('2017-07-01T12:00:00.000Z');
    expect(readChangedSince('2017-07-01 12:00:00.5-03:00')?.toISOString()).toBe('2017-07-01T15:00:00.500Z');
  });

  it('refuses a changed_since that is no date with E_INVALID_INPUT', async () => {
    const { status, body } = await get('/api/v1/engagement?changed_since=yesterday');
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: true, status: 400, error_key: 'E_INVALID_INPUT' });
  });
});

/** Two records of a type, each read by its owner's details read (so by_uuid is compared with `/service`). */
async function recordsOf(type: string) {
  const listed = (await get(`/api/v1/${type}`)).body as { uuid: string; org_unit?: any; person?: any }[];
  const uuids = [...new Set(listed.map((record) => record.uuid))].slice(0, 2);
  expect(uuids).toHaveLength(2);
  return Promise.all(
    uuids.map(async (uuid) => {
      const record = listed.find((item) => item.uuid === uuid)!;
      const owner = record.person ? `e/${record.person.uuid}` : `ou/${[record.org_unit].flat()[0].uuid}`;
      const { body } = await get(`/service/${owner}/details/${type}`);
      return (body as { uuid: string }[]).find((item) => item.uuid === uuid)!;
    }),
  );
}

describe('by_uuid (2.4.0 tests/api/v1/test_orgfunk.py, test_reading.py)', () => {
  // `api_exposing_org_funk_uuid_endpoint_helper`: two `uuid`s with `validity` and `at`.
  it.each(['engagement', 'address', 'manager', 'kle', 'it'])(
    '/api/v1/%s/by_uuid answers the records of exactly the UUIDs asked for, as the details read shows them',
    async (type) => {
      const records = await recordsOf(type);
      const [first, second] = [records[0]!, records[1]!];
      const { status, body } = await get(
        `/api/v1/${type}/by_uuid?validity=present&at=2026-06-01&uuid=${first.uuid}&uuid=${second.uuid.toUpperCase()}`,
      );
      expect(status).toBe(200);
      const byUuid = new Map(body.map((record: { uuid: string }) => [record.uuid, record]));
      expect([...byUuid.keys()].sort()).toEqual([first.uuid, second.uuid].sort());
      expect(byUuid.get(first.uuid)).toEqual(first);
    },
  );

  it('answers only the UUIDs of its own type: a unit UUID asked of engagements finds none', async () => {
    const { body } = await get(`/api/v1/engagement/by_uuid?uuid=${unitUuid(0)}`);
    expect(body).toEqual([]);
  });

  it('org_unit and employee by UUID are the details reads of the unit and the person', async () => {
    const unit = await get(`/api/v1/org_unit/by_uuid?uuid=${unitUuid(1)}`);
    expect(unit.body).toEqual((await get(`/service/ou/${unitUuid(1)}/details/org_unit`)).body);
    const person = await get(`/api/v1/employee/by_uuid?uuid=${alice!.uuid}&validity=past`);
    expect(person.body).toEqual((await get(`/service/e/${alice!.uuid}/details/employee?validity=past`)).body);
  });

  it('with only_primary_uuid embeds references as {uuid}', async () => {
    const [first] = await recordsOf('engagement');
    const { body } = await get(`/api/v1/engagement/by_uuid?uuid=${first!.uuid}&only_primary_uuid=1`);
    expect(body[0].org_unit).toEqual({ uuid: expect.any(String) });
    expect(body[0].job_function).toEqual({ uuid: expect.any(String) });
  });

  it('refuses a missing or malformed uuid with E_INVALID_INPUT (2.4.0 `uuid: List[UUID] = Query(...)`)', async () => {
    for (const query of ['', '?uuid=nope']) {
      const { status, body } = await get(`/api/v1/address/by_uuid${query}`);
      expect(status).toBe(400);
      expect(body.error_key).toBe('E_INVALID_INPUT');
    }
  });
});

describe('at and validity (2.4.0 tests/api/v1/test_reading_with_at.py, test_reading_with_validity.py)', () => {
  it('takes at as a date-time with an offset, and validity as past, future or an interval', async () => {
    expect((await get('/api/v1/org_unit?at=2012-03-04T09:41:20-03:00')).status).toBe(200);
    expect((await get('/api/v1/related_unit?at=2012-03-04T12:37:46')).status).toBe(200);
    const future = await get('/api/v1/engagement?validity=future');
    expect(future.status).toBe(200);
    // The fixture has engagements that start in 2030.
    expect(future.body.every((record: any) => record.validity.from > '2026-06-01')).toBe(true);
    expect(future.body.length).toBeGreaterThan(0);
    const interval = await get('/api/v1/employee?validity=-infinity/2056-07-08');
    expect(interval.status).toBe(200);
    expect(interval.body.length).toBeGreaterThan(0);
  });

  it('the address listing filters by engagement, engagement associations by unit', async () => {
    const associations = await get('/api/v1/engagement_association');
    const unit = associations.body[0].org_unit.uuid as string;
    const ofUnit = await get(`/api/v1/engagement_association?org_unit=${unit}`);
    expect(ofUnit.body.length).toBeGreaterThan(0);
    expect(ofUnit.body.every((record: any) => record.org_unit.uuid === unit)).toBe(true);
    const none = await get(`/api/v1/address?engagement=${unitUuid(0)}`);
    expect(none.body).toEqual([]);
  });
});
