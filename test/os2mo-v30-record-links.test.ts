import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unitUuid } from '../legacy-service/src/fixture/organisation.js';
import { sharedReadOnlyStack, signIn, type TestStack, type TracedGraphQLSession } from './stack.js';

/**
 * v30's class hierarchy, a unit's root, the role bindings and unit hierarchies 2.x never held, read through
 * the real stack and checked against the stand-in's own /service answers.
 */
let stack: TestStack;
let nora: TracedGraphQLSession;
beforeAll(async () => {
  stack = await sharedReadOnlyStack();
  nora = await signIn(stack, 'nora', { trace: true });
});
afterAll(() => stack.close());

type LegacyRecord = Record<string, any> & { uuid: string };

async function legacy<T>(path: string): Promise<T> {
  const response = await stack.legacyFetch(path);
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

/** Nora's v30 answer to `query`, which must hold no errors. */
async function ask(query: string, variables: Record<string, unknown> = {}) {
  const answer = await nora.ask('v30', query, variables);
  expect(answer.errors).toBeUndefined();
  return answer;
}

describe("the KLE facet's class tree", () => {
  it('gives each subject its group as parent and each group its subjects as children', async () => {
    const groups = await legacy<LegacyRecord[]>('/service/f/kle_number/children');
    const group = groups.find((candidate) => candidate.child_count > 0)!;
    const subjects = await legacy<LegacyRecord[]>(`/service/c/${group.uuid}/children`);
    const { data } = await ask(
      `query($uuids: [UUID!]) { classes(filter: {uuids: $uuids}) { objects { uuid current {
        parent_uuid parent { uuid } parent_response { uuid } children { uuid } org_uuid
      } } } }`,
      { uuids: [group.uuid, subjects[0]!.uuid] },
    );
    const byUuid = Object.fromEntries(
      data!.classes.objects.map((o: { uuid: string; current: unknown }) => [o.uuid, o.current]),
    );
    const [organisation] = await legacy<LegacyRecord[]>('/service/o/');
    expect(byUuid[group.uuid]).toEqual({
      parent_uuid: null,
      parent: null,
      parent_response: null,
      children: subjects.map((subject) => ({ uuid: subject.uuid })),
      org_uuid: organisation!.uuid,
    });
    expect(byUuid[subjects[0]!.uuid]).toMatchObject({
      parent_uuid: group.uuid,
      parent: { uuid: group.uuid },
      parent_response: { uuid: group.uuid },
    });
  });
});

describe("a unit's root", () => {
  it('is the last of its ancestors, in the unit read alone', async () => {
    const { data, extensions } = await ask(
      `query($unit: UUID!) { org_units(filter: {uuids: [$unit]}) { objects { current {
        ancestors { uuid } root { uuid } root_response { uuid }
      } } } }`,
      { unit: unitUuid(12) },
    );
    const current = data!.org_units.objects[0].current;
    const top = current.ancestors.at(-1) ?? { uuid: unitUuid(12) };
    expect(current.root).toEqual([top]);
    expect(current.root_response).toEqual(top);
    expect(extensions.upstream.calls.every((call) => !call.path.includes('/children'))).toBe(true);
  });
});

describe('what 2.x never held', () => {
  it('lists no role binding', async () => {
    const { data } = await ask(`{ rolebindings { objects { uuid } } }`);
    expect(data).toEqual({ rolebindings: { objects: [] } });
  });

  // 2.x does hold a unit's hierarchy (OS2mo 2.4.0 `service/orgunit.py`: stored on create and edit, filtered on
  // by the children reads), so `hierarchy: {}` keeps the units that have one, each answering it.
  it('keeps the units that have a hierarchy, each with its hierarchy', async () => {
    const { data } = await ask(`{
      org_units(filter: {hierarchy: {}}) { objects { current { org_unit_hierarchy } } }
    }`);
    const units = (data as any).org_units.objects as { current: { org_unit_hierarchy: string | null } }[];
    expect(units.length).toBeGreaterThan(0);
    for (const unit of units) expect(unit.current.org_unit_hierarchy).toEqual(expect.any(String));
  });
});
