import { describe, expect, it } from 'vitest';
import { legacyPaths } from '../legacy/legacy-paths.js';
import type { LegacyWrite, WriteIntent } from './write-intent.js';
import { writeIntents } from './write-intents.js';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const team = id(4);
const office = id(3);
const other = id(5);
const worker = id(14);
const engagement = id(21);
const ownerRecord = id(23);

const validity = { from: '2026-01-01' };
const on = '2026-01-01';
const post = (path: string, body: unknown): LegacyWrite => ({ method: 'POST', path, body });
/** An intent that is `unreadable`, its problem containing `problem`. */
const unreadable = (problem: string): WriteIntent => ({
  kind: 'unreadable',
  problem: expect.stringContaining(problem) as unknown as string,
});
/** An `ou/create` under `team` carrying `extra` (its `details[]`, `addresses[]`, `uuid`). */
const unitCreate = (extra: Record<string, unknown>) =>
  post('/service/ou/create', { parent: { uuid: team }, validity, ...extra });
const ownerOf = (org: string | undefined, owner: string) => ({
  type: 'owner',
  ...(org === undefined ? {} : { org_unit: { uuid: org } }),
  owner: { uuid: owner },
  validity,
});

/**
 * Reading a write: one row per write shape (road, path, body) and the intents RBAC decides. The GraphQL rows
 * are the legacy request a mutation resolver sends (`graphql/os2mo/mutations/resolvers.ts`), which `useRbac`
 * reads through the same `writeIntents`; a new write shape is one row here.
 */
const rows: [string, LegacyWrite, WriteIntent[]][] = [
  // ou/create
  [
    'a unit under a parent (UUID case folded, trailing slash)',
    post('/service/ou/create/', { parent: { uuid: team.toUpperCase() }, validity }),
    [{ kind: 'create_unit', parent: team, date: on }],
  ],
  [
    'a top-level unit',
    post('/service/ou/create', { name: 'x', validity }),
    [{ kind: 'create_unit', parent: null, date: on }],
  ],
  [
    'a unit with a uuid of its own and an end (GraphQL org_unit_create of v21–v30 always sends a uuid)',
    post(legacyPaths.orgUnitCreate(), {
      uuid: id(88),
      name: 'x',
      parent: { uuid: team },
      user_key: id(88),
      validity: { from: on, to: '2026-12-31' },
    }),
    [{ kind: 'create_unit', parent: team, date: on, until: '2026-12-31', uuid: id(88) }],
  ],
  // Issue 35, item 8: OS2mo 2.4.0 creates every item of an ou/create's `details` (orgunit.py 150–157, with
  // `_inject_org_units` 370–380 setting its unit); our contract adds `addresses`. Each is read as a create.
  [
    'the records an ou/create carries, in the new unit placed under its parent',
    unitCreate({
      uuid: id(77),
      details: [{ type: 'kle', validity }, { ...ownerOf(id(77), worker) }],
      addresses: [{ value: 'x@example.org', validity }],
    }),
    [
      { kind: 'create_unit', parent: team, date: on, uuid: id(77) },
      { kind: 'create_detail', type: 'kle', unit: team, date: on, inNewUnit: true },
      { kind: 'create_detail', type: 'owner', unit: team, date: on, appoints: worker, inNewUnit: true },
      { kind: 'create_detail', type: 'address', unit: team, date: on, inNewUnit: true },
    ],
  ],
  [
    'a carried record that names another unit, in that unit',
    unitCreate({ details: [ownerOf(other, id(98))] }),
    [
      { kind: 'create_unit', parent: team, date: on },
      { kind: 'create_detail', type: 'owner', unit: other, date: on, appoints: id(98) },
    ],
  ],
  [
    'a carried owner record naming someone, and one with a uuid of its own',
    unitCreate({
      details: [ownerOf(undefined, id(11))],
      addresses: [{ uuid: id(25), value: 'x', validity }],
    }),
    [
      { kind: 'create_unit', parent: team, date: on },
      { kind: 'create_detail', type: 'owner', unit: team, date: on, appoints: id(11), inNewUnit: true },
      { kind: 'create_detail', type: 'address', unit: team, date: on, uuid: id(25), inNewUnit: true },
    ],
  ],
  [
    'a carried record of a person',
    unitCreate({ details: [{ type: 'it', person: { uuid: worker }, validity }] }),
    [
      { kind: 'create_unit', parent: team, date: on },
      { kind: 'create_detail', type: 'it', unit: null, date: on },
    ],
  ],
  [
    'an addresses[] item that names its own type keeps it',
    unitCreate({ addresses: [{ type: 'kle', validity }] }),
    [
      { kind: 'create_unit', parent: team, date: on },
      { kind: 'create_detail', type: 'kle', unit: team, date: on, inNewUnit: true },
    ],
  ],
  [
    'carried details that are not a list',
    unitCreate({ details: { type: 'kle' } }),
    [{ kind: 'create_unit', parent: team, date: on }, unreadable('details must be a list')],
  ],
  [
    'a carried record without a validity',
    unitCreate({ details: [{ type: 'kle' }] }),
    [{ kind: 'create_unit', parent: team, date: on }, unreadable('details[0].validity')],
  ],
  [
    'a carried record that is not an object',
    unitCreate({ addresses: ['x'] }),
    [{ kind: 'create_unit', parent: team, date: on }, unreadable('addresses[0] must be a JSON object')],
  ],
  // employees and classes
  [
    'an employee',
    post('/service/e/create', { givenname: 'a' }),
    [{ kind: 'employee', action: 'create', uuid: null }],
  ],
  [
    'an employee edit',
    post('/service/details/edit', { type: 'employee', uuid: worker, data: { validity } }),
    [{ kind: 'employee', action: 'edit', uuid: worker }],
  ],
  [
    'an employee termination',
    post(`/service/e/${worker}/terminate`, { validity: { to: '2026-05-31' } }),
    [{ kind: 'employee', action: 'terminate', uuid: worker }],
  ],
  [
    'an employee termination as GraphQL employee_terminate sends it',
    post(legacyPaths.employeeTerminate(worker), { validity: { to: '2026-05-31' }, vacate: true }),
    [{ kind: 'employee', action: 'terminate', uuid: worker }],
  ],
  [
    'a class, created or written anew (OS2mo 2.4.0 service/facet.py:800)',
    post('/service/f/engagement_job_function/', { name: 'Jurist', user_key: 'BVN' }),
    [{ kind: 'class', facet: 'engagement_job_function' }],
  ],
  // details/create
  [
    'a list of details: a unit and a person',
    post('/service/details/create', [
      { type: 'manager', org_unit: { uuid: team }, validity },
      { type: 'owner', person: { uuid: worker }, owner: { uuid: id(7) }, validity },
    ]),
    [
      { kind: 'create_detail', type: 'manager', unit: team, date: on },
      { kind: 'create_detail', type: 'owner', unit: null, date: on },
    ],
  ],
  [
    'every other detail type: unit records, addresses of a unit, a person or an engagement, and a leave',
    post('/service/details/create', [
      { type: 'association', org_unit: { uuid: team }, person: { uuid: worker }, validity },
      { type: 'role', org_unit: { uuid: team }, person: { uuid: worker }, validity },
      { type: 'kle', org_unit: { uuid: team }, validity },
      {
        type: 'engagement_association',
        org_unit: { uuid: team },
        engagement: { uuid: engagement },
        validity,
      },
      { type: 'address', org_unit: { uuid: team }, validity },
      { type: 'address', person: { uuid: worker }, validity },
      { type: 'address', engagement: { uuid: engagement }, validity },
      { type: 'leave', person: { uuid: worker }, engagement: { uuid: engagement }, validity },
    ]),
    [
      { kind: 'create_detail', type: 'association', unit: team, date: on },
      { kind: 'create_detail', type: 'role', unit: team, date: on },
      { kind: 'create_detail', type: 'kle', unit: team, date: on },
      { kind: 'create_detail', type: 'engagement_association', unit: team, date: on },
      { kind: 'create_detail', type: 'address', unit: team, date: on },
      { kind: 'create_detail', type: 'address', unit: null, date: on },
      { kind: 'create_detail', type: 'address', unit: null, date: on },
      { kind: 'create_detail', type: 'leave', unit: null, date: on },
    ],
  ],
  [
    'an owner record of a unit, naming its owner, with a uuid of its own',
    post('/service/details/create', { ...ownerOf(team, worker), uuid: engagement }),
    [{ kind: 'create_detail', type: 'owner', unit: team, date: on, appoints: worker, uuid: engagement }],
  ],
  [
    'a unit record without its unit, and a related unit (written through /ou/{uuid}/map)',
    post('/service/details/create', [
      { type: 'role', person: { uuid: worker }, validity },
      { type: 'related_unit', org_unit: { uuid: team }, validity },
    ]),
    [unreadable('[0].org_unit is required'), unreadable('[1].type')],
  ],
  // details/edit
  [
    'a rename',
    post('/service/details/edit', {
      type: 'org_unit',
      uuid: team,
      data: { uuid: team, name: 'y', validity },
    }),
    [{ kind: 'change_unit', unit: team, date: on }],
  ],
  [
    'a rename naming the unit in data.uuid only, as OS2mo reads it',
    post('/service/details/edit', { type: 'org_unit', data: { uuid: team, name: 'y', validity } }),
    [{ kind: 'change_unit', unit: team, date: on }],
  ],
  [
    'a rename for a period',
    post('/service/details/edit', {
      type: 'org_unit',
      data: { uuid: team, name: 'y', validity: { from: on, to: '2026-02-15' } },
    }),
    [{ kind: 'change_unit', unit: team, date: on, until: '2026-02-15' }],
  ],
  [
    'a move, and a move to the top',
    post('/service/details/edit', [
      { type: 'org_unit', uuid: team, data: { uuid: team, parent: { uuid: other }, validity } },
      { type: 'org_unit', uuid: team, data: { uuid: team, parent: null, validity } },
    ]),
    [
      { kind: 'move_unit', unit: team, parent: other, date: on },
      { kind: 'move_unit', unit: team, parent: null, date: on },
    ],
  ],
  [
    'an engagement edit that moves it, with the new unit and person as hints',
    post('/service/details/edit', {
      type: 'engagement',
      uuid: engagement,
      data: { org_unit: { uuid: other }, person: { uuid: worker }, validity },
    }),
    [
      {
        kind: 'change_detail',
        action: 'edit',
        type: 'engagement',
        uuid: engagement,
        date: on,
        newUnit: other,
        hints: { units: [other], persons: [worker] },
      },
    ],
  ],
  [
    'an owner record edited onto a person',
    post('/service/details/edit', {
      type: 'owner',
      uuid: ownerRecord,
      data: { person: { uuid: worker }, org_unit: null, validity },
    }),
    [
      {
        kind: 'change_detail',
        action: 'edit',
        type: 'owner',
        uuid: ownerRecord,
        date: on,
        newUnit: null,
        hints: { units: [], persons: [] },
      },
    ],
  ],
  [
    'an owner record edited to name another owner',
    post('/service/details/edit', {
      type: 'owner',
      uuid: ownerRecord,
      data: { owner: { uuid: worker }, validity },
    }),
    [
      {
        kind: 'change_detail',
        action: 'edit',
        type: 'owner',
        uuid: ownerRecord,
        date: on,
        appoints: worker,
        hints: { units: [], persons: [] },
      },
    ],
  ],
  // details/terminate
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
    'a leave ended: it belongs to no unit',
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
  // ou/{uuid}/terminate
  [
    'a unit termination (its last day, the deprecated form)',
    post(`/service/ou/${team}/terminate`, { validity: { to: '2026-05-31' } }),
    [{ kind: 'terminate_unit', unit: team, date: '2026-05-31' }],
  ],
  [
    'a unit termination for a period (inactive from `from` through `to`; GraphQL org_unit_terminate with from)',
    post(legacyPaths.orgUnitTerminate(team), { validity: { from: on, to: '2026-05-31' } }),
    [{ kind: 'terminate_unit', unit: team, date: on, until: '2026-05-31' }],
  ],
  [
    'a unit termination for good from a date (`to: null`)',
    post(`/service/ou/${team}/terminate`, { validity: { from: on, to: null } }),
    [{ kind: 'terminate_unit', unit: team, date: on }],
  ],
  // What RBAC cannot read: admin only.
  [
    'another method',
    { method: 'PUT', path: '/service/ou/create', body: {} },
    [unreadable('not a write endpoint')],
  ],
  ['an unknown path', post('/service/ou/create/again', {}), [unreadable('not a write endpoint')]],
  ['a read path', post('/service/o/', {}), [unreadable('not a write endpoint')]],
  [
    'an inherited property name as the endpoint',
    post('/service/details/constructor', {}),
    [unreadable('not a write')],
  ],
  [
    'a related unit (GraphQL related_units_update): the policy does not read ou/{uuid}/map',
    post(legacyPaths.orgUnitMap(team), { destination: [office], validity }),
    [unreadable(`POST /service/ou/${team}/map is not a write endpoint of /service`)],
  ],
  ['no body', post('/service/ou/create', null), [unreadable('the body must be a JSON object')]],
  ['a list for ou/create', post('/service/ou/create', [{}]), [unreadable('must be a JSON object')]],
  [
    'a parent that is not a reference',
    post('/service/ou/create', { parent: team, validity }),
    [unreadable('parent')],
  ],
  [
    'an impossible date',
    post('/service/ou/create', { validity: { from: '2026-02-30' } }),
    [unreadable('validity.from')],
  ],
  [
    'an unknown detail type',
    post('/service/details/create', { type: 'related_unit', validity }),
    [unreadable('type')],
  ],
  [
    'an engagement without a unit',
    post('/service/details/create', { type: 'engagement', validity }),
    [unreadable('org_unit')],
  ],
  [
    'a bad item in a list',
    post('/service/details/terminate', [{ type: 'manager', uuid: 'nope', validity: { to: on } }]),
    [unreadable('[0].uuid')],
  ],
  [
    'a unit UUID in the path that is not one',
    post('/service/ou/team/terminate', { validity }),
    [unreadable('path')],
  ],
  [
    'a unit termination with `from` but no `to`',
    post(`/service/ou/${team}/terminate`, { validity }),
    [unreadable('validity.to')],
  ],
  [
    'a unit edit without data.uuid',
    post('/service/details/edit', { type: 'org_unit', uuid: team, data: { name: 'y', validity } }),
    [unreadable('data.uuid')],
  ],
  [
    'a unit edit whose top-level uuid names another unit than data.uuid',
    post('/service/details/edit', {
      type: 'org_unit',
      uuid: office,
      data: { uuid: team, name: 'y', validity },
    }),
    [unreadable('names another unit than data.uuid')],
  ],
];

describe('writeIntents: what a write touches', () => {
  it.each(rows)('%s', (_name, write, intents) => {
    expect(writeIntents(write)).toEqual(intents);
  });
});
