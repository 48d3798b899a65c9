import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealmUser } from '../idp/src/realm-users.js';
import { classUuid, oscarOwnedUnitUuid, unitUuid } from '../legacy-service/src/fixture/organisation.js';
import { startTestStack, type TestStack } from './stack.js';

/**
 * The RBAC matrix on both interfaces, against the real stack. Each case writes on a fresh unit T created
 * below oscar's unit (which lies below the Mayor's Office), so:
 *
 *   Mayor's Office (olga) ── oscar's unit (oscar) ── T (ulla) ── [S, a sibling of T, also ulla's]
 *   Children and Youth (egon) ── its administration (the "elsewhere" target)
 *
 * olga's ownership sits above another owner's unit: `inherit_owner` would stop at oscar, the RBAC walk
 * must not. Every case asserts the status and error code, and what the legacy service received: the
 * writes the gateway sent (through a counting proxy) and the store's durable write sequence.
 */

const uuid = (n: number) => `7e57ab1e-0000-4000-8000-${String(n).padStart(12, '0')}`;
const employees = { ulla: uuid(1), olga: uuid(2), egon: uuid(3), worker: uuid(4) };
const mayorsOffice = unitUuid(1);
const childrenAndYouth = unitUuid(2);
const elsewhere = unitUuid(8);

const realmUsers: RealmUser[] = (['ulla', 'olga', 'egon'] as const).map((username) => ({
  username,
  password: username,
  firstname: username[0]!.toUpperCase() + username.slice(1),
  lastname: 'Tester',
  email: `${username}@example.org`,
  uuid: employees[username],
  roles: ['owner'],
  enabled: true,
}));

const cls = {
  office: classUuid('org_unit_type', 'office'),
  teacher: classUuid('engagement_job_function', 'teacher'),
  nurse: classUuid('engagement_job_function', 'nurse'),
  permanent: classUuid('engagement_type', 'permanent'),
  teamLeader: classUuid('manager_type', 'team_leader'),
  level3: classUuid('manager_level', 'level_3'),
  level4: classUuid('manager_level', 'level_4'),
};
const from = '2025-01-01';
const nextDay = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const change = { from: '2027-01-01' };
const endOfRecord = '2027-06-30';
/** Ulla's ownership of T ends the day T is terminated, so it does not block the termination. */
const endOfUnit = '2099-12-31';

type Who = 'nora' | 'ulla' | 'oscar' | 'olga' | 'egon' | 'alice';
const principals: [Who, string][] = [
  ['nora', 'no role'],
  ['ulla', 'owner of the unit'],
  ['oscar', 'owner of the parent'],
  ['olga', 'owner of an ancestor above another owner'],
  ['egon', 'owner elsewhere'],
  ['alice', 'admin'],
];
const ownersOfT: Who[] = ['ulla', 'oscar', 'olga', 'alice'];
const adminOnly: Who[] = ['alice'];

interface Fixture {
  unit: string;
  sibling: string;
  engagement: string;
  manager: string;
  owner: string;
}
interface Needs {
  sibling?: boolean;
  engagement?: boolean;
  manager?: boolean;
  owner?: boolean;
}
interface Action {
  name: string;
  needs?: Needs;
  service: (fx: Fixture) => { path: string; body: unknown };
  /** Absent where GraphQL has no such mutation (owner records are not edited). */
  graphql?: (fx: Fixture) => { field: string; type: string; input: Record<string, unknown> };
  /** Who may do it with RBAC on. */
  allowed: Who[];
  /**
   * Set where the legacy service itself refuses the write once RBAC lets it through: the allowed then get
   * this refusal from the legacy service (the write reached it, nothing was stored), not a success.
   */
  legacyRefusal?: { status: number; errorKey: string };
}

/**
 * A `details/edit` of unit `unit`: OS2mo reads the unit from `data.uuid`; the top-level `uuid` (which OS2mo
 * ignores) says the same, as a client might send it.
 */
const unitEdit = (unit: string, changes: Record<string, unknown>) => ({
  type: 'org_unit',
  uuid: unit,
  data: { uuid: unit, ...changes },
});

const terminateInput = (uuid: string, to = endOfRecord) => ({ type: 'TerminateInput', input: { uuid, to } });

const actions: Action[] = [
  {
    name: 'create a unit under the unit',
    service: (fx) => ({
      path: '/service/ou/create',
      body: { name: 'Sub', parent: { uuid: fx.unit }, org_unit_type: { uuid: cls.office }, validity: change },
    }),
    graphql: (fx) => ({
      field: 'org_unit_create',
      type: 'OrgUnitCreateInput',
      input: { name: 'Sub', parent: fx.unit, org_unit_type: cls.office, validity: change },
    }),
    allowed: ownersOfT,
  },
  {
    name: 'rename the unit',
    service: (fx) => ({
      path: '/service/details/edit',
      body: unitEdit(fx.unit, { name: 'Renamed', validity: change }),
    }),
    graphql: (fx) => ({
      field: 'org_unit_update',
      type: 'OrgUnitUpdateInput',
      input: { uuid: fx.unit, name: 'Renamed', validity: change },
    }),
    allowed: ownersOfT,
  },
  {
    name: 'move the unit under an owned sibling (source and target owned)',
    needs: { sibling: true },
    service: (fx) => ({
      path: '/service/details/edit',
      body: unitEdit(fx.unit, { parent: { uuid: fx.sibling }, validity: change }),
    }),
    graphql: (fx) => ({
      field: 'org_unit_update',
      type: 'OrgUnitUpdateInput',
      input: { uuid: fx.unit, parent: fx.sibling, validity: change },
    }),
    allowed: ownersOfT,
  },
  {
    name: 'move the unit to another department (source owned or target owned, not both)',
    service: (fx) => ({
      path: '/service/details/edit',
      body: unitEdit(fx.unit, { parent: { uuid: elsewhere }, validity: change }),
    }),
    graphql: (fx) => ({
      field: 'org_unit_update',
      type: 'OrgUnitUpdateInput',
      input: { uuid: fx.unit, parent: elsewhere, validity: change },
    }),
    allowed: adminOnly,
  },
  {
    name: 'move the unit to the top level',
    service: (fx) => ({
      path: '/service/details/edit',
      body: unitEdit(fx.unit, { parent: null, validity: change }),
    }),
    graphql: (fx) => ({
      field: 'org_unit_update',
      type: 'OrgUnitUpdateInput',
      input: { uuid: fx.unit, parent: null, validity: change },
    }),
    allowed: adminOnly,
    // OS2mo itself keeps every unit but the top one below a parent; RBAC still refuses non-admins first.
    legacyRefusal: { status: 400, errorKey: 'V_CANNOT_MOVE_UNIT_TO_ROOT_LEVEL' },
  },
  {
    name: 'terminate the unit',
    service: (fx) => ({ path: `/service/ou/${fx.unit}/terminate`, body: { validity: { to: endOfUnit } } }),
    graphql: (fx) => ({ field: 'org_unit_terminate', ...terminateInput(fx.unit, endOfUnit) }),
    allowed: ownersOfT,
  },
  {
    name: 'create an engagement in the unit',
    service: (fx) => ({
      path: '/service/details/create',
      body: {
        type: 'engagement',
        person: { uuid: employees.worker },
        org_unit: { uuid: fx.unit },
        job_function: { uuid: cls.teacher },
        engagement_type: { uuid: cls.permanent },
        validity: change,
      },
    }),
    graphql: (fx) => ({
      field: 'engagement_create',
      type: 'EngagementCreateInput',
      input: {
        employee: employees.worker,
        org_unit: fx.unit,
        job_function: cls.teacher,
        engagement_type: cls.permanent,
        validity: change,
      },
    }),
    allowed: ownersOfT,
  },
  {
    name: 'edit an engagement of the unit',
    needs: { engagement: true },
    service: (fx) => ({
      path: '/service/details/edit',
      body: {
        type: 'engagement',
        uuid: fx.engagement,
        data: { job_function: { uuid: cls.nurse }, validity: change },
      },
    }),
    graphql: (fx) => ({
      field: 'engagement_update',
      type: 'EngagementUpdateInput',
      input: { uuid: fx.engagement, job_function: cls.nurse, validity: change },
    }),
    allowed: ownersOfT,
  },
  {
    name: 'move an engagement of the unit to another department',
    needs: { engagement: true },
    service: (fx) => ({
      path: '/service/details/edit',
      body: {
        type: 'engagement',
        uuid: fx.engagement,
        data: { org_unit: { uuid: elsewhere }, validity: change },
      },
    }),
    graphql: (fx) => ({
      field: 'engagement_update',
      type: 'EngagementUpdateInput',
      input: { uuid: fx.engagement, org_unit: elsewhere, validity: change },
    }),
    allowed: adminOnly,
  },
  {
    name: 'terminate an engagement of the unit',
    needs: { engagement: true },
    service: (fx) => ({
      path: '/service/details/terminate',
      body: { type: 'engagement', uuid: fx.engagement, validity: { to: endOfRecord } },
    }),
    graphql: (fx) => ({ field: 'engagement_terminate', ...terminateInput(fx.engagement) }),
    allowed: ownersOfT,
  },
  {
    name: 'create a manager in the unit',
    service: (fx) => ({
      path: '/service/details/create',
      body: {
        type: 'manager',
        person: { uuid: employees.worker },
        org_unit: { uuid: fx.unit },
        manager_type: { uuid: cls.teamLeader },
        manager_level: { uuid: cls.level4 },
        validity: change,
      },
    }),
    graphql: (fx) => ({
      field: 'manager_create',
      type: 'ManagerCreateInput',
      input: {
        employee: employees.worker,
        org_unit: fx.unit,
        manager_type: cls.teamLeader,
        manager_level: cls.level4,
        validity: change,
      },
    }),
    allowed: ownersOfT,
  },
  {
    name: 'edit a manager of the unit',
    needs: { manager: true },
    service: (fx) => ({
      path: '/service/details/edit',
      body: {
        type: 'manager',
        uuid: fx.manager,
        data: { manager_level: { uuid: cls.level3 }, validity: change },
      },
    }),
    graphql: (fx) => ({
      field: 'manager_update',
      type: 'ManagerUpdateInput',
      input: { uuid: fx.manager, manager_level: cls.level3, validity: change },
    }),
    allowed: ownersOfT,
  },
  {
    name: 'terminate a manager of the unit',
    needs: { manager: true },
    service: (fx) => ({
      path: '/service/details/terminate',
      body: { type: 'manager', uuid: fx.manager, validity: { to: endOfRecord } },
    }),
    graphql: (fx) => ({ field: 'manager_terminate', ...terminateInput(fx.manager) }),
    allowed: ownersOfT,
  },
  {
    name: 'create an owner of the unit',
    service: (fx) => ({
      path: '/service/details/create',
      body: {
        type: 'owner',
        owner: { uuid: employees.worker },
        org_unit: { uuid: fx.unit },
        validity: change,
      },
    }),
    graphql: (fx) => ({
      field: 'owner_create',
      type: 'OwnerCreateInput',
      input: { owner: employees.worker, org_unit: fx.unit, validity: change },
    }),
    allowed: ownersOfT,
  },
  {
    name: 'edit an owner of the unit',
    needs: { owner: true },
    service: (fx) => ({
      path: '/service/details/edit',
      body: { type: 'owner', uuid: fx.owner, data: { owner: { uuid: employees.egon }, validity: change } },
    }),
    allowed: ownersOfT,
  },
  {
    name: 'terminate an owner of the unit',
    needs: { owner: true },
    service: (fx) => ({
      path: '/service/details/terminate',
      body: { type: 'owner', uuid: fx.owner, validity: { to: endOfRecord } },
    }),
    graphql: (fx) => ({ field: 'owner_terminate', ...terminateInput(fx.owner) }),
    allowed: ownersOfT,
  },
  {
    name: 'create an employee',
    service: () => ({ path: '/service/e/create', body: { givenname: 'New', surname: 'Person' } }),
    graphql: () => ({
      field: 'employee_create',
      type: 'EmployeeCreateInput',
      input: { givenname: 'New', surname: 'Person' },
    }),
    allowed: adminOnly,
  },
  {
    name: 'create a top-level unit',
    service: () => ({
      path: '/service/ou/create',
      body: { name: 'Top', org_unit_type: { uuid: cls.office }, validity: change },
    }),
    graphql: () => ({
      field: 'org_unit_create',
      type: 'OrgUnitCreateInput',
      input: { name: 'Top', org_unit_type: cls.office, validity: change },
    }),
    allowed: adminOnly,
  },
];

/** A write straight to the legacy service (not through the gateway): test set-up. */
async function legacyWrite<T = string>(stack: TestStack, path: string, body: unknown): Promise<T> {
  const response = await stack.legacyFetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`set-up ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The owners' employees and their ownership outside T, once per stack. */
async function seed(stack: TestStack): Promise<void> {
  for (const [name, employee] of Object.entries(employees)) {
    await legacyWrite(stack, '/service/e/create', { uuid: employee, givenname: name, surname: 'Tester' });
  }
  await legacyWrite(stack, '/service/details/create', [
    { type: 'owner', owner: { uuid: employees.olga }, org_unit: { uuid: mayorsOffice }, validity: { from } },
    {
      type: 'owner',
      owner: { uuid: employees.egon },
      org_unit: { uuid: childrenAndYouth },
      validity: { from },
    },
  ]);
}

/** A fresh T below oscar's unit, owned by ulla, with what the case needs in it. */
async function prepare(stack: TestStack, needs: Needs = {}): Promise<Fixture> {
  const newUnit = (name: string) =>
    legacyWrite(stack, '/service/ou/create', {
      name,
      parent: { uuid: oscarOwnedUnitUuid },
      org_unit_type: { uuid: cls.office },
      validity: { from },
    });
  const unit = await newUnit('T');
  const sibling = needs.sibling ? await newUnit('S') : '';
  const ownedByUlla = (target: string) => ({
    type: 'owner',
    owner: { uuid: employees.ulla },
    org_unit: { uuid: target },
    validity: { from, to: endOfUnit },
  });
  const person = { uuid: employees.worker };
  const details: Record<string, unknown>[] = [
    ownedByUlla(unit),
    ...(needs.sibling ? [ownedByUlla(sibling)] : []),
    ...(needs.engagement
      ? [
          {
            type: 'engagement',
            person,
            org_unit: { uuid: unit },
            job_function: { uuid: cls.teacher },
            engagement_type: { uuid: cls.permanent },
            validity: { from },
          },
        ]
      : []),
    ...(needs.manager
      ? [
          {
            type: 'manager',
            person,
            org_unit: { uuid: unit },
            manager_type: { uuid: cls.teamLeader },
            manager_level: { uuid: cls.level4 },
            validity: { from },
          },
        ]
      : []),
    ...(needs.owner ? [{ type: 'owner', owner: person, org_unit: { uuid: unit }, validity: { from } }] : []),
  ];
  const created = await legacyWrite<string[]>(stack, '/service/details/create', details);
  const after = created.slice(needs.sibling ? 2 : 1);
  return {
    unit,
    sibling,
    engagement: needs.engagement ? after.shift()! : '',
    manager: needs.manager ? after.shift()! : '',
    owner: needs.owner ? after.shift()! : '',
  };
}

/** What the legacy service got from the gateway during `act`: writes sent, and durable writes made. */
async function received<T>(stack: TestStack, act: () => Promise<T>) {
  const proxy = stack.legacyProxy!;
  const before = { requests: proxy.requests.length, sequence: stack.legacy.store.sequence };
  const result = await act();
  const requests = proxy.requests.slice(before.requests);
  const writes = requests.filter((request) => request.method !== 'GET');
  return { result, requests, writes, durable: stack.legacy.store.sequence - before.sequence };
}

const label = (who: Who) => `${who} (${principals.find(([name]) => name === who)![1]})`;

describe.each([
  { rbac: true, title: 'RBAC on' },
  { rbac: false, title: 'RBAC off: every authenticated user may write' },
])('$title', ({ rbac }) => {
  let stack: TestStack;
  const tokens = new Map<Who, string>();

  beforeAll(async () => {
    stack = await startTestStack({ rbacEnabled: rbac, legacyProxy: true, realmUsers });
    await seed(stack);
    for (const [who] of principals) tokens.set(who, await stack.token(who));
  });
  afterAll(async () => {
    await stack?.close();
  });

  const expectedAllowed = (action: Action, who: Who) => !rbac || action.allowed.includes(who);
  const outcome = (action: Action, who: Who, refused: string) =>
    !expectedAllowed(action, who)
      ? refused
      : action.legacyRefusal
        ? `allowed, then ${action.legacyRefusal.errorKey} from the legacy service`
        : 'allowed';

  const serviceCases = actions.flatMap((action) =>
    principals.map(([who]) => {
      return [
        `/service · ${label(who)} · ${action.name} → ${outcome(action, who, 'refused')}`,
        action,
        who,
      ] as const;
    }),
  );
  it.each(serviceCases)('%s', async (_name, action, who) => {
    const fx = await prepare(stack, action.needs);
    const { path, body } = action.service(fx);
    const { result, writes, durable } = await received(stack, async () => {
      const response = await fetch(`${stack.gatewayUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.get(who)}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as any };
    });
    if (expectedAllowed(action, who) && action.legacyRefusal) {
      // Let through by RBAC, refused by the legacy service: its answer reaches the client unchanged.
      expect(result.status, JSON.stringify(result.body)).toBe(action.legacyRefusal.status);
      expect(result.body).toMatchObject({ error: true, error_key: action.legacyRefusal.errorKey });
      expect(writes.map((write) => write.path)).toEqual([path]);
      expect(durable).toBe(0);
    } else if (expectedAllowed(action, who)) {
      expect(result.status, JSON.stringify(result.body)).toBeLessThan(300);
      expect(writes.map((write) => write.path)).toEqual([path]);
      expect(durable).toBe(1);
    } else {
      expect(result.status).toBe(403);
      expect(result.body).toMatchObject({ error: true, status: 403, error_key: 'E_FORBIDDEN' });
      expect(result.body.description).toMatch(/^(You may not|Writing needs)/);
      expect(writes).toEqual([]);
      expect(durable).toBe(0);
    }
  });

  const graphqlCases = actions
    .filter((action) => action.graphql)
    .flatMap((action) =>
      principals.map(([who]) => {
        return [
          `/graphql/v2 · ${label(who)} · ${action.name} → ${outcome(action, who, 'FORBIDDEN')}`,
          action,
          who,
        ] as const;
      }),
    );
  it.each(graphqlCases)('%s', async (_name, action, who) => {
    const fx = await prepare(stack, action.needs);
    const { field, type, input } = action.graphql!(fx);
    const { result, writes, durable } = await received(stack, async () => {
      const response = await fetch(`${stack.gatewayUrl}/graphql/v2`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.get(who)}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          query: `mutation Write($input: ${type}!) { ${field}(input: $input) { uuid } }`,
          variables: { input },
        }),
      });
      return { status: response.status, body: (await response.json()) as any };
    });
    expect(result.status).toBe(200);
    if (expectedAllowed(action, who) && action.legacyRefusal) {
      expect(result.body.data).toEqual({ [field]: null });
      expect(result.body.errors).toHaveLength(1);
      expect(result.body.errors[0]).toMatchObject({
        path: [field],
        extensions: {
          code: 'BAD_USER_INPUT',
          error_key: action.legacyRefusal.errorKey,
          legacy_status: action.legacyRefusal.status,
        },
      });
      expect(writes.map((write) => write.path)).toEqual([action.service(fx).path]);
      expect(durable).toBe(0);
    } else if (expectedAllowed(action, who)) {
      expect(result.body.errors, JSON.stringify(result.body.errors)).toBeUndefined();
      expect(result.body.data[field].uuid).toEqual(expect.any(String));
      // The same legacy endpoint the /service case writes through.
      expect(writes.map((write) => write.path)).toEqual([action.service(fx).path]);
      expect(durable).toBe(1);
    } else {
      expect(result.body.data).toEqual({ [field]: null });
      expect(result.body.errors).toHaveLength(1);
      expect(result.body.errors[0]).toMatchObject({ path: [field], extensions: { code: 'FORBIDDEN' } });
      expect(result.body.errors[0].message).toMatch(/^(You may not|Writing needs)/);
      expect(writes).toEqual([]);
      expect(durable).toBe(0);
    }
  });

  describe('back-dated writes on what left the subtree today (ownership over the whole period)', () => {
    /**
     * An admin moves T (or its engagement) from oscar's unit to "elsewhere" (egon's department) from today.
     * A write dated before today would take effect over a period in which T sat in two places: every
     * owner who lacks either place is refused. ulla owns T itself, so T's move does not take it from her.
     */
    const today = new Date().toISOString().slice(0, 10);
    const past = '2025-06-01';
    interface MovedCase {
      name: string;
      moves: 'unit' | 'engagement';
      service: (fx: Fixture) => { path: string; body: unknown };
      /** Absent where GraphQL sends no such body (its unit termination uses the deprecated `{to}` form). */
      graphql?: (fx: Fixture) => { field: string; type: string; input: Record<string, unknown> };
      allowed: Who[];
    }
    const movedCases: MovedCase[] = [
      {
        name: 'terminate the unit from a past date',
        moves: 'unit',
        service: (fx) => ({ path: `/service/ou/${fx.unit}/terminate`, body: { validity: { to: past } } }),
        graphql: (fx) => ({ field: 'org_unit_terminate', ...terminateInput(fx.unit, past) }),
        allowed: ['ulla', 'alice'],
      },
      {
        // OS2mo 2.4.0's other form: T is inactive from `from` through `to`, so the write reaches back to the
        // past date, although `to` lies where T is egon's.
        name: 'terminate the unit from a past date to a future one (validity from and to)',
        moves: 'unit',
        service: (fx) => ({
          path: `/service/ou/${fx.unit}/terminate`,
          body: { validity: { from: past, to: '2098-12-31' } },
        }),
        allowed: ['ulla', 'alice'],
      },
      {
        name: 'terminate the unit for good from a past date (validity from, to null)',
        moves: 'unit',
        service: (fx) => ({
          path: `/service/ou/${fx.unit}/terminate`,
          body: { validity: { from: past, to: null } },
        }),
        allowed: ['ulla', 'alice'],
      },
      {
        name: 'rename the unit from a past date',
        moves: 'unit',
        service: (fx) => ({
          path: '/service/details/edit',
          body: unitEdit(fx.unit, { name: 'Back', validity: { from: past } }),
        }),
        graphql: (fx) => ({
          field: 'org_unit_update',
          type: 'OrgUnitUpdateInput',
          input: { uuid: fx.unit, name: 'Back', validity: { from: past } },
        }),
        allowed: ['ulla', 'alice'],
      },
      {
        name: 'create a unit under the unit from a past date',
        moves: 'unit',
        service: (fx) => ({
          path: '/service/ou/create',
          body: {
            name: 'Sub',
            parent: { uuid: fx.unit },
            org_unit_type: { uuid: cls.office },
            validity: { from: past },
          },
        }),
        graphql: (fx) => ({
          field: 'org_unit_create',
          type: 'OrgUnitCreateInput',
          input: { name: 'Sub', parent: fx.unit, org_unit_type: cls.office, validity: { from: past } },
        }),
        allowed: ['ulla', 'alice'],
      },
      {
        name: "move the unit back under oscar's unit from a past date",
        moves: 'unit',
        service: (fx) => ({
          path: '/service/details/edit',
          body: unitEdit(fx.unit, { parent: { uuid: oscarOwnedUnitUuid }, validity: { from: past } }),
        }),
        graphql: (fx) => ({
          field: 'org_unit_update',
          type: 'OrgUnitUpdateInput',
          input: { uuid: fx.unit, parent: oscarOwnedUnitUuid, validity: { from: past } },
        }),
        // ulla owns T but not oscar's unit, the new parent.
        allowed: ['alice'],
      },
      {
        name: 'create an engagement in the unit from a past date',
        moves: 'unit',
        service: (fx) => ({
          path: '/service/details/create',
          body: {
            type: 'engagement',
            person: { uuid: employees.worker },
            org_unit: { uuid: fx.unit },
            job_function: { uuid: cls.teacher },
            engagement_type: { uuid: cls.permanent },
            validity: { from: past },
          },
        }),
        graphql: (fx) => ({
          field: 'engagement_create',
          type: 'EngagementCreateInput',
          input: {
            employee: employees.worker,
            org_unit: fx.unit,
            job_function: cls.teacher,
            engagement_type: cls.permanent,
            validity: { from: past },
          },
        }),
        allowed: ['ulla', 'alice'],
      },
      {
        name: 'terminate the moved engagement from a past date',
        moves: 'engagement',
        service: (fx) => ({
          path: '/service/details/terminate',
          body: { type: 'engagement', uuid: fx.engagement, validity: { to: past } },
        }),
        graphql: (fx) => ({ field: 'engagement_terminate', ...terminateInput(fx.engagement, past) }),
        allowed: ['alice'],
      },
      {
        name: 'edit the moved engagement from a past date, naming its old unit',
        moves: 'engagement',
        service: (fx) => ({
          path: '/service/details/edit',
          body: {
            type: 'engagement',
            uuid: fx.engagement,
            data: {
              job_function: { uuid: cls.nurse },
              org_unit: { uuid: fx.unit },
              validity: { from: past },
            },
          },
        }),
        graphql: (fx) => ({
          field: 'engagement_update',
          type: 'EngagementUpdateInput',
          input: {
            uuid: fx.engagement,
            job_function: cls.nurse,
            org_unit: fx.unit,
            validity: { from: past },
          },
        }),
        allowed: ['alice'],
      },
    ];

    /** T (with an engagement) below oscar's unit, then moved — the unit or the engagement — from today. */
    async function prepareMoved(moves: 'unit' | 'engagement'): Promise<Fixture> {
      const fx = await prepare(stack, { engagement: true });
      await legacyWrite(
        stack,
        '/service/details/edit',
        moves === 'unit'
          ? unitEdit(fx.unit, { parent: { uuid: elsewhere }, validity: { from: today } })
          : {
              type: 'engagement',
              uuid: fx.engagement,
              data: { org_unit: { uuid: elsewhere }, validity: { from: today } },
            },
      );
      return fx;
    }

    const movedAllowed = (action: MovedCase, who: Who) => !rbac || action.allowed.includes(who);
    const interfaces = ['/service', '/graphql/v2'] as const;
    const cases = movedCases.flatMap((action) =>
      interfaces
        .filter((api) => api === '/service' || action.graphql)
        .flatMap((api) =>
          (['ulla', 'oscar', 'olga', 'egon', 'alice'] as const).map(
            (who) =>
              [
                `${api} · ${label(who)} · ${action.name} → ${movedAllowed(action, who) ? 'allowed' : 'refused'}`,
                action,
                api,
                who,
              ] as const,
          ),
        ),
    );
    it.each(cases)('%s', async (_name, action, api, who) => {
      const fx = await prepareMoved(action.moves);
      const { result, writes, durable } = await received(stack, async () => {
        const request =
          api === '/service'
            ? { path: action.service(fx).path, body: action.service(fx).body }
            : (() => {
                const { field, type, input } = action.graphql!(fx);
                return {
                  path: '/graphql/v2',
                  body: {
                    query: `mutation Write($input: ${type}!) { ${field}(input: $input) { uuid } }`,
                    variables: { input },
                  },
                };
              })();
        const response = await fetch(`${stack.gatewayUrl}${request.path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tokens.get(who)}`, 'content-type': 'application/json' },
          body: JSON.stringify(request.body),
        });
        return { status: response.status, body: (await response.json()) as any };
      });
      const refusal =
        api === '/service'
          ? result.status === 403 && result.body.error_key === 'E_FORBIDDEN'
          : result.body.errors?.[0]?.extensions?.code === 'FORBIDDEN';
      if (movedAllowed(action, who)) {
        expect(refusal, JSON.stringify(result.body)).toBe(false);
        expect(writes.map((write) => write.path)).toEqual([action.service(fx).path]);
      } else {
        expect(refusal, JSON.stringify(result.body)).toBe(true);
        expect(api === '/service' ? result.body.description : result.body.errors[0].message).toMatch(
          /^You may not/,
        );
        expect(writes).toEqual([]);
        expect(durable).toBe(0);
      }
    });
  });

  describe('open-ended writes from today over what an admin scheduled to leave (issue 20, item 4)', () => {
    /**
     * An admin schedules T, or T's engagement E, to move to "elsewhere" (egon's) in forty days. An edit or
     * termination "from today" with no end changes every version from today on, the scheduled one
     * included: it used to be judged on today only, so oscar (who owns T's parent, not "elsewhere") could
     * rename T for good, or erase E's move. ulla owns T itself, which goes with it.
     */
    const today = new Date().toISOString().slice(0, 10);
    const later = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    interface ScheduledCase {
      name: string;
      moves: 'unit' | 'engagement';
      service: (fx: Fixture) => { path: string; body: unknown };
      graphql: (fx: Fixture) => { field: string; type: string; input: Record<string, unknown> };
      allowed: Who[];
    }
    const scheduledCases: ScheduledCase[] = [
      {
        name: 'rename the unit from today, with no end',
        moves: 'unit',
        service: (fx) => ({
          path: '/service/details/edit',
          body: unitEdit(fx.unit, { name: 'Forever', validity: { from: today } }),
        }),
        graphql: (fx) => ({
          field: 'org_unit_update',
          type: 'OrgUnitUpdateInput',
          input: { uuid: fx.unit, name: 'Forever', validity: { from: today } },
        }),
        allowed: ['ulla', 'alice'],
      },
      {
        name: 'edit the engagement from today, with no end',
        moves: 'engagement',
        service: (fx) => ({
          path: '/service/details/edit',
          body: {
            type: 'engagement',
            uuid: fx.engagement,
            data: { job_function: { uuid: cls.nurse }, validity: { from: today } },
          },
        }),
        graphql: (fx) => ({
          field: 'engagement_update',
          type: 'EngagementUpdateInput',
          input: { uuid: fx.engagement, job_function: cls.nurse, validity: { from: today } },
        }),
        allowed: ['alice'],
      },
      {
        name: 'terminate the engagement today, before its scheduled move',
        moves: 'engagement',
        service: (fx) => ({
          path: '/service/details/terminate',
          body: { type: 'engagement', uuid: fx.engagement, validity: { to: today } },
        }),
        graphql: (fx) => ({ field: 'engagement_terminate', ...terminateInput(fx.engagement, today) }),
        allowed: ['alice'],
      },
    ];

    async function prepareScheduled(moves: 'unit' | 'engagement'): Promise<Fixture> {
      const fx = await prepare(stack, { engagement: true });
      await legacyWrite(
        stack,
        '/service/details/edit',
        moves === 'unit'
          ? unitEdit(fx.unit, { parent: { uuid: elsewhere }, validity: { from: later } })
          : {
              type: 'engagement',
              uuid: fx.engagement,
              data: { org_unit: { uuid: elsewhere }, validity: { from: later } },
            },
      );
      return fx;
    }

    const cases = scheduledCases.flatMap((action) =>
      (['/service', '/graphql/v2'] as const).flatMap((api) =>
        (['ulla', 'oscar', 'alice'] as const).map((who) => [action.name, api, who, action] as const),
      ),
    );
    it.each(cases)('%s · %s · %s', async (_name, api, who, action) => {
      const fx = await prepareScheduled(action.moves);
      const { field, type, input } = action.graphql(fx);
      const request =
        api === '/service'
          ? action.service(fx)
          : {
              path: '/graphql/v2',
              body: {
                query: `mutation Write($input: ${type}!) { ${field}(input: $input) { uuid } }`,
                variables: { input },
              },
            };
      const { result, writes, durable } = await received(stack, async () => {
        const response = await fetch(`${stack.gatewayUrl}${request.path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tokens.get(who)}`, 'content-type': 'application/json' },
          body: JSON.stringify(request.body),
        });
        return { status: response.status, body: (await response.json()) as any };
      });
      if (!rbac || action.allowed.includes(who)) {
        expect(writes.map((write) => write.path)).toEqual([action.service(fx).path]);
        expect(durable, JSON.stringify(result.body)).toBe(1);
        return;
      }
      if (api === '/service') {
        expect(result).toMatchObject({ status: 403, body: { error_key: 'E_FORBIDDEN' } });
        expect(result.body.description).toMatch(/^You may not/);
      } else {
        expect(result.body.data).toEqual({ [field]: null });
        expect(result.body.errors).toMatchObject([{ extensions: { code: 'FORBIDDEN' } }]);
      }
      expect(writes).toEqual([]);
      expect(durable).toBe(0);
    });
  });

  describe('history gaps: a record placed in a short-lived unit for a while (issue 20, item 3)', () => {
    /**
     * An admin moves T's engagement E to "elsewhere" (egon's) from 2026-01-02. ulla, who owns T, creates a
     * unit X under T for March 2025 only, moves E into it for that month, then terminates E from before it.
     * X exists neither on the termination date nor today, so the scan of the units misses E's March; the
     * check used to stop there and judge only E's days in T, and E vanished from "elsewhere".
     */
    const gatewayPost = async (who: Who, path: string, body: unknown) => {
      const response = await fetch(`${stack.gatewayUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.get(who)}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as any };
    };

    async function prepareGap(): Promise<Fixture> {
      const fx = await prepare(stack, { engagement: true });
      await legacyWrite(stack, '/service/details/edit', {
        type: 'engagement',
        uuid: fx.engagement,
        data: { org_unit: { uuid: elsewhere }, validity: { from: '2026-01-02' } },
      });
      const march = { from: '2025-03-01', to: '2025-03-31' };
      const created = await gatewayPost('ulla', '/service/ou/create', {
        name: 'X',
        parent: { uuid: fx.unit },
        org_unit_type: { uuid: cls.office },
        validity: march,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const moved = await gatewayPost('ulla', '/service/details/edit', {
        type: 'engagement',
        uuid: fx.engagement,
        data: { org_unit: { uuid: created.body }, validity: march },
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      return fx;
    }

    it.each([
      ['/service', 'ulla'],
      ['/service', 'alice'],
      ['/graphql/v2', 'ulla'],
      ['/graphql/v2', 'alice'],
    ] as const)('%s · %s terminates E from before the gap', async (api, who) => {
      const fx = await prepareGap();
      const { result, writes, durable } = await received(stack, () =>
        api === '/service'
          ? gatewayPost(who, '/service/details/terminate', {
              type: 'engagement',
              uuid: fx.engagement,
              validity: { to: '2025-02-15' },
            })
          : gatewayPost(who, '/graphql/v2', {
              query: `mutation { engagement_terminate(input: { uuid: "${fx.engagement}", to: "2025-02-15" }) { uuid } }`,
            }),
      );
      if (!rbac || who === 'alice') {
        expect(writes.map((write) => write.path)).toEqual(['/service/details/terminate']);
        expect(durable).toBe(1);
        return;
      }
      if (api === '/service') {
        expect(result).toMatchObject({ status: 403, body: { error_key: 'E_FORBIDDEN' } });
        expect(result.body.description).toMatch(/^You may not terminate engagement/);
      } else {
        expect(result.body.data).toEqual({ engagement_terminate: null });
        expect(result.body.errors).toMatchObject([{ extensions: { code: 'FORBIDDEN' } }]);
      }
      expect(writes).toEqual([]);
      expect(durable).toBe(0);
    });
  });

  describe('an owner’s list of details with unknown UUIDs, each on its own date', () => {
    const unknown = (n: number) => `0dd0dd00-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
    const terminateUnknown = (count: number) =>
      received(stack, async () => {
        const body = Array.from({ length: count }, (_, n) => ({
          type: 'engagement',
          uuid: unknown(n),
          validity: { to: day(n) },
        }));
        const started = performance.now();
        const response = await fetch(`${stack.gatewayUrl}/service/details/terminate`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tokens.get('ulla')}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const answer = { status: response.status, body: (await response.json()) as any };
        console.info(
          `${count} unknown details by an owner: ${proxyCount()} legacy calls, ${Math.round(performance.now() - started)} ms`,
        );
        return answer;
      });
    let mark = 0;
    const proxyCount = () => stack.legacyProxy!.requests.length - mark;
    const unitsToday = async () => {
      const [organisation] = (await (await stack.legacyFetch(`/service/o/`)).json()) as {
        uuid: string;
      }[];
      const page = await stack.legacyFetch(`/service/o/${organisation!.uuid}/ou/?limit=1`);
      return ((await page.json()) as { total: number }).total;
    };

    it('refuses a list of 400 before reading anything: more than an owner may send at once', async () => {
      mark = stack.legacyProxy!.requests.length;
      const { result, requests, durable } = await terminateUnknown(400);
      expect(durable).toBe(0);
      if (!rbac) return;
      expect(result.status).toBe(403);
      expect(result.body).toMatchObject({ error_key: 'E_FORBIDDEN' });
      expect(result.body.description).toMatch(/at most 100/);
      expect(requests).toEqual([]);
    });

    it('stops a refused list of eight detail types after one scan, not eight at once (issue 20, item 7)', async () => {
      const units = await unitsToday();
      mark = stack.legacyProxy!.requests.length;
      const types = ['engagement', 'manager', 'owner', 'it', 'address', 'association', 'role', 'kle'];
      const { result, requests, durable } = await received(stack, async () => {
        const response = await fetch(`${stack.gatewayUrl}/service/details/terminate`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tokens.get('ulla')}`, 'content-type': 'application/json' },
          body: JSON.stringify(
            types.map((type, n) => ({ type, uuid: unknown(500 + n), validity: { to: '2026-01-01' } })),
          ),
        });
        return { status: response.status, body: (await response.json()) as any };
      });
      console.info(`8 unknown details of 8 types by an owner: ${requests.length} legacy calls`);
      expect(durable).toBe(0);
      if (!rbac) return;
      expect(result.status).toBe(403);
      expect(result.body.description).toContain(unknown(500));
      // One type's scan (two unit pages, two listings per unit) and what it finds: the first refusal stops
      // the rest. Each of the eight scans used to start at once, about 1,700 calls with the fixture.
      expect(requests.length).toBeLessThanOrEqual(2 + 2 * units + 8);
    });

    it('decides a list of 100 with one scan of the units shared by every item', async () => {
      const units = await unitsToday();
      mark = stack.legacyProxy!.requests.length;
      const { result, requests, durable } = await terminateUnknown(100);
      expect(durable).toBe(0);
      if (!rbac) return;
      expect(result.status).toBe(403);
      expect(result.body.description).toContain(unknown(0));
      expect(requests.filter((request) => request.method !== 'GET')).toEqual([]);
      // Two unit pages (the earliest date and today), two listings per unit: not one scan per item.
      expect(requests.length).toBeLessThanOrEqual(2 + 2 * units + 1);
    });
  });

  it('fails only the refused field of a GraphQL operation; the others run', async () => {
    const fx = await prepare(stack);
    const { result, writes, durable } = await received(stack, async () => {
      const response = await fetch(`${stack.gatewayUrl}/graphql/v2`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.get('ulla')}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          query: `mutation {
            refused: employee_create(input: { givenname: "No", surname: "Body" }) { uuid }
            renamed: org_unit_update(input: { uuid: "${fx.unit}", name: "Both", validity: { from: "2027-01-01" } }) { uuid }
          }`,
        }),
      });
      return { status: response.status, body: (await response.json()) as any };
    });
    expect(result.status).toBe(200);
    expect(result.body.data.renamed).toEqual({ uuid: fx.unit });
    if (rbac) {
      expect(result.body.data.refused).toBeNull();
      expect(result.body.errors).toMatchObject([{ path: ['refused'], extensions: { code: 'FORBIDDEN' } }]);
      expect(writes.map((write) => write.path)).toEqual(['/service/details/edit']);
      expect(durable).toBe(1);
    } else {
      expect(result.body.errors).toBeUndefined();
      expect(durable).toBe(2);
    }
  });

  it('decides each mutation of an operation on fresh reads: a revoked ownership stops the next one', async () => {
    // Item 10 of issue 20: the decision reads were cached for the whole operation, so mutations after a
    // revocation were still allowed. Here the revocation is the operation's own second mutation (ulla ends
    // her ownership of T as of yesterday), which orders it deterministically between the two renames.
    const fx = await prepare(stack);
    const owners = (await (await stack.legacyFetch(`/service/ou/${fx.unit}/details/owner`)).json()) as {
      uuid: string;
      owner: { uuid: string };
    }[];
    const ullasRecord = owners.find((record) => record.owner.uuid === employees.ulla)!.uuid;
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const rename = (alias: string) =>
      `${alias}: org_unit_update(input: { uuid: "${fx.unit}", name: "${alias}", validity: { from: "2027-01-01" } }) { uuid }`;
    const { result, writes, durable } = await received(stack, async () => {
      const response = await fetch(`${stack.gatewayUrl}/graphql/v2`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.get('ulla')}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          query: `mutation {
            ${rename('before')}
            revoke: owner_terminate(input: { uuid: "${ullasRecord}", to: "${yesterday}" }) { uuid }
            ${rename('after')}
          }`,
        }),
      });
      return { status: response.status, body: (await response.json()) as any };
    });
    expect(result.status).toBe(200);
    expect(result.body.data.before).toEqual({ uuid: fx.unit });
    expect(result.body.data.revoke).toEqual({ uuid: ullasRecord });
    if (rbac) {
      expect(result.body.data.after).toBeNull();
      expect(result.body.errors).toMatchObject([{ path: ['after'], extensions: { code: 'FORBIDDEN' } }]);
      expect(writes.map((write) => write.path)).toEqual([
        '/service/details/edit',
        '/service/details/terminate',
      ]);
      expect(durable).toBe(2);
    } else {
      expect(result.body.errors).toBeUndefined();
      expect(durable).toBe(3);
    }
  });

  it('keeps an owner from making himself owner on either road, past an end an admin set or anew', async () => {
    // Issue 20, item 4: an admin ends ulla's ownership of T in forty days; her open-ended edit of that
    // owner record "from today" would keep her owner past it, and so would a new owner record.
    const fx = await prepare(stack);
    const owners = (await (await stack.legacyFetch(`/service/ou/${fx.unit}/details/owner`)).json()) as {
      uuid: string;
      owner: { uuid: string };
    }[];
    const ullasRecord = owners.find((record) => record.owner.uuid === employees.ulla)!.uuid;
    const today = new Date().toISOString().slice(0, 10);
    const later = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    await legacyWrite(stack, '/service/details/terminate', {
      type: 'owner',
      uuid: ullasRecord,
      validity: { to: later },
    });
    const send = (path: string, body: unknown) =>
      received(stack, async () => {
        const response = await fetch(`${stack.gatewayUrl}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tokens.get('ulla')}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return { status: response.status, body: (await response.json()) as any };
      });
    const redate = await send('/service/details/edit', {
      type: 'owner',
      uuid: ullasRecord,
      data: { validity: { from: today } },
    });
    const anew = await send('/service/details/create', {
      type: 'owner',
      owner: { uuid: employees.ulla },
      org_unit: { uuid: fx.unit },
      validity: { from: nextDay(later) },
    });
    const viaGraphql = await send('/graphql/v2', {
      query: `mutation { owner_create(input: { owner: "${employees.ulla}", org_unit: "${fx.unit}", validity: { from: "${nextDay(later)}" } }) { uuid } }`,
    });
    if (!rbac) {
      expect([redate, anew, viaGraphql].map((sent) => sent.writes.length)).toEqual([1, 1, 1]);
      return;
    }
    for (const refused of [redate, anew]) {
      expect(refused.result).toMatchObject({ status: 403, body: { error_key: 'E_FORBIDDEN' } });
      expect(refused.result.body.description).toMatch(/makes you owner needs the admin role/);
      expect(refused.writes).toEqual([]);
    }
    expect(viaGraphql.result.body.data).toEqual({ owner_create: null });
    expect(viaGraphql.result.body.errors).toMatchObject([{ extensions: { code: 'FORBIDDEN' } }]);
    expect(viaGraphql.writes).toEqual([]);
  });

  it('refuses a non-admin’s create over an existing object before the backend, on every road (issue 28)', async () => {
    // OS2mo 2.4.0 writes a create over the object its UUID names (orgunit.py `create_org_unit`, the detail
    // handlers in service/handler/impl/: `util.get_uuid(req, required=False)`, then a LoRa PUT of that UUID).
    const fx = await prepare(stack, { engagement: true });
    const as = (who: Who, path: string, body: unknown) =>
      received(stack, async () => {
        const response = await fetch(`${stack.gatewayUrl}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tokens.get(who)}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return { status: response.status, body: (await response.json()) as any };
      });
    const unitOver = { uuid: elsewhere, name: 'Over', org_unit_type: cls.office, validity: change };
    const kleOver = {
      uuid: fx.engagement,
      org_unit: fx.unit,
      kle_number: classUuid('kle_number', '00.01'),
      kle_aspects: [classUuid('kle_aspect', 'responsible')],
      validity: change,
    };
    const serviceKle = {
      type: 'kle',
      uuid: kleOver.uuid,
      org_unit: { uuid: fx.unit },
      kle_number: { uuid: kleOver.kle_number },
      kle_aspect: kleOver.kle_aspects.map((uuid) => ({ uuid })),
      validity: change,
    };
    const mutation = (version: string, field: string, type: string, input: unknown) =>
      as('ulla', `/graphql/${version}`, {
        query: `mutation Write($input: ${type}!) { ${field}(input: $input) { uuid } }`,
        variables: { input },
      });
    const unitRoads = [
      await as('ulla', '/service/ou/create', {
        ...unitOver,
        parent: { uuid: fx.unit },
        org_unit_type: { uuid: cls.office },
      }),
      await mutation('v2', 'org_unit_create', 'OrgUnitCreateInput', { ...unitOver, parent: fx.unit }),
      await mutation('v30', 'org_unit_create', 'OrganisationUnitCreateInput', {
        ...unitOver,
        parent: fx.unit,
      }),
    ];
    const kleRoads = [
      await as('ulla', '/service/details/create', serviceKle),
      await mutation('v2', 'kle_create', 'KLECreateInput', kleOver),
      await mutation('v21', 'kle_create', 'KLECreateInput', kleOver),
    ];
    // An admin keeps the backend's own answer: here the stand-in's, which refuses a UUID any detail type has.
    const byAdmin = await as('alice', '/service/details/create', serviceKle);
    expect(byAdmin.result).toMatchObject({ status: 409, body: { error_key: 'E_ALREADY_EXISTS' } });
    expect(byAdmin.writes).toHaveLength(1);
    for (const sent of [...unitRoads, ...kleRoads, byAdmin]) expect(sent.durable).toBe(0);
    if (!rbac) {
      for (const sent of [...unitRoads, ...kleRoads]) expect(sent.writes).toHaveLength(1);
      return;
    }
    for (const sent of [...unitRoads, ...kleRoads]) expect(sent.writes).toEqual([]);
    const [unitService, ...unitGraphql] = unitRoads;
    expect(unitService!.result).toMatchObject({ status: 409, body: { error_key: 'E_ALREADY_EXISTS' } });
    expect(unitService!.result.body.description).toMatch(/already names an org unit/);
    for (const sent of unitGraphql) {
      expect(sent.result.body.errors).toMatchObject([
        { extensions: { code: 'CONFLICT', error_key: 'E_ALREADY_EXISTS' } },
      ]);
    }
    const [kleService, ...kleGraphql] = kleRoads;
    expect(kleService!.result).toMatchObject({ status: 403, body: { error_key: 'E_FORBIDDEN' } });
    expect(kleService!.result.body.description).toMatch(/uuid you choose needs the admin role/);
    for (const sent of kleGraphql) {
      expect(sent.result.body.errors).toMatchObject([{ extensions: { code: 'FORBIDDEN' } }]);
    }
    // Nothing of the foreign objects is told: not their names, units or people.
    const told = JSON.stringify([...unitRoads, ...kleRoads].map((sent) => sent.result.body));
    expect(told).not.toMatch(/Children and Youth|administration|teacher|Tester/i);
    expect(told).not.toContain(employees.worker);
  });

  it('judges a unit edit by data.uuid, the unit OS2mo edits, not by the top-level uuid', async () => {
    const fx = await prepare(stack);
    const edit = (body: unknown) =>
      received(stack, async () => {
        const response = await fetch(`${stack.gatewayUrl}/service/details/edit`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tokens.get('ulla')}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return { status: response.status, body: (await response.json()) as any };
      });
    // data.uuid alone names the unit: ulla's own T is hers to rename.
    const own = await edit({ type: 'org_unit', data: { uuid: fx.unit, name: 'Own', validity: change } });
    expect(own.result, JSON.stringify(own.result.body)).toMatchObject({ status: 200, body: fx.unit });
    expect(own.durable).toBe(1);
    // The top-level uuid names T, which ulla owns; data.uuid names a unit she does not own.
    const foreign = await edit({
      type: 'org_unit',
      uuid: fx.unit,
      data: { uuid: elsewhere, name: 'Foreign', validity: change },
    });
    expect(foreign.durable).toBe(0);
    if (rbac) {
      expect(foreign.result).toMatchObject({ status: 403, body: { error_key: 'E_FORBIDDEN' } });
      expect(foreign.result.body.description).toMatch(/^You may not/);
      expect(foreign.writes).toEqual([]);
    } else {
      // Without RBAC the legacy service refuses the two UUIDs that disagree.
      expect(foreign.result).toMatchObject({ status: 400, body: { error_key: 'E_INVALID_INPUT' } });
      expect(foreign.writes).toHaveLength(1);
    }
  });

  it('never restricts reads, and refuses a body that is not JSON for every role, sending nothing on', async () => {
    const fx = await prepare(stack);
    const read = await fetch(`${stack.gatewayUrl}/service/ou/${fx.unit}/`, {
      headers: { authorization: `Bearer ${tokens.get('nora')}` },
    });
    expect(read.status).toBe(200);
    const query = await fetch(`${stack.gatewayUrl}/graphql/v2`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.get('nora')}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `{ org_units(filter: { uuids: ["${fx.unit}"] }) { objects { name } } }`,
      }),
    });
    expect(((await query.json()) as any).data.org_units.objects).toEqual([{ name: 'T' }]);

    const garbled = (who: Who) =>
      received(stack, async () => {
        const response = await fetch(`${stack.gatewayUrl}/service/ou/create`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tokens.get(who)}`, 'content-type': 'application/json' },
          body: '{ "name": ',
        });
        return { status: response.status, body: (await response.json()) as any };
      });
    // Issue 35: the gateway parses every body once, strictly, whatever the role (`judgedBody`).
    const byOwner = await garbled('ulla');
    expect(byOwner.result).toMatchObject({ status: 400, body: { error_key: 'E_INVALID_INPUT' } });
    expect(byOwner.writes).toEqual([]);
    expect(byOwner.durable).toBe(0);
    const byNoRole = await garbled('nora');
    expect(byNoRole.result).toMatchObject({ status: 400, body: { error_key: 'E_INVALID_INPUT' } });
    expect(byNoRole.writes).toEqual([]);
    expect(byNoRole.durable).toBe(0);
  });

  it('refuses a body over the limit before RBAC reads it or anything reaches the legacy service', async () => {
    const fx = await prepare(stack);
    const { result, requests, durable } = await received(stack, async () => {
      const response = await fetch(`${stack.gatewayUrl}/service/details/edit`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.get('ulla')}`, 'content-type': 'application/json' },
        body: JSON.stringify(unitEdit(fx.unit, { name: 'x'.repeat(2 * 1024 * 1024), validity: change })),
      });
      return { status: response.status, body: (await response.json()) as any };
    });
    expect(result).toMatchObject({ status: 413, body: { error_key: 'E_PAYLOAD_TOO_LARGE' } });
    expect(requests).toEqual([]);
    expect(durable).toBe(0);
  });
});
