import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closedUnitDates,
  closedUnitUuid,
  classUuid,
  futureUnitFrom,
  futureUnitUuid,
  organisationUuid,
  oscarOwnedUnitUuid,
  referenceUnitUuids,
  unitUuid,
} from '../fixture/organisation.js';
import { readDevUsers } from '../fixture/dev-users.js';
import { openTestLegacy, type TestLegacy } from '../testing.js';

let legacy: TestLegacy;
beforeAll(async () => {
  legacy = await openTestLegacy();
});
afterAll(() => legacy.cleanup());

const json = async (path: string) => {
  const response = await legacy.request(path);
  expect(response.headers.get('content-type')).toMatch(/application\/json/);
  return { status: response.status, body: (await response.json()) as any };
};

describe('organisation reads', () => {
  it('lists the organisation and its counts', async () => {
    const list = await json('/service/o/');
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      { uuid: organisationUuid, name: 'Northbay Municipality', user_key: 'northbay' },
    ]);
    const detail = await json(`/service/o/${organisationUuid}/`);
    expect(detail.body).toMatchObject({ uuid: organisationUuid, child_count: 1, person_count: 500 });
    expect(detail.body.unit_count).toBeGreaterThanOrEqual(95);
  });

  it('pages org units with start, limit and query', async () => {
    const all = await json(`/service/o/${organisationUuid}/ou/`);
    expect(all.body.offset).toBe(0);
    expect(all.body.items).toHaveLength(all.body.total);
    const page = await json(`/service/o/${organisationUuid}/ou/?start=10&limit=5`);
    expect(page.body).toMatchObject({ offset: 10, total: all.body.total });
    expect(page.body.items).toEqual(all.body.items.slice(10, 15));
    const found = await json(`/service/o/${organisationUuid}/ou/?query=children%20and`);
    expect(found.body.total).toBeGreaterThan(0);
    for (const item of found.body.items) expect(item.name.toLowerCase()).toContain('children and');
  });

  it('pages employees and finds the development users', async () => {
    const page = await json(`/service/o/${organisationUuid}/e/?limit=20`);
    expect(page.body.total).toBe(500);
    expect(page.body.items).toHaveLength(20);
    const oscar = readDevUsers()[1]!;
    const search = await json(`/service/o/${organisationUuid}/e/?query=oscar%20olsen`);
    expect(search.body.items.map((item: { uuid: string }) => item.uuid)).toContain(oscar.uuid);
  });

  it('lists IT systems and the classes of a facet by user key', async () => {
    const systems = await json(`/service/o/${organisationUuid}/it/`);
    expect(systems.body.map((s: { name: string }) => s.name)).toContain('Active Directory');
    const facet = await json(`/service/o/${organisationUuid}/f/manager_type/`);
    expect(facet.body.user_key).toBe('manager_type');
    expect(facet.body.data.items.map((c: { user_key: string }) => c.user_key)).toContain('director');
    const cls = await json(`/service/c/${classUuid('manager_type', 'director')}/?facet=1`);
    expect(cls.body).toMatchObject({
      user_key: 'director',
      name: 'Director',
      facet: { user_key: 'manager_type' },
    });
  });
});

describe('org unit reads', () => {
  it('returns a unit with its parent chain, null at the top', async () => {
    const { body } = await json(`/service/ou/${oscarOwnedUnitUuid}/`);
    expect(body.uuid).toBe(oscarOwnedUnitUuid);
    expect(body.parent.uuid).toBe(unitUuid(1));
    expect(body.parent.parent.uuid).toBe(unitUuid(0));
    expect(body.parent.parent.parent).toBeNull();
    expect(body.org_unit_type).toMatchObject({ user_key: 'office' });
    // OS2mo joins the ancestors' names with a backslash.
    expect(body.location).toBe("Northbay Municipality\\Mayor's Office");
  });

  it('lists children and which detail types a unit has', async () => {
    const children = await json(`/service/ou/${unitUuid(0)}/children`);
    expect(children.body.map((c: { uuid: string }) => c.uuid).sort()).toEqual(
      [1, 2, 3, 4, 5, 6].map(unitUuid).sort(),
    );
    const details = await json(`/service/ou/${referenceUnitUuids[0]}/details/`);
    expect(details.body).toMatchObject({ org_unit: true, manager: true, engagement: true });
  });

  it('embeds person, manager type, level, responsibilities and unit in manager details', async () => {
    for (const unit of referenceUnitUuids) {
      const { status, body } = await json(`/service/ou/${unit}/details/manager`);
      expect(status).toBe(200);
      expect(body).toHaveLength(1);
      const [manager] = body;
      expect(manager.person).toMatchObject({ uuid: expect.any(String), name: expect.any(String) });
      // OS2mo's "full" class.
      expect(manager.manager_type).toEqual({
        uuid: expect.any(String),
        user_key: expect.any(String),
        name: expect.any(String),
        example: null,
        scope: null,
        owner: null,
        full_name: manager.manager_type.name,
        facet: { uuid: expect.any(String), user_key: 'manager_type', description: expect.any(String) },
        top_level_facet: {
          uuid: expect.any(String),
          user_key: 'manager_type',
          description: expect.any(String),
        },
      });
      expect(manager.manager_level.user_key).toMatch(/^level_/);
      expect(Array.isArray(manager.responsibility)).toBe(true);
      expect(manager.org_unit).toMatchObject({ uuid: unit });
      expect(manager.validity).toEqual({ from: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), to: null });
    }
  });

  it('shows vacant manager positions with person null', async () => {
    const units = (await json(`/service/o/${organisationUuid}/ou/`)).body.items as { uuid: string }[];
    const managers = await Promise.all(units.map((u) => json(`/service/ou/${u.uuid}/details/manager`)));
    const vacant = managers.flatMap((m) => m.body).filter((m: { person: unknown }) => m.person === null);
    expect(vacant.length).toBeGreaterThan(0);
  });

  it('embeds the job function in engagement details', async () => {
    const manager = (await json(`/service/ou/${referenceUnitUuids[1]}/details/manager`)).body[0];
    const { body } = await json(`/service/e/${manager.person.uuid}/details/engagement`);
    expect(body.length).toBeGreaterThan(0);
    expect(body[0].job_function).toMatchObject({
      uuid: expect.any(String),
      user_key: expect.any(String),
      name: expect.any(String),
    });
    expect(body[0].person.uuid).toBe(manager.person.uuid);
    expect(body[0].org_unit).toMatchObject({ uuid: expect.any(String), name: expect.any(String) });
  });

  it('inherits managers and owners from the nearest ancestor on request', async () => {
    const units = (await json(`/service/o/${organisationUuid}/ou/`)).body.items as { uuid: string }[];
    let vacantFree: string | undefined;
    for (const unit of units) {
      const owners = (await json(`/service/ou/${unit.uuid}/details/owner`)).body;
      const parent = (await json(`/service/ou/${unit.uuid}/`)).body.parent;
      if (owners.length === 0 && parent?.uuid === oscarOwnedUnitUuid) vacantFree = unit.uuid;
    }
    expect(vacantFree).toBeDefined();
    const inherited = await json(`/service/ou/${vacantFree}/details/owner?inherit_owner=1`);
    expect(inherited.body).toHaveLength(1);
    expect(inherited.body[0].owner.uuid).toBe(readDevUsers()[1]!.uuid);
    expect(inherited.body[0].org_unit.uuid).toBe(oscarOwnedUnitUuid);
  });

  it('shows a closed unit only before its end and a future unit only after its start', async () => {
    const closed = closedUnitUuid();
    expect((await json(`/service/ou/${closed}/`)).status).toBe(404);
    expect((await json(`/service/ou/${closed}/?at=${closedUnitDates.to}`)).body.validity).toEqual(
      closedUnitDates,
    );
    const future = futureUnitUuid();
    expect((await json(`/service/ou/${future}/`)).status).toBe(404);
    expect((await json(`/service/ou/${future}/?at=${futureUnitFrom}`)).body.uuid).toBe(future);
    const now = (await json(`/service/o/${organisationUuid}/ou/`)).body.items.map(
      (u: { uuid: string }) => u.uuid,
    );
    expect(now).not.toContain(closed);
    expect(now).not.toContain(future);
  });

  it('filters detail records by validity=past|present|future', async () => {
    const closed = closedUnitUuid();
    expect((await json(`/service/ou/${closed}/details/manager`)).body).toEqual([]);
    const past = (await json(`/service/ou/${closed}/details/manager?validity=past`)).body;
    expect(past).toHaveLength(1);
    expect(past[0].validity.to).toBe(closedUnitDates.to);
    const future = (await json(`/service/ou/${futureUnitUuid()}/details/manager?validity=future`)).body;
    expect(future).toHaveLength(1);
    expect(future[0].validity.from).toBe(futureUnitFrom);
  });
});

describe('OS2mo behaviours', () => {
  it('answers 200 [] for the details of an unknown person or unit', async () => {
    for (const path of [
      `/service/e/${organisationUuid}/details/engagement`,
      `/service/ou/${organisationUuid}/details/manager`,
    ]) {
      const { status, body } = await json(path);
      expect(status).toBe(200);
      expect(body).toEqual([]);
    }
  });
});

describe('read errors', () => {
  it.each([
    // OS2mo's request validation answers a malformed path UUID with E_INVALID_INPUT.
    ['/service/ou/not-a-uuid/', 400, 'E_INVALID_INPUT'],
    [`/service/ou/${organisationUuid}/`, 404, 'E_ORG_UNIT_NOT_FOUND'],
    [`/service/ou/${unitUuid(1)}/details/manager?at=2020-13-01`, 400, 'E_INVALID_INPUT'],
    [`/service/ou/${unitUuid(1)}/details/manager?validity=someday`, 400, 'V_INVALID_VALIDITY'],
    [`/service/ou/${unitUuid(1)}/details/salary`, 400, 'E_UNKNOWN_ROLE_TYPE'],
    [`/service/o/${organisationUuid}/f/no_such_facet/`, 404, 'E_NOT_FOUND'],
    [`/service/o/${organisationUuid}/ou/?limit=-1`, 400, 'E_INVALID_INPUT'],
    ['/service/nowhere', 404, 'E_NO_SUCH_ENDPOINT'],
    ['/elsewhere', 404, 'E_NO_SUCH_ENDPOINT'],
  ])('GET %s → %i %s', async (path, status, key) => {
    const { status: actual, body } = await json(path);
    expect(actual).toBe(status);
    expect(body).toMatchObject({ error: true, status, error_key: key, description: expect.any(String) });
  });
});
