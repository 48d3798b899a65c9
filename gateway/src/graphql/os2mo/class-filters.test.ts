import { describe, expect, it } from 'vitest';
import type { GraphQLContext, Source } from '../context.js';
import { classesOwnedBy, type OwnerReads } from './class-filters.js';

/** Units: a top unit with a faculty below it, and a second top unit beside them (a separate tree). */
const parents: Record<string, string | null> = { top: null, faculty: 'top', payroll: null };

function contextWith() {
  const reads: string[] = [];
  const unitRecord = (uuid: string): Source =>
    ({
      uuid,
      __at: '2024-01-01',
      user_key: uuid,
      parent: parents[uuid] ? unitRecord(parents[uuid]!) : null,
    }) as Source;
  const legacy = {
    orgUnitPage: async () => {
      reads.push('unit listing');
      return { items: Object.keys(parents).map((uuid) => ({ uuid, user_key: uuid })), total: 3 };
    },
    orgUnit: async (uuid: string) => {
      reads.push(`unit ${uuid}`);
      return uuid in parents ? unitRecord(uuid) : null;
    },
  };
  return { context: { legacy } as unknown as GraphQLContext, reads };
}

const noEngagements: OwnerReads = {
  engagementUnits: () => Promise.reject(new Error('no engagement member is given here')),
  hierarchyClasses: () => Promise.reject(new Error('no hierarchy member is given here')),
};
const classOf = (uuid: string, owner: string | null) => ({ uuid, __at: '2024-01-01', owner }) as Source;
const uuids = (records: Source[]) => records.map((record) => record.uuid);

// OS2mo's tests/graphapi/test_classes.py@HEAD, test_integration_class_owner_filter: a class owned by the
// faculty's parent, one owned by a unit of another tree, and classes without an owner.
describe("a class filter's owner", () => {
  const classes = [
    classOf('by-top', 'top'),
    classOf('by-payroll', 'payroll'),
    classOf('none-1', null),
    classOf('none-2', null),
  ];
  const above = (includeNone: boolean) => ({
    descendant: { uuids: ['faculty'] },
    include_none: includeNone,
  });

  it('keeps the classes owned by a unit the unit filter matches, and without include_none no others', async () => {
    const { context } = contextWith();
    expect(uuids(await classesOwnedBy(context, classes, above(false), '2024-01-01', noEngagements))).toEqual([
      'by-top',
    ]);
  });

  it('with include_none also keeps the classes without an owner: every class but the other tree’s', async () => {
    const { context } = contextWith();
    expect(uuids(await classesOwnedBy(context, classes, above(true), '2024-01-01', noEngagements))).toEqual([
      'by-top',
      'none-1',
      'none-2',
    ]);
  });

  it('with no unit member keeps the classes whose owner is a unit at all', async () => {
    const { context } = contextWith();
    const owned = [...classes, classOf('by-gone', 'removed-unit')];
    expect(uuids(await classesOwnedBy(context, owned, {}, '2024-01-01', noEngagements))).toEqual([
      'by-top',
      'by-payroll',
    ]);
    expect(
      uuids(await classesOwnedBy(context, owned, { uuids: ['payroll'] }, '2024-01-01', noEngagements)),
    ).toEqual(['by-payroll']);
  });

  // OS2mo's UI asks every form's classes this way; 2.x classes mostly have no owner.
  it('reads no unit when none of the classes names an owner', async () => {
    const { context, reads } = contextWith();
    const unowned = classes.filter((record) => record.owner === null);
    expect(uuids(await classesOwnedBy(context, unowned, above(true), '2024-01-01', noEngagements))).toEqual([
      'none-1',
      'none-2',
    ]);
    expect(await classesOwnedBy(context, unowned, above(false), '2024-01-01', noEngagements)).toEqual([]);
    expect(reads).toEqual([]);
  });
});
