import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startTestStack, type GraphQLSession, type TestStack } from './stack.js';

/**
 * OS2mo's reads that come from the Service API's flags and side routes, through the whole stack over the
 * seeded stand-in: `version` (`GET /version/`), and `managers(inherit:)` (`inherit_manager=1`) with the
 * manager filter's class and `exclude` members. Expectations are worked out from other reads of the same
 * data (the units' parents, every unit's own managers), so they hold for any seed.
 */
let stack: TestStack;
let alice: GraphQLSession;
beforeAll(async () => {
  stack = await startTestStack();
  alice = await signIn(stack, 'alice');
});
afterAll(() => stack.close());

describe('version', () => {
  it.each(['v30', 'v22'])('%s answers the Service API release; 2.x has no commit hash', async (version) => {
    const body = await alice.ask(version, '{ version { mo_version mo_hash lora_version } }');
    expect(body.errors).toBeUndefined();
    expect(body.data!.version).toEqual({ mo_version: '2.4.0', mo_hash: null, lora_version: null });
  });
});

interface Unit {
  uuid: string;
  parent_uuid: string | null;
}
interface Manager {
  uuid: string;
  org_unit_uuid: string;
  employee_uuid: string | null;
  manager_type_uuid: string | null;
  responsibility_uuids: string[] | null;
}
const managerFields = 'uuid org_unit_uuid employee_uuid manager_type_uuid responsibility_uuids';

async function managersBy(filter: Record<string, unknown>, inherit = false): Promise<Manager[]> {
  const body = await alice.ask(
    'v30',
    `query M($filter: ManagerFilter!, $inherit: Boolean!) {
      managers(filter: $filter, inherit: $inherit) { objects { current { ${managerFields} } } }
    }`,
    { filter, inherit },
  );
  expect(body.errors).toBeUndefined();
  return body.data!.managers.objects.map((response: { current: Manager }) => response.current);
}

const uuidsOf = (list: { uuid: string }[]) => list.map((item) => item.uuid).sort();

// Cases after OS2mo's tests/graphapi/test_managers.py at HEAD (`test_inherit_*`, `test_exclude`,
// `test_manager_filters`).
describe('managers', () => {
  let units: Unit[];
  let managers: Manager[];
  beforeAll(async () => {
    // A unit without managers of its own below a managed one, written through OS2mo's own mutation.
    const [managed] = await managersBy({});
    const typed = await alice.ask(
      'v30',
      `{ org_units(filter: { uuids: ["${managed!.org_unit_uuid}"] }) { objects { current { unit_type_uuid } } } }`,
    );
    const created = await alice.ask(
      'v30',
      'mutation C($input: OrganisationUnitCreateInput!) { org_unit_create(input: $input) { uuid } }',
      {
        input: {
          name: 'Unmanaged corner',
          parent: managed!.org_unit_uuid,
          org_unit_type: typed.data!.org_units.objects[0].current.unit_type_uuid,
          validity: { from: '2020-01-01' },
        },
      },
    );
    expect(created.errors).toBeUndefined();
    const body = await alice.ask('v30', '{ org_units { objects { current { uuid parent_uuid } } } }');
    units = body.data!.org_units.objects.map((response: { current: Unit }) => response.current);
    managers = await managersBy({});
  });
  const ownManagers = (unit: string) => managers.filter((manager) => manager.org_unit_uuid === unit);
  const parentOf = (unit: string) => units.find((candidate) => candidate.uuid === unit)?.parent_uuid ?? null;
  function nearestManaged(unit: string): string | null {
    for (let at: string | null = unit; at !== null; at = parentOf(at))
      if (ownManagers(at).length > 0) return at;
    return null;
  }

  it("with `inherit`, a unit without managers gets its nearest managed ancestor's; one with managers its own", async () => {
    const bare = units.find(
      (unit) => ownManagers(unit.uuid).length === 0 && nearestManaged(unit.uuid) !== null,
    );
    const managed = units.find((unit) => ownManagers(unit.uuid).length > 0)!;
    expect(bare).toBeDefined();
    const inherited = await managersBy({ org_unit: { uuids: [bare!.uuid] } }, true);
    expect(uuidsOf(inherited)).toEqual(uuidsOf(ownManagers(nearestManaged(bare!.uuid)!)));
    expect(uuidsOf(await managersBy({ org_units: [managed.uuid] }, true))).toEqual(
      uuidsOf(ownManagers(managed.uuid)),
    );
    // Several starting units: the union of each one's (test_inherit_multi_equals_union_of_singles).
    const both = await managersBy({ org_unit: { uuids: [bare!.uuid, managed.uuid] } }, true);
    expect(uuidsOf(both)).toEqual(
      [...new Set([...uuidsOf(inherited), ...uuidsOf(ownManagers(managed.uuid))])].sort(),
    );
    // Without inherit the bare unit has none.
    expect(await managersBy({ org_unit: { uuids: [bare!.uuid] } })).toEqual([]);
  });

  it('with `inherit`, an unknown unit has no managers, and no unit filter is refused', async () => {
    expect(await managersBy({ org_unit: { uuids: ['3b8c9f2e-0000-4000-8000-000000000000'] } }, true)).toEqual(
      [],
    );
    const body = await alice.ask('v30', '{ managers(inherit: true) { objects { uuid } } }');
    expect(body.errors?.[0]?.message).toMatch(/inherit.*unit/);
  });

  it('with `inherit`, the walk passes units whose managers do not match the rest of the filter', async () => {
    const holdersOf = (unit: string) =>
      ownManagers(unit).flatMap((manager) => (manager.employee_uuid ? [manager.employee_uuid] : []));
    const aboveOf = (unit: string) => {
      const parent = parentOf(unit);
      return parent === null ? null : nearestManaged(parent);
    };
    // A unit whose positions are all held, below a managed unit with a position held by someone else.
    const unit = units.find((candidate) => {
      const own = ownManagers(candidate.uuid);
      const above = aboveOf(candidate.uuid);
      return (
        own.length > 0 &&
        own.every((manager) => manager.employee_uuid) &&
        above !== null &&
        ownManagers(above).some((manager) => !holdersOf(candidate.uuid).includes(manager.employee_uuid ?? ''))
      );
    })!;
    expect(unit).toBeDefined();
    const holders = holdersOf(unit.uuid);
    const found = await managersBy({ org_unit: { uuids: [unit.uuid] }, exclude: { uuids: holders } }, true);
    expect(found.length).toBeGreaterThan(0);
    expect(uuidsOf(found)).toEqual(
      uuidsOf(
        ownManagers(aboveOf(unit.uuid)!).filter((manager) => !holders.includes(manager.employee_uuid ?? '')),
      ),
    );
  });

  it('`exclude` leaves out the managers held by those people, never a vacancy', async () => {
    const held = managers.find((manager) => manager.employee_uuid)!;
    const found = await managersBy({
      org_unit: { uuids: [held.org_unit_uuid] },
      exclude: { uuids: [held.employee_uuid] },
    });
    expect(uuidsOf(found)).toEqual(
      uuidsOf(
        ownManagers(held.org_unit_uuid).filter((manager) => manager.employee_uuid !== held.employee_uuid),
      ),
    );
  });

  it('`responsibility` and `manager_type` keep the managers with such a class; an unknown class none', async () => {
    const typed = managers.find(
      (manager) => manager.manager_type_uuid && manager.responsibility_uuids?.length,
    )!;
    const responsibility = typed.responsibility_uuids![0]!;
    const byResponsibility = await managersBy({ responsibility: { uuids: [responsibility] } });
    expect(uuidsOf(byResponsibility)).toEqual(
      uuidsOf(managers.filter((manager) => manager.responsibility_uuids?.includes(responsibility))),
    );
    const byType = await managersBy({ manager_type: { uuids: [typed.manager_type_uuid] } });
    expect(uuidsOf(byType)).toEqual(
      uuidsOf(managers.filter((manager) => manager.manager_type_uuid === typed.manager_type_uuid)),
    );
    expect(await managersBy({ responsibility: { uuids: ['3b8c9f2e-0000-4000-8000-000000000000'] } })).toEqual(
      [],
    );
  });
});

describe('Engagement.is_primary', () => {
  it("answers the Service API's `calculate_primary` mark of each person's engagements", async () => {
    const body = await alice.ask(
      'v30',
      '{ engagements { objects { current { uuid is_primary employee_uuid primary_uuid primary { uuid } } } } }',
    );
    expect(body.errors).toBeUndefined();
    const engagements: {
      uuid: string;
      is_primary: boolean;
      employee_uuid: string;
      primary_uuid: string | null;
      primary: { uuid: string } | null;
    }[] = body.data!.engagements.objects.map((response: { current: unknown }) => response.current);
    const people = [...new Set(engagements.map((engagement) => engagement.employee_uuid))];
    const marked = new Map<string, boolean>();
    for (const person of people) {
      const response = await stack.legacyFetch(`/service/e/${person}/details/engagement?calculate_primary=1`);
      for (const record of (await response.json()) as { uuid: string; is_primary: boolean }[]) {
        marked.set(record.uuid, record.is_primary === true);
      }
    }
    expect(engagements.some((engagement) => engagement.is_primary)).toBe(true);
    for (const engagement of engagements) {
      expect(engagement.is_primary).toBe(marked.get(engagement.uuid));
      expect(engagement.primary?.uuid ?? null).toBe(engagement.primary_uuid);
    }
  });
});

describe('OrganisationUnit.time_planning', () => {
  it("answers the unit record's time planning class, and its UUID", async () => {
    const body = await alice.ask(
      'v30',
      '{ org_units { objects { current { uuid time_planning { uuid } time_planning_uuid } } } }',
    );
    expect(body.errors).toBeUndefined();
    for (const { current } of body.data!.org_units.objects) {
      const record = (await (await stack.legacyFetch(`/service/ou/${current.uuid}/`)).json()) as {
        time_planning: { uuid: string } | null;
      };
      expect(current.time_planning_uuid).toBe(record.time_planning?.uuid ?? null);
      expect(current.time_planning?.uuid ?? null).toBe(current.time_planning_uuid);
    }
  });
});
