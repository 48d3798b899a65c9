import { describe, expect, it } from 'vitest';
import type { Principal } from '../auth/token-verifier.js';
import type { DetailType, LegacyRecord } from '../legacy/legacy-loaders.js';
import { LegacyResponseError } from '../legacy/legacy-client.js';
import { createRbacPolicy } from './rbac-policy.js';
import { periodOf } from './write-period.js';
import { writeIntents } from './write-intents.js';
import type { WriteIntent } from './write-intent.js';
import type { OrganisationReads } from './unit-ownership.js';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

// root ─┬─ dept (owned by deptOwner) ── office (owned by officeOwner) ── team
//       └─ other (owned by otherOwner)
// `future` exists only from 2030 under `other`.
const unit = { root: id(1), dept: id(2), office: id(3), team: id(4), other: id(5), future: id(6) };
const person = { deptOwner: id(11), officeOwner: id(12), otherOwner: id(13), worker: id(14) };
const record = {
  engagement: id(21),
  personOwner: id(22),
  ownerRecord: id(23),
  association: id(24),
  address: id(25),
};
const parents: Record<string, string | null> = {
  [unit.root]: null,
  [unit.dept]: unit.root,
  [unit.office]: unit.dept,
  [unit.team]: unit.office,
  [unit.other]: unit.root,
  [unit.future]: unit.other,
};
const owners: Record<string, string[]> = {
  [unit.dept]: [person.deptOwner],
  [unit.office]: [person.officeOwner],
  [unit.other]: [person.otherOwner],
};
const details: Partial<Record<DetailType, LegacyRecord[]>> = {
  engagement: [{ uuid: record.engagement, org_unit: { uuid: unit.team }, person: { uuid: person.worker } }],
  manager: [],
  owner: [
    { uuid: record.ownerRecord, org_unit: { uuid: unit.office }, owner: { uuid: person.officeOwner } },
    { uuid: record.personOwner, org_unit: null, person: { uuid: person.worker }, owner: { uuid: id(99) } },
  ],
  it: [],
  association: [{ uuid: record.association, org_unit: { uuid: unit.team }, person: { uuid: person.worker } }],
  // A person's address: no unit.
  address: [{ uuid: record.address, person: { uuid: person.worker } }],
};

/** An in-memory legacy service that counts its reads. */
function fakeReads() {
  const calls: string[] = [];
  const exists = (uuid: string, at: string) =>
    uuid in parents && (uuid !== unit.future || at >= '2030-01-01');
  const chain = (uuid: string): LegacyRecord => {
    const parent = parents[uuid];
    return { uuid, parent: parent ? chain(parent) : null };
  };
  const reads: OrganisationReads = {
    orgUnit: async (uuid, at) => {
      calls.push(`ou ${uuid}`);
      return exists(uuid, at) ? chain(uuid) : null;
    },
    unitDetails: async (type, uuid) => {
      calls.push(`ou ${uuid} ${type}`);
      if (!(uuid in parents)) throw new LegacyResponseError(404, { error_key: 'E_ORG_UNIT_NOT_FOUND' });
      if (type === 'owner' && owners[uuid]) {
        return [
          ...owners[uuid].map((owner) => ({ uuid: id(50), owner: { uuid: owner }, org_unit: { uuid } })),
          ...(details.owner ?? []).filter((found) => (found.org_unit as LegacyRecord | null)?.uuid === uuid),
        ];
      }
      return (details[type] ?? []).filter((found) => (found.org_unit as LegacyRecord | null)?.uuid === uuid);
    },
    employeeDetails: async (type, uuid) => {
      calls.push(`e ${uuid} ${type}`);
      return (details[type] ?? []).filter((found) => (found.person as LegacyRecord | null)?.uuid === uuid);
    },
    orgUnitVersions: async (uuid, at) => {
      calls.push(`ou ${uuid} versions`);
      return uuid === unit.future && at < '2030-01-01'
        ? [{ uuid, validity: { from: '2030-01-01', to: null } }]
        : [];
    },
    unitExists: async (uuid) => {
      calls.push(`ou ${uuid} exists`);
      return uuid in parents;
    },
    orgUnitPage: async (at) => {
      calls.push('units');
      return {
        items: Object.keys(parents)
          .filter((uuid) => exists(uuid, at))
          .map((uuid) => ({ uuid })),
      };
    },
  };
  return { reads, calls };
}

const principal = (roles: string[], employeeUuid?: string): Principal => ({
  subject: id(90),
  username: 'someone',
  clientId: 'org-frontend',
  roles,
  employeeUuid,
});

const validity = { from: '2026-01-01' };
const post = (path: string, body: unknown) => ({ method: 'POST', path, body });

describe('writeIntents: what a /service write touches', () => {
  const cases: [string, ReturnType<typeof post> & { method?: string }, WriteIntent[]][] = [
    [
      'a unit under a parent (UUID case folded, trailing slash)',
      post('/service/ou/create/', { parent: { uuid: unit.team.toUpperCase() }, validity }),
      [{ kind: 'create_unit', parent: unit.team, date: '2026-01-01' }],
    ],
    [
      'a top-level unit',
      post('/service/ou/create', { name: 'x', validity }),
      [{ kind: 'create_unit', parent: null, date: '2026-01-01' }],
    ],
    [
      'an employee',
      post('/service/e/create', { givenname: 'a' }),
      [{ kind: 'employee', action: 'create', uuid: null }],
    ],
    [
      'a list of details: a unit and a person',
      post('/service/details/create', [
        { type: 'manager', org_unit: { uuid: unit.team }, validity },
        { type: 'owner', person: { uuid: person.worker }, owner: { uuid: id(7) }, validity },
      ]),
      [
        { kind: 'create_detail', type: 'manager', unit: unit.team, date: '2026-01-01' },
        { kind: 'create_detail', type: 'owner', unit: null, date: '2026-01-01' },
      ],
    ],
    [
      'every other detail type: unit records, addresses of a unit, a person or an engagement, and a leave',
      post('/service/details/create', [
        { type: 'association', org_unit: { uuid: unit.team }, person: { uuid: person.worker }, validity },
        { type: 'role', org_unit: { uuid: unit.team }, person: { uuid: person.worker }, validity },
        { type: 'kle', org_unit: { uuid: unit.team }, validity },
        {
          type: 'engagement_association',
          org_unit: { uuid: unit.team },
          engagement: { uuid: id(21) },
          validity,
        },
        { type: 'address', org_unit: { uuid: unit.team }, validity },
        { type: 'address', person: { uuid: person.worker }, validity },
        { type: 'address', engagement: { uuid: id(21) }, validity },
        { type: 'leave', person: { uuid: person.worker }, engagement: { uuid: id(21) }, validity },
      ]),
      [
        { kind: 'create_detail', type: 'association', unit: unit.team, date: '2026-01-01' },
        { kind: 'create_detail', type: 'role', unit: unit.team, date: '2026-01-01' },
        { kind: 'create_detail', type: 'kle', unit: unit.team, date: '2026-01-01' },
        { kind: 'create_detail', type: 'engagement_association', unit: unit.team, date: '2026-01-01' },
        { kind: 'create_detail', type: 'address', unit: unit.team, date: '2026-01-01' },
        { kind: 'create_detail', type: 'address', unit: null, date: '2026-01-01' },
        { kind: 'create_detail', type: 'address', unit: null, date: '2026-01-01' },
        { kind: 'create_detail', type: 'leave', unit: null, date: '2026-01-01' },
      ],
    ],
    [
      'a unit record without its unit, and a related unit (written through /ou/{uuid}/map)',
      post('/service/details/create', [
        { type: 'role', person: { uuid: person.worker }, validity },
        { type: 'related_unit', org_unit: { uuid: unit.team }, validity },
      ]),
      [
        { kind: 'unreadable', problem: '[0].org_unit is required' },
        { kind: 'unreadable', problem: expect.stringContaining('[1].type') as unknown as string },
      ],
    ],
    [
      'a leave ended, and an address moved onto a person',
      post('/service/details/terminate', { type: 'leave', uuid: id(40), validity: { to: '2026-05-31' } }),
      [
        {
          kind: 'change_detail',
          action: 'terminate',
          type: 'leave',
          uuid: id(40),
          date: '2026-05-31',
          newUnit: null,
          hints: { units: [], persons: [] },
        },
      ],
    ],
    [
      'a rename',
      post('/service/details/edit', {
        type: 'org_unit',
        uuid: unit.team,
        data: { uuid: unit.team, name: 'y', validity },
      }),
      [{ kind: 'change_unit', unit: unit.team, date: '2026-01-01' }],
    ],
    [
      'a rename naming the unit in data.uuid only, as OS2mo reads it',
      post('/service/details/edit', { type: 'org_unit', data: { uuid: unit.team, name: 'y', validity } }),
      [{ kind: 'change_unit', unit: unit.team, date: '2026-01-01' }],
    ],
    [
      'a move, and a move to the top',
      post('/service/details/edit', [
        {
          type: 'org_unit',
          uuid: unit.team,
          data: { uuid: unit.team, parent: { uuid: unit.other }, validity },
        },
        { type: 'org_unit', uuid: unit.team, data: { uuid: unit.team, parent: null, validity } },
      ]),
      [
        { kind: 'move_unit', unit: unit.team, parent: unit.other, date: '2026-01-01' },
        { kind: 'move_unit', unit: unit.team, parent: null, date: '2026-01-01' },
      ],
    ],
    [
      'an engagement edit that moves it, with the new unit and person as hints',
      post('/service/details/edit', {
        type: 'engagement',
        uuid: record.engagement,
        data: { org_unit: { uuid: unit.other }, person: { uuid: person.worker }, validity },
      }),
      [
        {
          kind: 'change_detail',
          action: 'edit',
          type: 'engagement',
          uuid: record.engagement,
          date: '2026-01-01',
          newUnit: unit.other,
          hints: { units: [unit.other], persons: [person.worker] },
        },
      ],
    ],
    [
      'an owner record edited onto a person',
      post('/service/details/edit', {
        type: 'owner',
        uuid: record.ownerRecord,
        data: { person: { uuid: person.worker }, org_unit: null, validity },
      }),
      [
        {
          kind: 'change_detail',
          action: 'edit',
          type: 'owner',
          uuid: record.ownerRecord,
          date: '2026-01-01',
          newUnit: null,
          hints: { units: [], persons: [] },
        },
      ],
    ],
    [
      'an employee edit',
      post('/service/details/edit', { type: 'employee', uuid: person.worker, data: { validity } }),
      [{ kind: 'employee', action: 'edit', uuid: person.worker }],
    ],
    [
      'a detail termination',
      post('/service/details/terminate', { type: 'manager', uuid: id(30), validity: { to: '2026-05-31' } }),
      [
        {
          kind: 'change_detail',
          action: 'terminate',
          type: 'manager',
          uuid: id(30),
          date: '2026-05-31',
          hints: { units: [], persons: [] },
        },
      ],
    ],
    [
      'a unit termination (its last day, the deprecated form)',
      post(`/service/ou/${unit.team}/terminate`, { validity: { to: '2026-05-31' } }),
      [{ kind: 'terminate_unit', unit: unit.team, date: '2026-05-31' }],
    ],
    [
      'a unit termination for a period (inactive from `from` through `to`)',
      post(`/service/ou/${unit.team}/terminate`, { validity: { from: '2026-01-01', to: '2026-05-31' } }),
      [{ kind: 'terminate_unit', unit: unit.team, date: '2026-01-01', until: '2026-05-31' }],
    ],
    [
      'a unit termination for good from a date (`to: null`)',
      post(`/service/ou/${unit.team}/terminate`, { validity: { from: '2026-01-01', to: null } }),
      [{ kind: 'terminate_unit', unit: unit.team, date: '2026-01-01' }],
    ],
    [
      'an employee termination',
      post(`/service/e/${person.worker}/terminate`, { validity: { to: '2026-05-31' } }),
      [{ kind: 'employee', action: 'terminate', uuid: person.worker }],
    ],
  ];
  it.each(cases)('%s', (_name, write, expected) => {
    expect(writeIntents(write)).toEqual(expected);
  });

  const unreadable: [string, { method: string; path: string; body: unknown }, string][] = [
    ['another method', { method: 'PUT', path: '/service/ou/create', body: {} }, 'not a write endpoint'],
    ['an unknown path', post('/service/ou/create/again', {}), 'not a write endpoint'],
    ['a read path', post('/service/o/', {}), 'not a write endpoint'],
    ['an inherited property name as the endpoint', post('/service/details/constructor', {}), 'not a write'],
    ['a list for ou/create', post('/service/ou/create', [{}]), 'must be a JSON object'],
    [
      'a parent that is not a reference',
      post('/service/ou/create', { parent: unit.team, validity }),
      'parent',
    ],
    ['an impossible date', post('/service/ou/create', { validity: { from: '2026-02-30' } }), 'validity.from'],
    ['an unknown detail type', post('/service/details/create', { type: 'related_unit', validity }), 'type'],
    [
      'an engagement without a unit',
      post('/service/details/create', { type: 'engagement', validity }),
      'org_unit',
    ],
    [
      'a bad item in a list',
      post('/service/details/terminate', [{ type: 'manager', uuid: 'nope', validity: { to: '2026-01-01' } }]),
      '[0].uuid',
    ],
    ['a unit UUID in the path that is not one', post('/service/ou/team/terminate', { validity }), 'path'],
    [
      'a unit termination with `from` but no `to`',
      post(`/service/ou/${unit.team}/terminate`, { validity }),
      'validity.to',
    ],
    [
      'a unit edit without data.uuid',
      post('/service/details/edit', { type: 'org_unit', uuid: unit.team, data: { name: 'y', validity } }),
      'data.uuid',
    ],
    [
      'a unit edit whose top-level uuid names another unit than data.uuid',
      post('/service/details/edit', {
        type: 'org_unit',
        uuid: unit.office,
        data: { uuid: unit.team, name: 'y', validity },
      }),
      'names another unit than data.uuid',
    ],
  ];
  it.each(unreadable)('%s is unreadable', (_name, write, problem) => {
    const [intent] = writeIntents(write);
    expect(intent?.kind).toBe('unreadable');
    expect(intent?.kind === 'unreadable' && intent.problem).toContain(problem);
  });
});

describe('the decision', () => {
  const rbac = createRbacPolicy({ enabled: true });
  const decide = async (who: Principal, write: ReturnType<typeof post>) => {
    const fake = fakeReads();
    const decision = await rbac.decide(who, writeIntents(write), { reads: fake.reads, today: '2026-06-01' });
    return { ...decision, calls: fake.calls };
  };
  const createUnder = (parent: string) => post('/service/ou/create', { parent: { uuid: parent }, validity });

  it('is settled by the token alone when RBAC is off, for an admin, and without a role', async () => {
    const off = createRbacPolicy({ enabled: false });
    expect(off.decideByRole(principal([]))?.allowed).toBe(true);
    expect(rbac.decideByRole(principal(['admin']))?.allowed).toBe(true);
    expect(rbac.decideByRole(principal(['admin', 'owner'], person.deptOwner))?.allowed).toBe(true);
    expect(rbac.decideByRole(principal([]))).toMatchObject({ allowed: false, reason: /admin role/ });
    expect(rbac.decideByRole(principal(['owner']))).toMatchObject({ allowed: false, reason: /uuid claim/ });
    expect(rbac.decideByRole(principal(['owner'], 'oscar'))).toMatchObject({ allowed: false });
    expect(rbac.decideByRole(principal(['owner'], person.deptOwner))).toBeUndefined();
    const noRole = await decide(principal([]), createUnder(unit.team));
    expect(noRole.allowed).toBe(false);
    expect(noRole.calls).toEqual([]);
  });

  const deptOwner = principal(['owner'], person.deptOwner);
  const officeOwner = principal(['owner'], person.officeOwner);
  const moveTeam = (parent: string | null) =>
    post('/service/details/edit', {
      type: 'org_unit',
      uuid: unit.team,
      data: { uuid: unit.team, parent: parent === null ? null : { uuid: parent }, validity },
    });
  const table: [string, Principal, ReturnType<typeof post>, boolean, RegExp?][] = [
    // The office between dept and team has another owner: inherit_owner would stop there; the walk does not.
    ['owner of an ancestor above another owner creates below', deptOwner, createUnder(unit.team), true],
    ['owner of the unit itself', officeOwner, createUnder(unit.office), true],
    ['owner of a descendant only', officeOwner, createUnder(unit.dept), false, /owns neither/],
    ['owner elsewhere', principal(['owner'], person.otherOwner), createUnder(unit.team), false],
    ['a top-level unit', deptOwner, post('/service/ou/create', { validity }), false, /admin role/],
    ['a move inside owned units', deptOwner, moveTeam(unit.dept), true],
    ['a move to an unowned parent', deptOwner, moveTeam(unit.other), false, new RegExp(unit.other)],
    ['a move to the top level', deptOwner, moveTeam(null), false, /top level needs the admin role/],
    [
      'a move of an unowned unit into owned ones',
      principal(['owner'], person.otherOwner),
      moveTeam(unit.other),
      false,
      new RegExp(unit.team),
    ],
    ['an employee', deptOwner, post('/service/e/create', {}), false, /employee is not an org unit/],
    [
      'a parent that does not exist yet on the date',
      principal(['owner'], person.otherOwner),
      createUnder(unit.future),
      false,
      /does not exist on 2026-01-01/,
    ],
    [
      'a record of a person',
      deptOwner,
      post('/service/details/create', { type: 'it', person: { uuid: person.worker }, validity }),
      false,
      /admin role/,
    ],
    [
      'a KLE number, a role and an address in an owned unit',
      deptOwner,
      post('/service/details/create', [
        { type: 'kle', org_unit: { uuid: unit.team }, validity },
        { type: 'role', org_unit: { uuid: unit.team }, person: { uuid: person.worker }, validity },
        { type: 'address', org_unit: { uuid: unit.team }, validity },
      ]),
      true,
    ],
    [
      'an engagement association in a unit owned by someone else',
      principal(['owner'], person.otherOwner),
      post('/service/details/create', {
        type: 'engagement_association',
        org_unit: { uuid: unit.team },
        engagement: { uuid: id(21) },
        validity,
      }),
      false,
      /owns neither/,
    ],
    [
      'an address of a person',
      deptOwner,
      post('/service/details/create', { type: 'address', person: { uuid: person.worker }, validity }),
      false,
      /an address of an employee needs the admin role/,
    ],
    [
      'a leave',
      deptOwner,
      post('/service/details/create', { type: 'leave', person: { uuid: person.worker }, validity }),
      false,
      /a leave of an employee needs the admin role/,
    ],
    [
      'the end of a leave',
      deptOwner,
      post('/service/details/terminate', { type: 'leave', uuid: id(40), validity: { to: '2026-05-31' } }),
      false,
      /a leave that belongs to no org unit needs the admin role/,
    ],
    [
      'an edit of an association in an owned unit',
      deptOwner,
      post('/service/details/edit', {
        type: 'association',
        uuid: record.association,
        data: { org_unit: { uuid: unit.team }, validity },
      }),
      true,
    ],
    [
      'the end of an association in a unit owned by someone else',
      principal(['owner'], person.otherOwner),
      post('/service/details/terminate', {
        type: 'association',
        uuid: record.association,
        validity: { to: '2026-05-31' },
      }),
      false,
      /owns neither/,
    ],
    [
      "the end of a person's address",
      deptOwner,
      post('/service/details/terminate', {
        type: 'address',
        uuid: record.address,
        validity: { to: '2026-05-31' },
      }),
      false,
      /no address .* is in force in an org unit/,
    ],
    [
      'a related unit',
      deptOwner,
      post('/service/ou/' + unit.team + '/map', { destination: [unit.office], validity }),
      false,
      /admin role/,
    ],
    [
      'a list where one item is outside',
      deptOwner,
      post('/service/details/create', [
        { type: 'manager', org_unit: { uuid: unit.team }, validity },
        { type: 'manager', org_unit: { uuid: unit.other }, validity },
      ]),
      false,
      new RegExp(unit.other),
    ],
  ];
  it.each(table)('%s', async (_name, who, write, allowed, reason) => {
    const decision = await decide(who, write);
    expect(decision.allowed).toBe(allowed);
    if (reason) expect(decision.reason).toMatch(reason);
  });

  it('walks the ancestors in one read and reads each unit’s owners once', async () => {
    const three = post('/service/details/create', [
      { type: 'manager', org_unit: { uuid: unit.team }, validity },
      { type: 'engagement', org_unit: { uuid: unit.team }, validity },
      { type: 'owner', org_unit: { uuid: unit.team }, validity },
    ]);
    const { allowed, calls } = await decide(deptOwner, three);
    expect(allowed).toBe(true);
    expect(calls.filter((call) => call === `ou ${unit.team}`)).toHaveLength(1);
    for (const each of [unit.team, unit.office, unit.dept, unit.root]) {
      expect(calls.filter((call) => call === `ou ${each} owner`)).toHaveLength(1);
    }
  });

  it('finds a detail through the hinted unit without a scan, and by scanning units otherwise', async () => {
    const hinted = await decide(
      deptOwner,
      post('/service/details/edit', {
        type: 'engagement',
        uuid: record.engagement,
        data: { org_unit: { uuid: unit.team }, validity },
      }),
    );
    expect(hinted.allowed).toBe(true);
    expect(hinted.calls).not.toContain('units');

    const scanned = await decide(
      deptOwner,
      post('/service/details/terminate', {
        type: 'engagement',
        uuid: record.engagement,
        validity: { to: '2026-12-31' },
      }),
    );
    expect(scanned.allowed).toBe(true);
    // The units in force on the date and today; each unit's records in force then and scheduled after.
    expect(scanned.calls.filter((call) => call === 'units')).toHaveLength(2);
    expect(scanned.calls.filter((call) => call.endsWith(' engagement'))).toHaveLength(2 * 5);
  });

  it('checks a detail edit against the current unit and the new one', async () => {
    const away = await decide(
      deptOwner,
      post('/service/details/edit', {
        type: 'engagement',
        uuid: record.engagement,
        data: { org_unit: { uuid: unit.other }, validity },
      }),
    );
    expect(away).toMatchObject({ allowed: false, reason: new RegExp(unit.other) });
    const intoOwned = await decide(
      principal(['owner'], person.otherOwner),
      post('/service/details/edit', {
        type: 'engagement',
        uuid: record.engagement,
        data: { org_unit: { uuid: unit.other }, validity },
      }),
    );
    expect(intoOwned).toMatchObject({ allowed: false, reason: new RegExp(unit.team) });
  });

  it('keeps an owner from making himself owner: a new owner record, or an edit that keeps or re-dates his', async () => {
    // Issue 20, item 4: an owner's open-ended edit of his own owner record re-appointed him past an end an
    // admin had set; his ownership is judged by his owner records, so he may not write his own.
    const officeOwner = principal(['owner'], person.officeOwner);
    const appoint = (who: string) =>
      post('/service/details/create', {
        type: 'owner',
        org_unit: { uuid: unit.team },
        owner: { uuid: who },
        validity,
      });
    expect(await decide(officeOwner, appoint(person.officeOwner))).toMatchObject({
      allowed: false,
      reason: /owner record that makes you owner needs the admin role/,
    });
    expect((await decide(officeOwner, appoint(person.worker))).allowed).toBe(true);

    const redate = (data: Record<string, unknown>) =>
      post('/service/details/edit', { type: 'owner', uuid: record.ownerRecord, data: { ...data, validity } });
    // The record in `office` names the office owner: he may not re-date it, the dept owner above may.
    expect(await decide(officeOwner, redate({}))).toMatchObject({
      allowed: false,
      reason: /makes you owner/,
    });
    expect((await decide(officeOwner, redate({ owner: { uuid: person.worker } }))).allowed).toBe(true);
    expect((await decide(deptOwner, redate({}))).allowed).toBe(true);
    expect((await decide(deptOwner, redate({ owner: { uuid: person.deptOwner } }))).allowed).toBe(false);
    // Ending his own ownership only narrows his rights.
    const terminate = post('/service/details/terminate', {
      type: 'owner',
      uuid: record.ownerRecord,
      validity: { to: '2026-12-31' },
    });
    expect((await decide(officeOwner, terminate)).allowed).toBe(true);
  });

  it('refuses a detail it cannot place in an owned unit', async () => {
    const missing = await decide(
      deptOwner,
      post('/service/details/terminate', { type: 'manager', uuid: id(77), validity: { to: '2026-12-31' } }),
    );
    expect(missing).toMatchObject({
      allowed: false,
      reason: /no manager record .* is in force in an org unit/,
    });
    const ofPerson = await decide(
      deptOwner,
      post('/service/details/edit', {
        type: 'owner',
        uuid: record.personOwner,
        data: { owner: { uuid: person.deptOwner }, validity },
      }),
    );
    expect(ofPerson.allowed).toBe(false);
  });

  // Issue 28: OS2mo 2.4.0 writes a create over the object that has its UUID (orgunit.py, `create_org_unit`:
  // `util.get_uuid(req, required=False)`, then a LoRa PUT of that UUID).
  it('refuses an owner’s unit create whose uuid names a unit, with a conflict that says nothing of it', async () => {
    const overOther = await decide(
      deptOwner,
      post('/service/ou/create', { uuid: unit.other, parent: { uuid: unit.team }, validity }),
    );
    expect(overOther).toMatchObject({ allowed: false, conflict: true });
    expect(overOther.reason).toMatch(/already names an org unit/);
    expect(overOther.reason).not.toMatch(new RegExp(`${unit.root}|${person.otherOwner}`));
    expect(overOther.calls).toContain(`ou ${unit.other} exists`);
    // Even his own unit: a create would replace its whole history, which an edit never does.
    const overOwn = await decide(
      deptOwner,
      post('/service/ou/create', { uuid: unit.office, parent: { uuid: unit.team }, validity }),
    );
    expect(overOwn).toMatchObject({ allowed: false, conflict: true });
    const fresh = await decide(
      deptOwner,
      post('/service/ou/create', { uuid: id(88), parent: { uuid: unit.team }, validity }),
    );
    expect(fresh.allowed).toBe(true);
    // Not under his own unit: refused as before, and nothing tells him whether the UUID is in use.
    const elsewhere = await decide(
      principal(['owner'], person.otherOwner),
      post('/service/ou/create', { uuid: unit.dept, parent: { uuid: unit.team }, validity }),
    );
    expect(elsewhere).toMatchObject({ allowed: false, reason: /owns neither/ });
    expect(elsewhere.conflict).toBeUndefined();
    expect(elsewhere.calls).not.toContain(`ou ${unit.dept} exists`);
  });

  it('leaves a detail’s chosen uuid to admins, since no cheap read tells whether it is free', async () => {
    const kle = { type: 'kle', org_unit: { uuid: unit.team }, validity };
    const chosen = await decide(
      deptOwner,
      post('/service/details/create', { ...kle, uuid: record.engagement }),
    );
    expect(chosen).toMatchObject({ allowed: false, reason: /uuid you choose needs the admin role/ });
    expect(chosen.reason).not.toMatch(/engagement/);
    expect(chosen.calls).toEqual([]);
    const listed = await decide(deptOwner, post('/service/details/create', [kle, { ...kle, uuid: id(89) }]));
    expect(listed.allowed).toBe(false);
    expect((await decide(deptOwner, post('/service/details/create', kle))).allowed).toBe(true);
    expect(rbac.decideByRole(principal(['admin']))?.allowed).toBe(true);
  });

  // Issue 35, item 8: OS2mo 2.4.0 creates every item of an ou/create's `details` (orgunit.py 150–157, with
  // `_inject_org_units` 370–380 setting its unit); our contract adds `addresses`. Each is judged as a create.
  describe('the records an ou/create carries', () => {
    const unitCreate = (extra: Record<string, unknown>) =>
      post('/service/ou/create', { parent: { uuid: unit.team }, validity, ...extra });
    const ownerOf = (org: string | undefined, owner: string) => ({
      type: 'owner',
      ...(org === undefined ? {} : { org_unit: { uuid: org } }),
      owner: { uuid: owner },
      validity,
    });

    it('are write intents of their own, in the new unit judged by its parent', () => {
      expect(
        writeIntents(
          unitCreate({
            uuid: id(77),
            details: [{ type: 'kle', validity }, { ...ownerOf(id(77), person.worker) }],
            addresses: [{ value: 'x@example.org', validity }],
          }),
        ),
      ).toEqual([
        { kind: 'create_unit', parent: unit.team, date: '2026-01-01', uuid: id(77) },
        { kind: 'create_detail', type: 'kle', unit: unit.team, date: '2026-01-01', inNewUnit: true },
        {
          kind: 'create_detail',
          type: 'owner',
          unit: unit.team,
          date: '2026-01-01',
          appoints: person.worker,
          inNewUnit: true,
        },
        { kind: 'create_detail', type: 'address', unit: unit.team, date: '2026-01-01', inNewUnit: true },
      ]);
      expect(writeIntents(unitCreate({ details: { type: 'kle' } }))[1]).toMatchObject({
        kind: 'unreadable',
        problem: 'details must be a list',
      });
      expect(writeIntents(unitCreate({ addresses: [{ type: 'kle', validity }] }))[1]).toMatchObject({
        kind: 'create_detail',
        type: 'kle',
      });
    });

    it.each<[string, Record<string, unknown>, RegExp]>([
      ['an owner record of another unit', { details: [ownerOf(unit.other, id(98))] }, new RegExp(unit.other)],
      [
        'an owner record naming the writer',
        { details: [ownerOf(undefined, person.deptOwner)] },
        /makes you owner needs the admin role/,
      ],
      [
        'a record with a uuid of its own',
        { addresses: [{ uuid: record.address, value: 'x', validity }] },
        /uuid you choose needs the admin role/,
      ],
      [
        'a record of a person',
        { details: [{ type: 'it', person: { uuid: person.worker }, validity }] },
        /of an employee needs the admin role/,
      ],
      ['a record without a validity', { details: [{ type: 'kle' }] }, /details\[0\]\.validity/],
      ['a record that is not an object', { addresses: ['x'] }, /addresses\[0\] must be a JSON object/],
    ])('refuse an owner %s', async (_name, extra, reason) => {
      const decision = await decide(deptOwner, unitCreate(extra));
      expect(decision).toMatchObject({ allowed: false, reason });
    });

    it('let an owner create records in the new unit, and an admin anything', async () => {
      const body = {
        details: [ownerOf(undefined, person.worker), { type: 'kle', validity }],
        addresses: [{ value: 'x@example.org', validity }],
      };
      const allowed = await decide(deptOwner, unitCreate(body));
      expect(allowed).toMatchObject({ allowed: true });
      expect(allowed.calls).not.toContain(`ou ${unit.other}`);
      const other = await decide(principal(['owner'], person.otherOwner), unitCreate(body));
      expect(other).toMatchObject({ allowed: false, reason: /owns neither org unit/ });
      expect(rbac.decideByRole(principal(['admin']))?.allowed).toBe(true);
    });
  });
});

describe('ownership over the period a write affects', () => {
  // Today is 2026-06-01. `team` lay under `dept` until 2026-02-28 and lies under `other` from 2026-03-01.
  // Engagement `stays` is in `team` throughout; engagement `moved` was in `dept` and is in `other` from
  // 2026-03-01 (the record itself moved, not its unit).
  const today = '2026-06-01';
  const stays = id(31);
  const moved = id(32);
  const open: { from: string; to: string | null } = { from: '2000-01-01', to: null };
  const teamVersions = [
    { from: '2000-01-01', to: '2026-02-28', parent: unit.dept },
    { from: '2026-03-01', to: null, parent: unit.other },
  ];
  // `ghost` lay under `other` in February 2026 only: the scan's unit pages (the scan date and today) miss it.
  // Engagements `hopped` (no person) and `visited` (the worker's) spent February in it, and are in `dept`
  // before and after.
  const ghost = id(7);
  const hopped = id(33);
  const visited = id(34);
  const viaGhost = (uuid: string, worker?: string) =>
    [
      { unit: unit.dept, from: '2000-01-01', to: '2026-01-31' },
      { unit: ghost, from: '2026-02-01', to: '2026-02-28' },
      { unit: unit.dept, from: '2026-03-01', to: null },
    ].map(({ unit: at, from, to }) => ({
      uuid,
      org_unit: { uuid: at },
      ...(worker ? { person: { uuid: worker } } : {}),
      validity: { from, to },
    }));
  const engagements: {
    uuid: string;
    org_unit: { uuid: string };
    person?: { uuid: string };
    validity: typeof open;
  }[] = [
    { uuid: stays, org_unit: { uuid: unit.team }, validity: open },
    { uuid: moved, org_unit: { uuid: unit.dept }, validity: { from: '2000-01-01', to: '2026-02-28' } },
    { uuid: moved, org_unit: { uuid: unit.other }, validity: { from: '2026-03-01', to: null } },
    ...viaGhost(hopped),
    ...viaGhost(visited, person.worker),
  ];
  const covers = (validity: { from: string; to: string | null }, at: string) =>
    validity.from <= at && (validity.to === null || validity.to >= at);

  // Units under `dept` that end on 2026-12-31: `closing` for good, `returning` to come back under `other`
  // on 2028-01-01.
  const closing = id(8);
  const returning = id(9);
  const pauses: Record<string, { last: string; back?: string }> = {
    [closing]: { last: '2026-12-31' },
    [returning]: { last: '2026-12-31', back: '2028-01-01' },
  };

  function timelineReads() {
    const calls: string[] = [];
    const parentAt = (uuid: string, at: string): { parent: string | null; validity: typeof open } => {
      if (uuid === unit.team) {
        const version = teamVersions.find((v) => covers(v, at))!;
        return { parent: version.parent, validity: { from: version.from, to: version.to } };
      }
      if (uuid === ghost) return { parent: unit.other, validity: open };
      const pause = pauses[uuid];
      if (pause) {
        return pause.back !== undefined && at >= pause.back
          ? { parent: unit.other, validity: { from: pause.back, to: null } }
          : { parent: unit.dept, validity: { from: '2000-01-01', to: pause.last } };
      }
      return { parent: uuid === unit.root ? null : unit.root, validity: open };
    };
    const chain = (uuid: string, at: string): LegacyRecord => {
      const { parent, validity } = parentAt(uuid, at);
      return { uuid, validity, parent: parent ? chain(parent, at) : null };
    };
    const known = [unit.root, unit.dept, unit.team, unit.other];
    const reads: OrganisationReads = {
      orgUnit: async (uuid, at) => {
        calls.push(`ou ${uuid} @${at}`);
        const pause = pauses[uuid];
        if (pause && at > pause.last && (pause.back === undefined || at < pause.back)) return null;
        return known.includes(uuid) || uuid === ghost || pause ? chain(uuid, at) : null;
      },
      unitDetails: async (type, uuid, query) => {
        calls.push(`ou ${uuid} ${type} ${query.validity ?? 'present'} @${query.at}`);
        if (type === 'owner') {
          const owner = { [unit.dept]: person.deptOwner, [unit.other]: person.otherOwner }[uuid];
          return owner ? [{ uuid: id(50), owner: { uuid: owner }, org_unit: { uuid } }] : [];
        }
        if (type !== 'engagement') return [];
        return engagements.filter(
          (e) =>
            e.org_unit.uuid === uuid &&
            (query.validity === 'future' ? e.validity.from > query.at : covers(e.validity, query.at)),
        );
      },
      employeeDetails: async (type, uuid, query) => {
        calls.push(`e ${uuid} ${type} ${query.validity ?? 'present'} @${query.at}`);
        if (type !== 'engagement') return [];
        return engagements.filter(
          (e) =>
            e.person?.uuid === uuid &&
            (query.validity === 'future' ? e.validity.from > query.at : covers(e.validity, query.at)),
        );
      },
      orgUnitVersions: async (uuid, at) => {
        calls.push(`ou ${uuid} versions @${at}`);
        const back = pauses[uuid]?.back;
        return back && back > at ? [{ uuid, validity: { from: back, to: null } }] : [];
      },
      unitExists: async (uuid) => known.includes(uuid),
      orgUnitPage: async (at) => {
        calls.push(`units @${at}`);
        return { items: known.map((uuid) => ({ uuid })) };
      },
    };
    return { reads, calls };
  }

  const rbac = createRbacPolicy({ enabled: true, maxOwnerItems: 500 });
  const decide = async (who: Principal, write: ReturnType<typeof post>) => {
    const fake = timelineReads();
    const decision = await rbac.decide(who, writeIntents(write), { reads: fake.reads, today });
    return { ...decision, calls: fake.calls };
  };
  const deptOwner = principal(['owner'], person.deptOwner);
  const otherOwner = principal(['owner'], person.otherOwner);
  const renameTeam = (validity: Record<string, string>) =>
    post('/service/details/edit', {
      type: 'org_unit',
      uuid: unit.team,
      data: { uuid: unit.team, name: 'X', validity },
    });

  it('is from the write’s date to its end, or for good when it has none', () => {
    // Issue 20, item 4: with no end it ran through today (or its own date, if later) only.
    expect(periodOf({ date: '2025-01-01' })).toEqual({ from: '2025-01-01', to: '9999-12-31' });
    expect(periodOf({ date: '2025-01-01', until: '2025-03-31' })).toEqual({
      from: '2025-01-01',
      to: '2025-03-31',
    });
    expect(periodOf({ date: '2027-01-01' })).toEqual({ from: '2027-01-01', to: '9999-12-31' });
    expect(periodOf({ date: '2025-01-01', until: '2027-12-31' })).toEqual({
      from: '2025-01-01',
      to: '2027-12-31',
    });
  });

  describe('a write with no end, before what is scheduled (issue 20, item 4)', () => {
    // Today is 2026-01-15: `team`'s move under `other` (2026-03-01) and `moved`'s are still to come.
    const before = '2026-01-15';
    const decideOn = async (who: Principal, write: ReturnType<typeof post>) => {
      const fake = timelineReads();
      return rbac.decide(who, writeIntents(write), { reads: fake.reads, today: before });
    };

    it('judges a unit change on the unit’s scheduled place too', async () => {
      expect(await decideOn(deptOwner, renameTeam({ from: before }))).toMatchObject({
        allowed: false,
        reason: /from 2026-01-15 on, and on 2026-03-01/,
      });
      expect((await decideOn(deptOwner, renameTeam({ from: before, to: '2026-02-28' }))).allowed).toBe(true);
    });

    it('judges a unit that ends after today up to its end, and again where it comes back', async () => {
      const rename = (uuid: string) =>
        post('/service/details/edit', {
          type: 'org_unit',
          data: { uuid, name: 'X', validity: { from: before } },
        });
      const closed = await decideOn(deptOwner, rename(closing));
      expect(closed.allowed, closed.reason).toBe(true);
      expect(await decideOn(deptOwner, rename(returning))).toMatchObject({
        allowed: false,
        reason: /on 2028-01-01 employee .* owns neither/,
      });
    });

    it('judges a detail edit or termination on the record’s scheduled versions too', async () => {
      const terminate = await decideOn(
        deptOwner,
        post('/service/details/terminate', { type: 'engagement', uuid: moved, validity: { to: before } }),
      );
      expect(terminate).toMatchObject({ allowed: false, reason: new RegExp(unit.other) });
      const edit = await decideOn(
        deptOwner,
        post('/service/details/edit', {
          type: 'engagement',
          uuid: moved,
          data: { org_unit: { uuid: unit.dept }, validity: { from: before } },
        }),
      );
      expect(edit).toMatchObject({ allowed: false, reason: new RegExp(unit.other) });
    });
  });

  it.each([
    ['the old owner, back-dated past the move', deptOwner, { from: '2026-01-01' }, false, /on 2026-03-01/],
    [
      'the old owner, for a period before the move only',
      deptOwner,
      { from: '2026-01-01', to: '2026-02-15' },
      true,
    ],
    ['the new owner, back-dated before the move', otherOwner, { from: '2026-01-01' }, false, /on 2026-01-01/],
    ['the new owner, after the move', otherOwner, { from: '2026-04-01' }, true],
    ['the old owner, after the move', deptOwner, { from: '2026-04-01' }, false],
  ] as const)('a unit change by %s', async (_name, who, validity, allowed, reason?: RegExp) => {
    const decision = await decide(who, renameTeam(validity));
    expect(decision.allowed).toBe(allowed);
    if (reason) expect(decision.reason).toMatch(reason);
  });

  it.each([
    // `to` lies after the move, in `other`; `from` before it, in `dept`: judged on `to` alone it was allowed.
    [
      'the new owner, from before the move to after it',
      otherOwner,
      { from: '2026-01-01', to: '2026-12-31' },
      false,
      /on 2026-01-01/,
    ],
    ['the new owner, from after the move', otherOwner, { from: '2026-04-01', to: '2026-12-31' }, true],
    [
      'the old owner, for good from before the move',
      deptOwner,
      { from: '2026-01-01', to: null },
      false,
      /on 2026-03-01/,
    ],
    [
      'the old owner, for a period before the move only',
      deptOwner,
      { from: '2026-01-01', to: '2026-02-15' },
      true,
    ],
    ['the new owner, its last day after the move (deprecated form)', otherOwner, { to: '2026-12-31' }, true],
  ] as const)(
    'a unit termination by %s',
    async (_name, who, validity: Record<string, string | null>, allowed, reason?: RegExp) => {
      const decision = await decide(who, post(`/service/ou/${unit.team}/terminate`, { validity }));
      expect(decision.allowed).toBe(allowed);
      if (reason) expect(decision.reason).toMatch(reason);
    },
  );

  it('reads the unit once per place it has within the period', async () => {
    const { calls } = await decide(otherOwner, renameTeam({ from: '2026-01-01' }));
    expect(calls.filter((call) => call.startsWith(`ou ${unit.team} @`))).toEqual([
      `ou ${unit.team} @2026-01-01`,
    ]);
    const owned = await decide(
      principal(['owner'], person.deptOwner),
      renameTeam({ from: '2025-01-01', to: '2026-02-28' }),
    );
    expect(owned.allowed).toBe(true);
    expect(owned.calls.filter((call) => call.startsWith(`ou ${unit.team} @`))).toEqual([
      `ou ${unit.team} @2025-01-01`,
    ]);
  });

  it.each([
    [
      'terminate the moved engagement, back-dated',
      deptOwner,
      { type: 'engagement', uuid: moved, validity: { to: '2026-01-31' } },
      false,
    ],
    [
      'terminate it after the move, as the new owner',
      otherOwner,
      { type: 'engagement', uuid: moved, validity: { to: '2026-04-30' } },
      true,
    ],
    [
      'terminate it back-dated, as the new owner',
      otherOwner,
      { type: 'engagement', uuid: moved, validity: { to: '2026-01-31' } },
      false,
    ],
  ] as const)('%s', async (_name, who, body, allowed) => {
    const decision = await decide(who, post('/service/details/terminate', body));
    expect(decision.allowed).toBe(allowed);
  });

  it('refuses a write over a day it cannot place the record, instead of judging the days before it', async () => {
    // Issue 20, item 3: the versions found stopped at the first day the scan could not place (`hopped` in
    // `ghost`), and only that prefix, all in `dept`, was judged.
    const terminate = await decide(
      deptOwner,
      post('/service/details/terminate', {
        type: 'engagement',
        uuid: hopped,
        validity: { to: '2026-01-15' },
      }),
    );
    expect(terminate).toMatchObject({ allowed: false, reason: /before and after 2026-02-01/ });
    // Within the days it can place, the same owner may still write.
    const before = await decide(
      deptOwner,
      post('/service/details/edit', {
        type: 'engagement',
        uuid: hopped,
        data: { org_unit: { uuid: unit.dept }, validity: { from: '2026-01-10', to: '2026-01-20' } },
      }),
    );
    expect(before.allowed).toBe(true);
  });

  it('finds the versions the scan misses through the person the record names', async () => {
    const terminate = await decide(
      deptOwner,
      post('/service/details/terminate', {
        type: 'engagement',
        uuid: visited,
        validity: { to: '2026-01-15' },
      }),
    );
    // February in `ghost`, under `other`: the dept owner owns neither.
    expect(terminate).toMatchObject({ allowed: false, reason: new RegExp(`owns neither org unit ${ghost}`) });
    expect(terminate.calls).toContain(`e ${person.worker} engagement future @2026-01-15`);
  });

  it('follows a detail edit that names its old unit beyond that unit', async () => {
    const edit = (validity: Record<string, string>) =>
      post('/service/details/edit', {
        type: 'engagement',
        uuid: moved,
        data: { org_unit: { uuid: unit.dept }, validity },
      });
    // Back-dated with no end, it would affect the record while it is in `other`.
    expect((await decide(deptOwner, edit({ from: '2026-01-01' }))).allowed).toBe(false);
    const before = await decide(deptOwner, edit({ from: '2026-01-01', to: '2026-02-15' }));
    expect(before.allowed).toBe(true);
    expect(before.calls.some((call) => call.startsWith('units'))).toBe(false);
  });

  it('scans once for a whole list of unknown details, and stops at the first refusal', async () => {
    const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
    const list = Array.from({ length: 400 }, (_, n) => ({
      type: 'engagement',
      uuid: id(1000 + n),
      validity: { to: day(n) },
    }));
    const { allowed, reason, calls } = await decide(deptOwner, post('/service/details/terminate', list));
    expect(allowed).toBe(false);
    expect(reason).toContain(id(1000));
    // Two unit pages (the earliest date and today) and two listings per unit, whatever the list's length.
    expect(calls.filter((call) => call.startsWith('units'))).toEqual([
      'units @2026-01-01',
      `units @${today}`,
    ]);
    expect(calls.filter((call) => call.includes(' engagement '))).toHaveLength(2 * 4);
  });

  it('refuses what needs no scan before scanning, and scans one detail type at a time (issue 20, item 7)', async () => {
    const unknownThenLeave = post('/service/details/terminate', [
      { type: 'engagement', uuid: id(2000), validity: { to: '2026-01-01' } },
      { type: 'leave', uuid: id(2001), validity: { to: '2026-01-01' } },
    ]);
    const cheap = await decide(deptOwner, unknownThenLeave);
    expect(cheap).toMatchObject({ allowed: false, reason: /leave .* needs the admin role/ });
    expect(cheap.calls).toEqual([]);

    const eightTypes = post(
      '/service/details/terminate',
      ['engagement', 'manager', 'owner', 'it', 'address', 'association', 'role', 'kle'].map((type, n) => ({
        type,
        uuid: id(2100 + n),
        validity: { to: '2026-01-01' },
      })),
    );
    const scanned = await decide(deptOwner, eightTypes);
    expect(scanned).toMatchObject({ allowed: false, reason: new RegExp(id(2100)) });
    // The engagements' scan only: two unit pages and two listings per unit.
    expect(scanned.calls.filter((call) => call.startsWith('units'))).toHaveLength(2);
    expect(
      scanned.calls.filter((call) => !call.includes(' engagement ') && !call.startsWith('units')),
    ).toEqual([]);
  });

  it('refuses instead of scanning more units than the bound', async () => {
    const bounded = createRbacPolicy({ enabled: true, maxScanUnits: 3 });
    const fake = timelineReads();
    const decision = await bounded.decide(
      deptOwner,
      writeIntents(
        post('/service/details/terminate', { type: 'engagement', uuid: stays, validity: { to: today } }),
      ),
      { reads: fake.reads, today },
    );
    expect(decision).toMatchObject({ allowed: false, reason: /reading 4 org units/ });
    expect(fake.calls.filter((call) => call.includes(' engagement '))).toEqual([]);
  });

  it('refuses an owner’s list over the cap before reading anything', async () => {
    const capped = createRbacPolicy({ enabled: true, maxOwnerItems: 3 });
    const fake = timelineReads();
    const list = Array.from({ length: 4 }, () => ({
      type: 'manager',
      org_unit: { uuid: unit.team },
      validity,
    }));
    const decision = await capped.decide(deptOwner, writeIntents(post('/service/details/create', list)), {
      reads: fake.reads,
      today,
    });
    expect(decision).toMatchObject({ allowed: false, reason: /at most 3/ });
    expect(fake.calls).toEqual([]);
    expect(capped.decideByRole(principal(['admin']))?.allowed).toBe(true);
  });
});
