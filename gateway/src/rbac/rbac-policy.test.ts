import { describe, expect, it } from 'vitest';
import type { Principal } from '../auth/token-verifier.js';
import type { DetailType } from '../legacy/legacy-loaders.js';
import {
  closing,
  ghost,
  hopped,
  id,
  lookupPaths,
  moved,
  paused,
  person,
  principal,
  record,
  returning,
  stays,
  timelineReads,
  timelineToday,
  treeReads,
  unit,
  visited,
} from './ownership-fixtures.test-helpers.js';
import { createRbacPolicy } from './rbac-policy.js';
import type { IntentOf, WriteIntent } from './write-intent.js';

const on = '2026-01-01';
const none = { units: [], persons: [] };
const createUnit = (parent: string | null, extra: Partial<IntentOf<'create_unit'>> = {}): WriteIntent => ({
  kind: 'create_unit',
  parent,
  date: on,
  ...extra,
});
const moveUnit = (moving: string, parent: string | null): WriteIntent => ({
  kind: 'move_unit',
  unit: moving,
  parent,
  date: on,
});
const changeUnit = (changed: string, date: string, until?: string): WriteIntent => ({
  kind: 'change_unit',
  unit: changed,
  date,
  ...(until ? { until } : {}),
});
const terminateUnit = (ended: string, date: string, until?: string): WriteIntent => ({
  kind: 'terminate_unit',
  unit: ended,
  date,
  ...(until ? { until } : {}),
});
const createDetail = (
  type: DetailType,
  into: string | null,
  extra: Partial<IntentOf<'create_detail'>> = {},
): WriteIntent => ({ kind: 'create_detail', type, unit: into, date: on, ...extra });
const editDetail = (
  type: DetailType,
  uuid: string,
  extra: Partial<IntentOf<'change_detail'>> = {},
): WriteIntent => ({ kind: 'change_detail', action: 'edit', type, uuid, date: on, hints: none, ...extra });
const terminateDetail = (
  type: DetailType,
  uuid: string,
  date: string,
  extra: Partial<IntentOf<'change_detail'>> = {},
): WriteIntent => ({ kind: 'change_detail', action: 'terminate', type, uuid, date, hints: none, ...extra });
/** An edit that places the record in `into` (its `data.org_unit`), as `writeIntents` reads one. */
const editInto = (
  type: DetailType,
  uuid: string,
  into: string,
  extra: Partial<IntentOf<'change_detail'>> = {},
) => editDetail(type, uuid, { newUnit: into, hints: { units: [into], persons: [] }, ...extra });

const admin = principal(['admin']);
const deptOwner = principal(['owner'], person.deptOwner);
const officeOwner = principal(['owner'], person.officeOwner);
const otherOwner = principal(['owner'], person.otherOwner);

/**
 * One decision: who asks (role and `uuid` claim), what the write does (its intents, as `writeIntents`
 * reads them: `write-intents.test.ts`), on which ownership facts (`ownership-fixtures.test-helpers.ts`:
 * the tree, or the timeline on a given day), and the verdict the client sees: allowed, `forbidden` (403
 * `E_FORBIDDEN` / `FORBIDDEN`) or `conflict` (409 `E_ALREADY_EXISTS` / `CONFLICT`), with its sentence.
 * `reads` says what the decision may read: nothing at all, or not the calls starting with `exclude`, and
 * at least `include`. A new decision is one row.
 */
interface DecisionRow {
  name: string;
  who: Principal;
  /** RBAC switched off (`IDP_RBAC_ENABLED` not `true`). */
  rbacOff?: true;
  intents: WriteIntent[];
  /** The tree (default, today 2026-06-01), or the timeline on `today`. */
  facts?: { timeline: string };
  verdict: 'allowed' | 'forbidden' | 'conflict';
  /** The sentence the client is shown, for a refusal. */
  reason?: string;
  reads?: 'none' | { include?: string[]; exclude?: string[] };
  /**
   * Where the reading API answers otherwise: it holds every version of a record, so it places one the scan
   * cannot (the verdict is the same, the sentence names what it found), and reads by UUID, not listings.
   */
  byReading?: { reason?: string; reads?: { include?: string[]; exclude?: string[] } };
}

const roles: DecisionRow[] = [
  {
    name: 'RBAC off: anyone',
    who: principal([]),
    rbacOff: true,
    intents: [createUnit(null)],
    verdict: 'allowed',
    reads: 'none',
  },
  { name: 'an admin', who: admin, intents: [createUnit(null)], verdict: 'allowed', reads: 'none' },
  {
    name: 'an admin who is also an owner',
    who: principal(['admin', 'owner'], person.deptOwner),
    intents: [createUnit(null)],
    verdict: 'allowed',
    reads: 'none',
  },
  {
    name: 'no role, even on what he owns',
    who: principal([], person.deptOwner),
    intents: [createUnit(unit.team)],
    verdict: 'forbidden',
    reason: 'Writing needs the admin role, or the owner role for the units you own; this token has neither.',
    reads: 'none',
  },
  {
    name: 'an owner without a uuid claim',
    who: principal(['owner']),
    intents: [createUnit(unit.team)],
    verdict: 'forbidden',
    reason:
      "The owner role writes only on units its employee owns, and this token's uuid claim is missing or not a UUID.",
    reads: 'none',
  },
  {
    name: 'an owner whose uuid claim is not a UUID',
    who: principal(['owner'], 'oscar'),
    intents: [createUnit(unit.team)],
    verdict: 'forbidden',
    reason:
      "The owner role writes only on units its employee owns, and this token's uuid claim is missing or not a UUID.",
    reads: 'none',
  },
];

const units: DecisionRow[] = [
  // The office between dept and team has another owner: inherit_owner would stop there; the walk does not.
  {
    name: 'owner of an ancestor above another owner creates below',
    who: deptOwner,
    intents: [createUnit(unit.team)],
    verdict: 'allowed',
  },
  {
    name: 'owner of the unit itself',
    who: officeOwner,
    intents: [createUnit(unit.office)],
    verdict: 'allowed',
  },
  {
    name: 'owner of a descendant only',
    who: officeOwner,
    intents: [createUnit(unit.dept)],
    verdict: 'forbidden',
    reason: `You may not create an org unit under org unit ${unit.dept}: the write takes effect from 2026-01-01 on, and on 2026-01-01 employee ${person.officeOwner} owns neither org unit ${unit.dept} nor any of its ancestors.`,
  },
  {
    name: 'owner elsewhere',
    who: otherOwner,
    intents: [createUnit(unit.team)],
    verdict: 'forbidden',
    reason: `You may not create an org unit under org unit ${unit.team}: the write takes effect from 2026-01-01 on, and on 2026-01-01 employee ${person.otherOwner} owns neither org unit ${unit.team} nor any of its ancestors.`,
  },
  {
    name: 'a top-level unit',
    who: deptOwner,
    intents: [createUnit(null)],
    verdict: 'forbidden',
    reason: 'You may not create a top-level org unit: a top-level org unit needs the admin role.',
  },
  {
    name: 'a move inside owned units',
    who: deptOwner,
    intents: [moveUnit(unit.team, unit.dept)],
    verdict: 'allowed',
  },
  {
    name: 'a move to an unowned parent',
    who: deptOwner,
    intents: [moveUnit(unit.team, unit.other)],
    verdict: 'forbidden',
    reason: `You may not move org unit ${unit.team} under org unit ${unit.other}: the write takes effect from 2026-01-01 on, and on 2026-01-01 employee ${person.deptOwner} owns neither org unit ${unit.other} nor any of its ancestors.`,
  },
  {
    name: 'a move to the top level',
    who: deptOwner,
    intents: [moveUnit(unit.team, null)],
    verdict: 'forbidden',
    reason: `You may not move org unit ${unit.team} to the top level: moving an org unit to the top level needs the admin role.`,
  },
  {
    name: 'a move of an unowned unit into owned ones',
    who: otherOwner,
    intents: [moveUnit(unit.team, unit.other)],
    verdict: 'forbidden',
    reason: `You may not move org unit ${unit.team} under org unit ${unit.other}: the write takes effect from 2026-01-01 on, and on 2026-01-01 employee ${person.otherOwner} owns neither org unit ${unit.team} nor any of its ancestors.`,
  },
  {
    name: 'a parent that does not exist yet on the date',
    who: otherOwner,
    intents: [createUnit(unit.future)],
    verdict: 'forbidden',
    reason: `You may not create an org unit under org unit ${unit.future}: org unit ${unit.future} does not exist on 2026-01-01, so its owners cannot be checked.`,
  },
  // Issue 28: OS2mo 2.4.0 writes a create over the object that has its UUID (orgunit.py, `create_org_unit`:
  // `util.get_uuid(req, required=False)`, then a LoRa PUT of that UUID). The refusal names nothing of it.
  {
    name: 'a unit create whose uuid names another unit',
    who: deptOwner,
    intents: [createUnit(unit.team, { uuid: unit.other })],
    verdict: 'conflict',
    reason: `You may not create an org unit with uuid ${unit.other}: that UUID already names an org unit, and the backend would write this create over it. Leave uuid out, choose another, or change the unit with details/edit.`,
    reads: { include: [`ou ${unit.other} exists`] },
  },
  // A create would replace its whole history, which an edit never does.
  {
    name: 'a unit create whose uuid names his own unit',
    who: deptOwner,
    intents: [createUnit(unit.team, { uuid: unit.office })],
    verdict: 'conflict',
    reason: `You may not create an org unit with uuid ${unit.office}: that UUID already names an org unit, and the backend would write this create over it. Leave uuid out, choose another, or change the unit with details/edit.`,
  },
  {
    name: 'a unit create with a free uuid',
    who: deptOwner,
    intents: [createUnit(unit.team, { uuid: id(88) })],
    verdict: 'allowed',
  },
  // Nothing tells him whether the UUID is in use.
  {
    name: 'a unit create with a uuid in use, not under his own unit',
    who: otherOwner,
    intents: [createUnit(unit.team, { uuid: unit.dept })],
    verdict: 'forbidden',
    reason: `You may not create an org unit under org unit ${unit.team}: the write takes effect from 2026-01-01 on, and on 2026-01-01 employee ${person.otherOwner} owns neither org unit ${unit.team} nor any of its ancestors.`,
    reads: { exclude: [`ou ${unit.dept} exists`] },
  },
  {
    name: 'an employee',
    who: deptOwner,
    intents: [{ kind: 'employee', action: 'create', uuid: null }],
    verdict: 'forbidden',
    reason: 'You may not create an employee: an employee is not an org unit, so this needs the admin role.',
  },
  {
    name: 'a class',
    who: deptOwner,
    intents: [{ kind: 'class', facet: 'engagement_job_function' }],
    verdict: 'forbidden',
    reason:
      'You may not write a class in facet engagement_job_function: a class, which every org unit may use, needs the admin role.',
  },
  {
    name: 'a related unit (ou/{uuid}/map: unreadable)',
    who: deptOwner,
    intents: [
      {
        kind: 'unreadable',
        problem: `POST /service/ou/${unit.team}/map is not a write endpoint of /service`,
      },
    ],
    verdict: 'forbidden',
    reason: `You may not send this write: POST /service/ou/${unit.team}/map is not a write endpoint of /service, and a write RBAC cannot read needs the admin role.`,
  },
];

const details: DecisionRow[] = [
  {
    name: 'a record of a person',
    who: deptOwner,
    intents: [createDetail('it', null)],
    verdict: 'forbidden',
    reason:
      'You may not create an IT account of an employee: an IT account of an employee needs the admin role.',
  },
  {
    name: 'a KLE number, a role and an address in an owned unit',
    who: deptOwner,
    intents: [
      createDetail('kle', unit.team),
      createDetail('role', unit.team),
      createDetail('address', unit.team),
    ],
    verdict: 'allowed',
  },
  {
    name: 'an engagement association in a unit owned by someone else',
    who: otherOwner,
    intents: [createDetail('engagement_association', unit.team)],
    verdict: 'forbidden',
    reason: `You may not create an engagement association in org unit ${unit.team}: the write takes effect from 2026-01-01 on, and on 2026-01-01 employee ${person.otherOwner} owns neither org unit ${unit.team} nor any of its ancestors.`,
  },
  {
    name: 'an address of a person',
    who: deptOwner,
    intents: [createDetail('address', null)],
    verdict: 'forbidden',
    reason: 'You may not create an address of an employee: an address of an employee needs the admin role.',
  },
  {
    name: 'a leave',
    who: deptOwner,
    intents: [createDetail('leave', null)],
    verdict: 'forbidden',
    reason: 'You may not create a leave of an employee: a leave of an employee needs the admin role.',
  },
  {
    name: 'the end of a leave',
    who: deptOwner,
    intents: [terminateDetail('leave', id(40), '2026-05-31', { newUnit: null })],
    verdict: 'forbidden',
    reason: `You may not terminate leave ${id(40)}: a leave that belongs to no org unit needs the admin role.`,
  },
  {
    name: 'an edit of an association in an owned unit',
    who: deptOwner,
    intents: [editInto('association', record.association, unit.team)],
    verdict: 'allowed',
  },
  {
    name: 'the end of an association in a unit owned by someone else',
    who: otherOwner,
    intents: [terminateDetail('association', record.association, '2026-05-31')],
    verdict: 'forbidden',
    reason: `You may not terminate association ${record.association}: the write takes effect from 2026-05-31 on, and on 2026-05-31 employee ${person.otherOwner} owns neither org unit ${unit.team} nor any of its ancestors.`,
  },
  {
    name: "the end of a person's address",
    who: deptOwner,
    intents: [terminateDetail('address', record.address, '2026-05-31')],
    verdict: 'forbidden',
    reason: `You may not terminate address ${record.address}: no address ${record.address} is in force in an org unit on 2026-05-31, so it cannot be checked against the units you own.`,
  },
  {
    name: 'a list where one item is outside',
    who: deptOwner,
    intents: [createDetail('manager', unit.team), createDetail('manager', unit.other)],
    verdict: 'forbidden',
    reason: `You may not create a manager record in org unit ${unit.other}: the write takes effect from 2026-01-01 on, and on 2026-01-01 employee ${person.deptOwner} owns neither org unit ${unit.other} nor any of its ancestors.`,
  },
  // A detail edit is checked against the record's current unit and the new one.
  {
    name: 'an engagement moved out of owned units',
    who: deptOwner,
    intents: [editInto('engagement', record.engagement, unit.other)],
    verdict: 'forbidden',
    reason: `You may not edit engagement ${record.engagement}: the write takes effect from 2026-01-01 on, and on 2026-01-01 employee ${person.deptOwner} owns neither org unit ${unit.other} nor any of its ancestors.`,
  },
  {
    name: 'an engagement moved into owned units from elsewhere',
    who: otherOwner,
    intents: [editInto('engagement', record.engagement, unit.other)],
    verdict: 'forbidden',
    reason: `You may not edit engagement ${record.engagement}: the write takes effect from 2026-01-01 on, and on 2026-01-01 employee ${person.otherOwner} owns neither org unit ${unit.team} nor any of its ancestors.`,
  },
  {
    name: 'a detail not in force in any unit',
    who: deptOwner,
    intents: [terminateDetail('manager', id(77), '2026-12-31')],
    verdict: 'forbidden',
    reason: `You may not terminate manager record ${id(77)}: no manager record ${id(77)} is in force in an org unit on 2026-12-31, so it cannot be checked against the units you own.`,
  },
  {
    name: "an edit of a person's owner record",
    who: deptOwner,
    intents: [editDetail('owner', record.personOwner, { appoints: person.deptOwner })],
    verdict: 'forbidden',
    reason: `You may not edit owner record ${record.personOwner}: no owner record ${record.personOwner} is in force in an org unit on 2026-01-01, so it cannot be checked against the units you own.`,
  },
  // Issue 20, item 4: an owner's open-ended edit of his own owner record re-appointed him past an end an
  // admin had set; his ownership is judged by his owner records, so he may not write his own.
  {
    name: 'a new owner record naming the writer',
    who: officeOwner,
    intents: [createDetail('owner', unit.team, { appoints: person.officeOwner })],
    verdict: 'forbidden',
    reason: `You may not create an owner record in org unit ${unit.team}: an owner record that makes you owner needs the admin role.`,
  },
  {
    name: 'a new owner record naming someone else',
    who: officeOwner,
    intents: [createDetail('owner', unit.team, { appoints: person.worker })],
    verdict: 'allowed',
  },
  // The record in `office` names the office owner: he may not re-date it, the dept owner above may.
  {
    name: 'a re-dated owner record that names the writer',
    who: officeOwner,
    intents: [editDetail('owner', record.ownerRecord)],
    verdict: 'forbidden',
    reason: `You may not edit owner record ${record.ownerRecord}: an owner record that makes you owner needs the admin role.`,
  },
  {
    name: 'an owner record of the writer edited to name another',
    who: officeOwner,
    intents: [editDetail('owner', record.ownerRecord, { appoints: person.worker })],
    verdict: 'allowed',
  },
  {
    name: "a re-dated owner record of someone else's",
    who: deptOwner,
    intents: [editDetail('owner', record.ownerRecord)],
    verdict: 'allowed',
  },
  {
    name: 'an owner record edited to name the writer',
    who: deptOwner,
    intents: [editDetail('owner', record.ownerRecord, { appoints: person.deptOwner })],
    verdict: 'forbidden',
    reason: `You may not edit owner record ${record.ownerRecord}: an owner record that makes you owner needs the admin role.`,
  },
  // Ending his own ownership only narrows his rights.
  {
    name: 'the end of his own owner record',
    who: officeOwner,
    intents: [terminateDetail('owner', record.ownerRecord, '2026-12-31')],
    verdict: 'allowed',
  },
  // OS2mo keeps every detail type in one table and writes a create over any record with that UUID.
  {
    name: 'a detail whose uuid the writer chose, even of another type',
    who: deptOwner,
    intents: [createDetail('kle', unit.team, { uuid: record.engagement })],
    verdict: 'forbidden',
    reason: `You may not create a KLE number in org unit ${unit.team}: a detail record whose uuid you choose needs the admin role, because OS2mo writes a create over any record that already has that UUID and RBAC cannot read cheaply whether it is free; leave uuid out and the backend chooses one needs the admin role.`,
    reads: 'none',
  },
  {
    name: 'a list with one detail whose uuid the writer chose',
    who: deptOwner,
    intents: [createDetail('kle', unit.team), createDetail('kle', unit.team, { uuid: id(89) })],
    verdict: 'forbidden',
    reason: `You may not create a KLE number in org unit ${unit.team}: a detail record whose uuid you choose needs the admin role, because OS2mo writes a create over any record that already has that UUID and RBAC cannot read cheaply whether it is free; leave uuid out and the backend chooses one needs the admin role.`,
  },
  {
    name: 'a detail whose uuid the backend chooses',
    who: deptOwner,
    intents: [createDetail('kle', unit.team)],
    verdict: 'allowed',
  },
];

// Issue 35, item 8: OS2mo 2.4.0 creates every item of an ou/create's `details` (orgunit.py 150–157, with
// `_inject_org_units` 370–380 setting its unit); our contract adds `addresses`. Each is judged as a create.
const underTeam = createUnit(unit.team);
const carried = (type: DetailType, extra: Partial<IntentOf<'create_detail'>> = {}) =>
  createDetail(type, unit.team, { inNewUnit: true, ...extra });
const inNewUnit = [
  underTeam,
  carried('owner', { appoints: person.worker }),
  carried('kle'),
  carried('address'),
];
const unitCreates: DecisionRow[] = [
  {
    name: 'records in the new unit, by the owner of its parent',
    who: deptOwner,
    intents: inNewUnit,
    verdict: 'allowed',
    reads: { exclude: [`ou ${unit.other}`] },
  },
  {
    name: 'records in the new unit, by an owner elsewhere',
    who: otherOwner,
    intents: inNewUnit,
    verdict: 'forbidden',
    reason: `You may not create an org unit under org unit ${unit.team}: the write takes effect from 2026-01-01 on, and on 2026-01-01 employee ${person.otherOwner} owns neither org unit ${unit.team} nor any of its ancestors.`,
  },
  {
    name: 'a carried owner record of another unit',
    who: deptOwner,
    intents: [underTeam, createDetail('owner', unit.other, { appoints: id(98) })],
    verdict: 'forbidden',
    reason: `You may not create an owner record in org unit ${unit.other}: the write takes effect from 2026-01-01 on, and on 2026-01-01 employee ${person.deptOwner} owns neither org unit ${unit.other} nor any of its ancestors.`,
  },
  {
    name: 'a carried owner record naming the writer',
    who: deptOwner,
    intents: [underTeam, carried('owner', { appoints: person.deptOwner })],
    verdict: 'forbidden',
    reason: `You may not create an owner record in a new org unit under org unit ${unit.team}: an owner record that makes you owner needs the admin role.`,
  },
  {
    name: 'a carried record with a uuid of its own',
    who: deptOwner,
    intents: [underTeam, carried('address', { uuid: record.address })],
    verdict: 'forbidden',
    reason: `You may not create an address in a new org unit under org unit ${unit.team}: a detail record whose uuid you choose needs the admin role, because OS2mo writes a create over any record that already has that UUID and RBAC cannot read cheaply whether it is free; leave uuid out and the backend chooses one needs the admin role.`,
  },
  {
    name: 'a carried record of a person',
    who: deptOwner,
    intents: [underTeam, createDetail('it', null)],
    verdict: 'forbidden',
    reason:
      'You may not create an IT account of an employee: an IT account of an employee needs the admin role.',
  },
  {
    name: 'a carried record without a validity',
    who: deptOwner,
    intents: [underTeam, { kind: 'unreadable', problem: 'details[0].validity must be a JSON object' }],
    verdict: 'forbidden',
    reason:
      'You may not send this write: details[0].validity must be a JSON object, and a write RBAC cannot read needs the admin role.',
  },
  {
    name: 'a carried record that is not an object',
    who: deptOwner,
    intents: [underTeam, { kind: 'unreadable', problem: 'addresses[0] must be a JSON object' }],
    verdict: 'forbidden',
    reason:
      'You may not send this write: addresses[0] must be a JSON object, and a write RBAC cannot read needs the admin role.',
  },
];

// The timeline (`ownership-fixtures.test-helpers.ts`): `team` lies under `dept` until 2026-02-28 and under
// `other` from 2026-03-01; engagement `moved` goes from `dept` to `other` on 2026-03-01; `hopped` and
// `visited` spend February in `ghost`, under `other`. Issue 20, item 4: a write with no end is judged for good.
const now = { timeline: timelineToday };
const before = '2026-01-15';
const ahead = { timeline: before };
const periods: DecisionRow[] = [
  // Today is 2026-01-15: `team`'s move under `other` and `moved`'s are still to come.
  {
    name: 'a rename before a scheduled move, with no end',
    who: deptOwner,
    facts: ahead,
    intents: [changeUnit(unit.team, before)],
    verdict: 'forbidden',
    reason: `You may not change org unit ${unit.team}: the write takes effect from 2026-01-15 on, and on 2026-03-01 employee ${person.deptOwner} owns neither org unit ${unit.team} nor any of its ancestors.`,
  },
  {
    name: 'a rename before a scheduled move, ending before it',
    who: deptOwner,
    facts: ahead,
    intents: [changeUnit(unit.team, before, '2026-02-28')],
    verdict: 'allowed',
  },
  {
    name: 'a rename of a unit that ends for good after today',
    who: deptOwner,
    facts: ahead,
    intents: [changeUnit(closing, before)],
    verdict: 'allowed',
  },
  {
    name: 'a rename of a unit that comes back elsewhere',
    who: deptOwner,
    facts: ahead,
    intents: [changeUnit(returning, before)],
    verdict: 'forbidden',
    reason: `You may not change org unit ${returning}: the write takes effect from 2026-01-15 on, and on 2028-01-01 employee ${person.deptOwner} owns neither org unit ${returning} nor any of its ancestors.`,
  },
  {
    name: 'the end of an engagement before its scheduled move',
    who: deptOwner,
    facts: ahead,
    intents: [terminateDetail('engagement', moved, before)],
    verdict: 'forbidden',
    reason: `You may not terminate engagement ${moved}: the write takes effect from 2026-03-01 on, and on 2026-03-01 employee ${person.deptOwner} owns neither org unit ${unit.other} nor any of its ancestors.`,
  },
  {
    name: 'an edit of an engagement before its scheduled move',
    who: deptOwner,
    facts: ahead,
    intents: [editInto('engagement', moved, unit.dept, { date: before })],
    verdict: 'forbidden',
    reason: `You may not edit engagement ${moved}: the write takes effect from 2026-03-01 on, and on 2026-03-01 employee ${person.deptOwner} owns neither org unit ${unit.other} nor any of its ancestors.`,
  },
  // Today is 2026-06-01: the moves are past.
  {
    name: 'a unit change by the old owner, back-dated past the move',
    who: deptOwner,
    facts: now,
    intents: [changeUnit(unit.team, on)],
    verdict: 'forbidden',
    reason: `You may not change org unit ${unit.team}: the write takes effect from 2026-01-01 on, and on 2026-03-01 employee ${person.deptOwner} owns neither org unit ${unit.team} nor any of its ancestors.`,
  },
  {
    name: 'a unit change by the old owner, for a period before the move only',
    who: deptOwner,
    facts: now,
    intents: [changeUnit(unit.team, on, '2026-02-15')],
    verdict: 'allowed',
  },
  {
    name: 'a unit change by the new owner, back-dated before the move',
    who: otherOwner,
    facts: now,
    intents: [changeUnit(unit.team, on)],
    verdict: 'forbidden',
    reason: `You may not change org unit ${unit.team}: the write takes effect from 2026-01-01 on, and on 2026-01-01 employee ${person.otherOwner} owns neither org unit ${unit.team} nor any of its ancestors.`,
  },
  {
    name: 'a unit change by the new owner, after the move',
    who: otherOwner,
    facts: now,
    intents: [changeUnit(unit.team, '2026-04-01')],
    verdict: 'allowed',
  },
  {
    name: 'a unit change by the old owner, after the move',
    who: deptOwner,
    facts: now,
    intents: [changeUnit(unit.team, '2026-04-01')],
    verdict: 'forbidden',
    reason: `You may not change org unit ${unit.team}: the write takes effect from 2026-04-01 on, and on 2026-04-01 employee ${person.deptOwner} owns neither org unit ${unit.team} nor any of its ancestors.`,
  },
  // `to` lies after the move, in `other`; `from` before it, in `dept`: judged on `to` alone it was allowed.
  {
    name: 'a unit termination by the new owner, from before the move to after it',
    who: otherOwner,
    facts: now,
    intents: [terminateUnit(unit.team, on, '2026-12-31')],
    verdict: 'forbidden',
    reason: `You may not terminate org unit ${unit.team}: the write takes effect from 2026-01-01 to 2026-12-31, and on 2026-01-01 employee ${person.otherOwner} owns neither org unit ${unit.team} nor any of its ancestors.`,
  },
  {
    name: 'a unit termination by the new owner, from after the move',
    who: otherOwner,
    facts: now,
    intents: [terminateUnit(unit.team, '2026-04-01', '2026-12-31')],
    verdict: 'allowed',
  },
  {
    name: 'a unit termination by the old owner, for good from before the move',
    who: deptOwner,
    facts: now,
    intents: [terminateUnit(unit.team, on)],
    verdict: 'forbidden',
    reason: `You may not terminate org unit ${unit.team}: the write takes effect from 2026-01-01 on, and on 2026-03-01 employee ${person.deptOwner} owns neither org unit ${unit.team} nor any of its ancestors.`,
  },
  {
    name: 'a unit termination by the old owner, for a period before the move only',
    who: deptOwner,
    facts: now,
    intents: [terminateUnit(unit.team, on, '2026-02-15')],
    verdict: 'allowed',
  },
  {
    name: 'a unit termination by the new owner, its last day after the move',
    who: otherOwner,
    facts: now,
    intents: [terminateUnit(unit.team, '2026-12-31')],
    verdict: 'allowed',
  },
  {
    name: 'the end of the moved engagement, back-dated',
    who: deptOwner,
    facts: now,
    intents: [terminateDetail('engagement', moved, '2026-01-31')],
    verdict: 'forbidden',
    reason: `You may not terminate engagement ${moved}: the write takes effect from 2026-03-01 on, and on 2026-03-01 employee ${person.deptOwner} owns neither org unit ${unit.other} nor any of its ancestors.`,
  },
  {
    name: 'the end of the moved engagement after the move, by the new owner',
    who: otherOwner,
    facts: now,
    intents: [terminateDetail('engagement', moved, '2026-04-30')],
    verdict: 'allowed',
  },
  {
    name: 'the end of the moved engagement back-dated, by the new owner',
    who: otherOwner,
    facts: now,
    intents: [terminateDetail('engagement', moved, '2026-01-31')],
    verdict: 'forbidden',
    reason: `You may not terminate engagement ${moved}: the write takes effect from 2026-01-31 to 2026-02-28, and on 2026-01-31 employee ${person.otherOwner} owns neither org unit ${unit.dept} nor any of its ancestors.`,
  },
  // Issue 20, item 3: the versions found stopped at the first day the scan could not place (`hopped` in
  // `ghost`), and only that prefix, all in `dept`, was judged.
  {
    name: 'a write over a day the record cannot be placed',
    who: deptOwner,
    facts: now,
    intents: [terminateDetail('engagement', hopped, before)],
    verdict: 'forbidden',
    reason: `You may not terminate engagement ${hopped}: engagement ${hopped} is in force before and after 2026-02-01, but on that day it is in no org unit RBAC can read, so the write cannot be checked against the units you own; an admin can make it.`,
    byReading: {
      reason: `You may not terminate engagement ${hopped}: the write takes effect from 2026-02-01 to 2026-02-28, and on 2026-02-01 employee ${person.deptOwner} owns neither org unit ${ghost} nor any of its ancestors.`,
      reads: { include: [`by_uuid engagement ${hopped} @2026-01-15`], exclude: ['units', 'e '] },
    },
  },
  // On both paths: the reading API answers every version, so its gap is a month the record is not in force.
  {
    name: 'a write over a month the record is not in force, between two versions',
    who: deptOwner,
    facts: now,
    intents: [terminateDetail('engagement', paused, before)],
    verdict: 'forbidden',
    reason: `You may not terminate engagement ${paused}: engagement ${paused} is in force before and after 2026-02-01, but on that day it is in no org unit RBAC can read, so the write cannot be checked against the units you own; an admin can make it.`,
  },
  {
    name: 'a write within the days the record can be placed',
    who: deptOwner,
    facts: now,
    intents: [editInto('engagement', hopped, unit.dept, { date: '2026-01-10', until: '2026-01-20' })],
    verdict: 'allowed',
  },
  {
    name: 'a record the scan misses, found through its person',
    who: deptOwner,
    facts: now,
    intents: [terminateDetail('engagement', visited, before)],
    verdict: 'forbidden',
    reason: `You may not terminate engagement ${visited}: the write takes effect from 2026-02-01 to 2026-02-28, and on 2026-02-01 employee ${person.deptOwner} owns neither org unit ${ghost} nor any of its ancestors.`,
    reads: { include: [`e ${person.worker} engagement future @2026-01-15`] },
    byReading: {
      reads: { include: [`by_uuid engagement ${visited} @2026-01-15`], exclude: ['units', 'e '] },
    },
  },
  // Back-dated with no end, the edit would affect the record while it is in `other`.
  {
    name: 'an edit naming its old unit, with no end',
    who: deptOwner,
    facts: now,
    intents: [editInto('engagement', moved, unit.dept)],
    verdict: 'forbidden',
    reason: `You may not edit engagement ${moved}: the write takes effect from 2026-03-01 on, and on 2026-03-01 employee ${person.deptOwner} owns neither org unit ${unit.other} nor any of its ancestors.`,
  },
  {
    name: 'an edit naming its old unit, for its days there',
    who: deptOwner,
    facts: now,
    intents: [editInto('engagement', moved, unit.dept, { until: '2026-02-15' })],
    verdict: 'allowed',
    reads: { exclude: ['units'] },
  },
  // Issue 20, item 7: what needs no scan is refused before any scan starts.
  {
    name: 'a list whose cheap item is refused before the unknown one is scanned for',
    who: deptOwner,
    facts: now,
    intents: [
      terminateDetail('engagement', id(2000), on),
      terminateDetail('leave', id(2001), on, { newUnit: null }),
    ],
    verdict: 'forbidden',
    reason: `You may not terminate leave ${id(2001)}: a leave that belongs to no org unit needs the admin role.`,
    reads: 'none',
  },
];

describe.each(lookupPaths)('found through $path', ({ readingApi }) => {
  describe.each<[string, DecisionRow[]]>([
    ['the role', roles],
    ['units', units],
    ['details', details],
    ['the records an ou/create carries', unitCreates],
    ['ownership over the period a write affects', periods],
  ])('the decision on %s', (_part, rows) => {
    it.each(rows.map((row) => [row.name, row] as const))(
      '%s',
      async (
        _name,
        { who, rbacOff, intents, facts, verdict, reason: byScan, reads: scanReads, byReading },
      ) => {
        const reason = readingApi && byReading?.reason !== undefined ? byReading.reason : byScan;
        const reads = readingApi && byReading?.reads !== undefined ? byReading.reads : scanReads;
        const rbac = createRbacPolicy({ enabled: !rbacOff });
        const fake = facts ? timelineReads({ readingApi }) : treeReads({ readingApi });
        const decision = await rbac.decide(who, intents, {
          reads: fake.reads,
          today: facts?.timeline ?? timelineToday,
        });
        expect(
          decision.allowed ? 'allowed' : decision.conflict ? 'conflict' : 'forbidden',
          decision.reason,
        ).toBe(verdict);
        if (reason !== undefined) expect(decision.reason).toBe(reason);
        if (reads === 'none') expect(fake.calls).toEqual([]);
        else {
          for (const call of reads?.include ?? []) expect(fake.calls).toContain(call);
          for (const prefix of reads?.exclude ?? [])
            expect(fake.calls.filter((call) => call.startsWith(prefix))).toEqual([]);
        }
      },
    );
  });
});

describe('what an owner’s decision reads', () => {
  const rbac = createRbacPolicy({ enabled: true });
  const decideOn = async (
    reads: ReturnType<typeof treeReads>,
    who: Principal,
    intents: WriteIntent[],
    policy = rbac,
  ) => ({
    ...(await policy.decide(who, intents, { reads: reads.reads, today: timelineToday })),
    calls: reads.calls,
  });

  it('is nothing the token settles alone; a valid owner’s write needs the units', () => {
    expect(rbac.decideByRole(deptOwner)).toBeUndefined();
    expect(rbac.decideByRole(admin)).toMatchObject({ allowed: true });
  });

  it('walks the ancestors in one read and reads each unit’s owners once', async () => {
    const three = ['manager', 'engagement', 'owner'].map((type) =>
      createDetail(type as DetailType, unit.team),
    );
    const { allowed, calls } = await decideOn(treeReads(), deptOwner, three);
    expect(allowed).toBe(true);
    expect(calls.filter((call) => call === `ou ${unit.team}`)).toHaveLength(1);
    for (const each of [unit.team, unit.office, unit.dept, unit.root]) {
      expect(calls.filter((call) => call === `ou ${each} owner`)).toHaveLength(1);
    }
  });

  it('finds a detail through the hinted unit without a scan, and by scanning units otherwise', async () => {
    const hinted = await decideOn(treeReads({ readingApi: false }), deptOwner, [
      editInto('engagement', record.engagement, unit.team),
    ]);
    expect(hinted.allowed).toBe(true);
    expect(hinted.calls).not.toContain('units');
    expect(hinted.calls.filter((call) => call.startsWith('by_uuid'))).toEqual([]);
    const scanned = await decideOn(treeReads({ readingApi: false }), deptOwner, [
      terminateDetail('engagement', record.engagement, '2026-12-31'),
    ]);
    expect(scanned.allowed).toBe(true);
    // The reading API asked once (a 404: not served), then the units in force on the date and today, and
    // each unit's records in force then and scheduled after.
    expect(scanned.calls.filter((call) => call.startsWith('by_uuid'))).toHaveLength(1);
    expect(scanned.calls.filter((call) => call === 'units')).toHaveLength(2);
    expect(scanned.calls.filter((call) => call.endsWith(' engagement'))).toHaveLength(2 * 5);
  });

  it('finds a detail its hints do not place with one reading-API call where the backend serves it, not a scan', async () => {
    const terminate = [terminateDetail('engagement', record.engagement, '2026-12-31')];
    const read = await decideOn(treeReads(), deptOwner, terminate);
    const scanned = await decideOn(treeReads({ readingApi: false }), deptOwner, terminate);
    expect(read.allowed).toBe(true);
    expect(read.allowed).toBe(scanned.allowed);
    const locating = (calls: string[]) => calls.filter((call) => / engagement$|^units$|^by_uuid /.test(call));
    expect(locating(read.calls)).toEqual([`by_uuid engagement ${record.engagement}`]);
    // Without the reading API: its 404, two unit pages and two listings per unit (five units).
    expect(locating(scanned.calls)).toHaveLength(1 + 2 + 2 * 5);
    // The unit's ancestors and their owners are read alike on both paths.
    expect(read.calls.filter((call) => !locating([call]).length)).toEqual(
      scanned.calls.filter((call) => !locating([call]).length),
    );
  });

  it('reads a list of unknown details by UUID, a few at a time, and stops at the first refusal', async () => {
    const list = Array.from({ length: 100 }, (_, n) => terminateDetail('engagement', id(1000 + n), on));
    const { allowed, reason, calls } = await decideOn(timelineReads(), deptOwner, list);
    expect(allowed).toBe(false);
    expect(reason).toContain(id(1000));
    expect(calls.filter((call) => call.startsWith('units'))).toEqual([]);
    // At most the items decided at once (eight) are read before the first refusal stops the list.
    const lookups = calls.filter((call) => call.startsWith('by_uuid engagement'));
    expect(lookups[0]).toBe(`by_uuid engagement ${id(1000)} @${on}`);
    expect(lookups.length).toBeLessThanOrEqual(8);
  });

  it('reads the unit once per place it has within the period', async () => {
    const { calls } = await decideOn(timelineReads(), otherOwner, [changeUnit(unit.team, on)]);
    expect(calls.filter((call) => call.startsWith(`ou ${unit.team} @`))).toEqual([
      `ou ${unit.team} @2026-01-01`,
    ]);
    const owned = await decideOn(timelineReads(), deptOwner, [
      changeUnit(unit.team, '2025-01-01', '2026-02-28'),
    ]);
    expect(owned.allowed).toBe(true);
    expect(owned.calls.filter((call) => call.startsWith(`ou ${unit.team} @`))).toEqual([
      `ou ${unit.team} @2025-01-01`,
    ]);
  });

  it('scans once for a whole list of unknown details, and stops at the first refusal', async () => {
    const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
    const list = Array.from({ length: 400 }, (_, n) => terminateDetail('engagement', id(1000 + n), day(n)));
    const wide = createRbacPolicy({ enabled: true, maxOwnerItems: 500 });
    const { allowed, reason, calls } = await decideOn(
      timelineReads({ readingApi: false }),
      deptOwner,
      list,
      wide,
    );
    expect(allowed).toBe(false);
    expect(reason).toContain(id(1000));
    // A backend without the reading API is asked once a decision: the other items wait for its answer.
    expect(calls.filter((call) => call.startsWith('by_uuid'))).toHaveLength(1);
    // Two unit pages (the earliest date and today) and two listings per unit, whatever the list's length.
    expect(calls.filter((call) => call.startsWith('units'))).toEqual([
      'units @2026-01-01',
      `units @${timelineToday}`,
    ]);
    expect(calls.filter((call) => call.startsWith('ou ') && call.includes(' engagement '))).toHaveLength(
      2 * 4,
    );
  });

  it('scans one detail type at a time, and stops at the first refusal (issue 20, item 7)', async () => {
    const types: DetailType[] = [
      'engagement',
      'manager',
      'owner',
      'it',
      'address',
      'association',
      'role',
      'kle',
    ];
    const eightTypes = types.map((type, n) => terminateDetail(type, id(2100 + n), on));
    const scanned = await decideOn(timelineReads({ readingApi: false }), deptOwner, eightTypes);
    expect(scanned).toMatchObject({ allowed: false, reason: new RegExp(id(2100)) });
    // The engagements' scan only: two unit pages and two listings per unit.
    expect(scanned.calls.filter((call) => call.startsWith('units'))).toHaveLength(2);
    expect(
      scanned.calls.filter((call) => !call.includes(' engagement ') && !call.startsWith('units')),
    ).toEqual([]);
  });

  it('refuses instead of scanning more units than the bound', async () => {
    const bounded = createRbacPolicy({ enabled: true, maxScanUnits: 3 });
    const terminate = [terminateDetail('engagement', stays, timelineToday)];
    const decision = await decideOn(timelineReads({ readingApi: false }), deptOwner, terminate, bounded);
    expect(decision).toMatchObject({
      allowed: false,
      reason: `You may not terminate engagement ${stays}: finding it would mean reading 4 org units, more than RBAC searches for an owner; name its unit (data.org_unit) in an edit, or ask an admin.`,
    });
    expect(
      decision.calls.filter((call) => call.includes(' engagement ') && !call.startsWith('by_uuid')),
    ).toEqual([]);
    // The bound is the scan's: through the reading API no unit is scanned, and the record's unit decides.
    const read = await decideOn(timelineReads(), deptOwner, terminate, bounded);
    expect(read).toMatchObject({
      allowed: false,
      reason: `You may not terminate engagement ${stays}: the write takes effect from ${timelineToday} on, and on ${timelineToday} employee ${person.deptOwner} owns neither org unit ${unit.team} nor any of its ancestors.`,
    });
  });

  it('refuses an owner’s list over the cap before reading anything, and never an admin’s', async () => {
    const capped = createRbacPolicy({ enabled: true, maxOwnerItems: 3 });
    const list = Array.from({ length: 4 }, () => createDetail('manager', unit.team));
    const decision = await decideOn(timelineReads(), deptOwner, list, capped);
    expect(decision).toMatchObject({
      allowed: false,
      reason:
        'You may not send 4 writes in one request: the owner role may send at most 3, because each is checked against the units you own. Split the list.',
    });
    expect(decision.calls).toEqual([]);
    expect((await decideOn(timelineReads(), admin, list, capped)).allowed).toBe(true);
  });
});
