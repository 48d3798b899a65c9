import { detailLabel, describeIntent, withArticle } from './intent-description.js';
import { allow, deny, type RbacDecision } from './rbac-decision.js';
import {
  maxPlacesPerPeriod,
  type OrganisationReads,
  type Period,
  type UnitOwnership,
} from './unit-ownership.js';
import type { IntentOf, WriteIntent } from './write-intent.js';
import { describePeriod, periodOf } from './write-period.js';

/**
 * Deciding one intent of an owner's write (the role is settled before: `rbac-policy.ts`): which units he
 * must own over which days, what only an admin may do, and a create over an existing unit.
 */

/** What deciding an intent may use: the owner's ownership, the organisation's reads, whether to scan. */
export interface IntentContext {
  ownership: UnitOwnership;
  reads: OrganisationReads;
  /** False on the first pass: a detail its hints do not place is left undecided (`undefined`). */
  mayScan: boolean;
}

/**
 * Why an owner may not make himself owner: his right to write on a unit comes from his owner records, so
 * one he writes himself (a new one, or an edit that keeps or re-dates his own) could extend that right past
 * what an admin gave him, for example past an end an admin set.
 */
const selfAppointment = 'an owner record that makes you owner';

/**
 * Why only an admin may choose a new detail record's UUID. OS2mo keeps every detail type in one table and
 * writes a create over the record that already has its UUID, whatever its type, unit or person; the
 * Service API reads records only through the listings of a unit or person, so whether a UUID is free
 * cannot be read without scanning the whole organisation.
 */
const chosenDetailUuid =
  'a detail record whose uuid you choose needs the admin role, because OS2mo writes a create over any record that already has that UUID and RBAC cannot read cheaply whether it is free; leave uuid out and the backend chooses one';

/** The refusals and ownership checks of one intent, worded after it. */
function judge(intent: WriteIntent, { ownership }: IntentContext) {
  const refused = (why: string) => deny(`You may not ${describeIntent(intent)}: ${why}.`);
  const adminOnly = (what: string) => refused(`${what} needs the admin role`);
  /** `undefined` when the owner owns `unit` (or an ancestor) on every day of `period`, else the refusal. */
  const owning = async (unit: string, period: Period): Promise<RbacDecision | undefined> => {
    const answer = await ownership.ownsUnitOver(unit, period);
    switch (answer.kind) {
      case 'owned':
        return undefined;
      case 'unit_not_found':
        return refused(`org unit ${unit} does not exist on ${answer.at}, so its owners cannot be checked`);
      case 'not_owned':
        return refused(
          period.from === period.to
            ? `employee ${ownership.employee} owns neither org unit ${unit} nor any of its ancestors`
            : `the write takes effect ${describePeriod(period)}, and on ${answer.at} employee ${ownership.employee} owns neither org unit ${unit} nor any of its ancestors`,
        );
      case 'too_many_changes':
        return refused(
          `org unit ${unit} changes place more than ${maxPlacesPerPeriod} times ${describePeriod(period)}, more than RBAC follows; an admin can make this write`,
        );
    }
  };
  /** The first refusal among `checks`, or the owner's allowance. */
  const firstRefusal = async (checks: Promise<RbacDecision | undefined>[]) =>
    (await Promise.all(checks)).find((decision) => decision !== undefined) ??
    allow(`Employee ${ownership.employee} owns every unit this write touches.`);
  return { refused, adminOnly, owning, firstRefusal };
}

type Decider<K extends WriteIntent['kind']> = (
  intent: IntentOf<K>,
  context: IntentContext,
) => Promise<RbacDecision | undefined>;

/**
 * One decider per kind of intent. The record is keyed by the closed union, so a new kind of intent does
 * not compile until it is decided here.
 */
const deciders: { [K in WriteIntent['kind']]: Decider<K> } = {
  employee: async (intent, context) =>
    judge(intent, context).adminOnly('an employee is not an org unit, so this'),

  class: async (intent, context) =>
    judge(intent, context).adminOnly('a class, which every org unit may use,'),

  unreadable: async (intent, context) =>
    judge(intent, context).refused(`${intent.problem}, and a write RBAC cannot read needs the admin role`),

  create_unit: async (intent, context) => {
    const { adminOnly, owning, firstRefusal } = judge(intent, context);
    if (intent.parent === null) return adminOnly('a top-level org unit');
    const underParent = await firstRefusal([owning(intent.parent, periodOf(intent))]);
    // Asked only once the parent is his: no one else learns whether a UUID is in use.
    if (!underParent.allowed || intent.uuid === undefined || !(await context.reads.unitExists(intent.uuid))) {
      return underParent;
    }
    return {
      allowed: false,
      conflict: true,
      reason: `You may not create an org unit with uuid ${intent.uuid}: that UUID already names an org unit, and the backend would write this create over it. Leave uuid out, choose another, or change the unit with details/edit.`,
    };
  },

  change_unit: async (intent, context) => {
    const { owning, firstRefusal } = judge(intent, context);
    return firstRefusal([owning(intent.unit, periodOf(intent))]);
  },

  terminate_unit: async (intent, context) => {
    const { owning, firstRefusal } = judge(intent, context);
    return firstRefusal([owning(intent.unit, periodOf(intent))]);
  },

  move_unit: async (intent, context) => {
    const { adminOnly, owning, firstRefusal } = judge(intent, context);
    if (intent.parent === null) return adminOnly('moving an org unit to the top level');
    const period = periodOf(intent);
    return firstRefusal([owning(intent.unit, period), owning(intent.parent, period)]);
  },

  create_detail: async (intent, context) => {
    const { adminOnly, owning, firstRefusal } = judge(intent, context);
    if (intent.unit === null) return adminOnly(`${withArticle(detailLabel[intent.type])} of an employee`);
    if (intent.uuid !== undefined) return adminOnly(chosenDetailUuid);
    if (intent.appoints === context.ownership.employee) return adminOnly(selfAppointment);
    return firstRefusal([owning(intent.unit, periodOf(intent))]);
  },

  change_detail: changeDetail,
};

/** A detail's edit or termination: every unit the record is in over the period, and a new unit. */
async function changeDetail(
  intent: IntentOf<'change_detail'>,
  context: IntentContext,
): Promise<RbacDecision | undefined> {
  const { refused, adminOnly, owning, firstRefusal } = judge(intent, context);
  const { ownership, mayScan } = context;
  const label = detailLabel[intent.type];
  if (intent.newUnit === null) return adminOnly(`${withArticle(label)} that belongs to no org unit`);
  const period = periodOf(intent);
  const location = await ownership.locateDetailOver(intent.type, intent.uuid, period, intent.hints, {
    mayScan,
  });
  if (location.found === 'needs_scan') return undefined;
  if (location.found === 'too_many_units') {
    return refused(
      `finding it would mean reading ${location.units} org units, more than RBAC searches for an owner; name its unit (data.org_unit) in an edit, or ask an admin`,
    );
  }
  if (location.found === false) {
    return refused(
      `no ${label} ${intent.uuid} is in force in an org unit on ${intent.date}, so it cannot be checked against the units you own`,
    );
  }
  if (location.found === 'unplaced') {
    return refused(
      `${label} ${intent.uuid} is in force before and after ${location.at}, but on that day it is in no org unit RBAC can read, so the write cannot be checked against the units you own; an admin can make it`,
    );
  }
  if (location.versions.some((version) => version.unit === null)) {
    return adminOnly(`${withArticle(label)} of an employee`);
  }
  // An edit that leaves the owner as it is keeps naming whoever it names, over its new dates.
  const appointed =
    intent.action !== 'edit' || intent.type !== 'owner'
      ? []
      : intent.appoints !== undefined
        ? [intent.appoints]
        : location.versions.map((version) => version.owner);
  if (appointed.includes(ownership.employee)) return adminOnly(selfAppointment);
  // The record's days in the period: it changes nothing after the record ends.
  const last = location.versions[location.versions.length - 1]!.to;
  const recordPeriod = last !== null && last < period.to ? { ...period, to: last } : period;
  const intoNewUnit = intent.newUnit === undefined ? undefined : await owning(intent.newUnit, recordPeriod);
  if (intoNewUnit) return intoNewUnit;
  // Each unit the record is in while the write takes effect, for the days it is there.
  return firstRefusal(
    location.versions.map((version) =>
      owning(version.unit!, {
        from: version.from > period.from ? version.from : period.from,
        to: version.to !== null && version.to < period.to ? version.to : period.to,
      }),
    ),
  );
}

/**
 * The decision on one intent of an owner's write; `undefined` when `mayScan` is false and the decision
 * needs a scan of the units (a detail its hints do not place).
 */
export function decideIntent(intent: WriteIntent, context: IntentContext): Promise<RbacDecision | undefined> {
  // Indexed by the intent's own kind, so the decider takes this intent.
  const decider = deciders[intent.kind] as (
    intent: WriteIntent,
    context: IntentContext,
  ) => ReturnType<Decider<never>>;
  return decider(intent, context);
}
