import type { GraphQLResolveInfo } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { GraphQLContext, Source } from '../context.js';
import { engagementManagers } from './engagement-managers.js';

/** A tree root ← middle ← leaf; `managed` says who manages which unit. */
function contextWith(managed: Record<string, string[]>) {
  const parents: Record<string, string | null> = { leaf: 'middle', middle: 'root', root: null };
  const reads: string[] = [];
  const legacy = {
    unitDetails: async (_type: string, unit: string, detail: { inherit?: boolean }) => {
      reads.push(`${unit}${detail.inherit ? '+inherit' : ''}`);
      let at: string | null = unit;
      while (detail.inherit && at && (managed[at] ?? []).length === 0) at = parents[at] ?? null;
      return (managed[at ?? ''] ?? []).map((person) => ({
        uuid: `${at}-${person}`,
        person: { uuid: person },
      }));
    },
    orgUnit: async (unit: string) => ({ uuid: unit, parent: parents[unit] ? { uuid: parents[unit] } : null }),
  };
  return { context: { legacy } as unknown as GraphQLContext, reads };
}

const engagement = {
  uuid: 'e',
  __at: '2024-01-01',
  org_unit: { uuid: 'leaf' },
  person: { uuid: 'alice' },
} as Source;
const noInfo = {} as GraphQLResolveInfo;
const managerUuids = (managers: Source[]) => managers.map((manager) => manager.uuid);

// OS2mo's semantics: mora/graphapi/collections/engagement.py@HEAD, `Engagement.managers`.
describe("an engagement's managers", () => {
  it("are its unit's managers, or with inherit the nearest ancestor's, in one Service API read", async () => {
    const { context, reads } = contextWith({ middle: ['bob'] });
    expect(managerUuids(await engagementManagers(engagement, {}, context, noInfo))).toEqual([]);
    expect(managerUuids(await engagementManagers(engagement, { inherit: true }, context, noInfo))).toEqual([
      'middle-bob',
    ]);
    expect(reads).toEqual(['leaf', 'leaf+inherit']);
  });

  it('leave the person out with exclude_self, and with inherit go on past a unit the person manages alone', async () => {
    const { context } = contextWith({ leaf: ['alice'], middle: ['alice'], root: ['carol', 'alice'] });
    expect(
      managerUuids(await engagementManagers(engagement, { exclude_self: true }, context, noInfo)),
    ).toEqual([]);
    expect(
      managerUuids(
        await engagementManagers(engagement, { exclude_self: true, inherit: true }, context, noInfo),
      ),
    ).toEqual(['root-carol']);
    expect(managerUuids(await engagementManagers(engagement, { inherit: true }, context, noInfo))).toEqual([
      'leaf-alice',
    ]);
  });
});
