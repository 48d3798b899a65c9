import { isObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  writeReplacements,
  type WriteReplacement,
} from '../gateway/src/comparison/coverage/write-replacements.js';
import { detailRoad } from '../gateway/src/comparison/detail-comparison.js';
import type { DetailOwner } from '../gateway/src/comparison/detail-listings.js';
import { servedV30Schema } from '../gateway/src/comparison/os2mo-road.js';
import type { DetailType } from '../gateway/src/legacy/legacy-paths.js';
import { classUuid as cls, organisationUuid, unitUuid } from '../legacy-service/src/fixture/organisation.js';
import { postGraphQL, startTestStack, type TestStack } from './stack.js';

/**
 * The coverage report names a v30 mutation (and the field mapping) for every `/service` write; this suite
 * proves each pair: the same change made through `/service` on one target and through the v30 mutation on
 * its twin (the v30 input made from the Service API body by the report's own mapping, a last day as v30's
 * exclusive end) leaves the same records, read back through `/service` and through GraphQL. The twins are made by the proven creates, so
 * each later pair starts from equal data; every UUID of a twin is read as its counterpart's.
 */
type Json = Record<string, unknown>;
let stack: TestStack;
let authorization: string;
let itsystem: string;

beforeAll(async () => {
  stack = await startTestStack();
  authorization = `Bearer ${await stack.token('alice')}`;
  const systems = (await (await stack.legacyFetch(`/service/o/${organisationUuid}/it/`)).json()) as Json[];
  itsystem = systems[0]!.uuid as string;
});
afterAll(() => stack.close());

const replacements = writeReplacements();

/** A `/service` write through the gateway, as an integration makes it. */
async function service(path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${stack.gatewayUrl}${path}`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.status, `${path}: ${text}`).toBeLessThan(300);
  return JSON.parse(text) as unknown;
}

/** The mutations this suite has proven against their writes. */
const proven = new Set<string>();

/** A v30 mutation with its input (the input type read from the served schema); answers the UUID. */
async function mutate(name: string, input: Json): Promise<string> {
  proven.add(name);
  const mutation = servedV30Schema().getMutationType();
  const field = isObjectType(mutation) ? mutation.getFields()[name] : undefined;
  expect(field, name).toBeDefined();
  const type = field!.args.find((argument) => argument.name === 'input')!.type.toString();
  const { body } = await postGraphQL(
    stack,
    'v30',
    { query: `mutation($input: ${type}) { ${name}(input: $input) { uuid } }`, variables: { input } },
    { authorization },
  );
  expect(body.errors, `${name}: ${JSON.stringify(input)}`).toBeUndefined();
  return body.data[name].uuid as string;
}

/** The day after a Service API day: v30's exclusive end for the Service API's last day. */
const dayAfter = (day: string) => {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
};

/** A value of a Service API body by a mapping's name (`person.uuid`, `destination[]`, `origin (path)`). */
function valueAt(body: Json, name: string): unknown {
  let value: unknown = body;
  for (const part of name
    .replace(/ \(path\)$/, '')
    .replace(/\[\]$/, '')
    .split('.')) {
    if (Array.isArray(value)) value = value.map((item) => (item as Json)[part]);
    else value = value === null || value === undefined ? undefined : (value as Json)[part];
  }
  return value;
}

/**
 * The v30 input of a Service API body, by the report's mapping for the type: each Service API name's value
 * under its input name; a last day (`validity.to`) becomes v30's exclusive end, the day after, as the
 * report's `ends` says.
 */
function toInput(body: Json, mapping: Record<string, string>): Json {
  const input: Json = {};
  for (const [legacy, os2mo] of Object.entries(mapping)) {
    const value = valueAt(body, legacy);
    if (value === undefined) continue;
    const shifted = legacy === 'validity.to' && typeof value === 'string' ? dayAfter(value) : value;
    const path = os2mo.split('.');
    let target = input;
    for (const part of path.slice(0, -1)) target = (target[part] ??= {}) as Json;
    target[path.at(-1)!] = shifted;
  }
  return input;
}

/** The mutation a replacement names for a record type, and the type's mapping. */
function replacementFor(
  replacement: WriteReplacement,
  type: string,
): { name: string; mapping: Record<string, string> } {
  const types = Object.keys(replacement.mapping);
  expect(types, type).toContain(type);
  return { name: replacement.mutations[types.indexOf(type)]!, mapping: replacement.mapping[type]! };
}

/** Each twin UUID pair: the `/service` side's and the v30 side's, read as one. */
const twins: [string, string][] = [];

/** A read's answer with every twin UUID on the v30 side written as its `/service` counterpart. */
const asServiceSide = (value: unknown) => {
  let text = JSON.stringify(value);
  for (const [serviceSide, v30Side] of twins) text = text.replaceAll(v30Side, serviceSide);
  return JSON.parse(text) as unknown;
};

async function serviceRead(path: string): Promise<unknown> {
  const response = await fetch(`${stack.gatewayUrl}${path}`, { headers: { authorization } });
  expect(response.status, path).toBe(200);
  return response.json();
}

async function graphqlRead(version: string, request: { query: string; variables?: Json }) {
  const { body } = await postGraphQL(stack, version, request, { authorization });
  expect(body.errors, request.query).toBeUndefined();
  return body.data as unknown;
}

/** The reads of a target, through `/service` and through GraphQL (v30 where it serves the read). */
type Reads = (target: string) => Promise<{ service: unknown; graphql: unknown }>;

/** Both twins read both ways: the v30 side's answers must be the `/service` side's, twin for twin. */
async function expectTwinsEqual(reads: Reads, serviceSide: string, v30Side: string) {
  const left = await reads(serviceSide);
  const right = await reads(v30Side);
  expect(asServiceSide(right.service), 'read back through /service').toEqual(left.service);
  expect(asServiceSide(right.graphql), 'read back through GraphQL').toEqual(left.graphql);
}

const unitReads: Reads = async (uuid) => ({
  service: await serviceRead(`/service/ou/${uuid}/`),
  graphql: await graphqlRead('v30', {
    query:
      'query($uuid: UUID!) { org_units(filter: { uuids: [$uuid] }) { objects { current { uuid name user_key validity { from to } parent { uuid } unit_type { uuid } org_unit_level { uuid } } } } }',
    variables: { uuid },
  }),
});

const personReads: Reads = async (uuid) => ({
  service: await serviceRead(`/service/e/${uuid}/`),
  graphql: await graphqlRead('v30', {
    query:
      'query($uuid: UUID!) { persons(filter: { uuids: [$uuid] }) { objects { current { uuid name given_name surname nickname user_key } } } }',
    variables: { uuid },
  }),
});

/** A detail listing, through `/service` and the GraphQL the coverage report proves it with. */
const detailReads =
  (owner: DetailOwner, type: DetailType): Reads =>
  async (uuid) => {
    const road = detailRoad(owner, type, [uuid]);
    const data = await graphqlRead(road.version, road.request);
    return {
      service: await serviceRead(`/service/${owner === 'org_units' ? 'ou' : 'e'}/${uuid}/details/${type}`),
      graphql: road.version === 'v30' ? road.asV2(data) : data,
    };
  };

const from = '2024-01-01';
const twin = { unit: ['', ''], person: ['', ''] };

// One scenario in steps, kept in its order (the suite shuffles the rest): each step writes on the twin unit and
// person the first two made, and the last ends them.
describe('each /service write and its v30 mutation leave the same records', { shuffle: false }, () => {
  it('createOrgUnit: /service/ou/create and org_unit_create', async () => {
    const body = {
      name: 'Proof unit',
      user_key: 'proof-unit',
      parent: { uuid: unitUuid(1) },
      org_unit_type: { uuid: cls('org_unit_type', 'team') },
      validity: { from },
    };
    const { name, mapping } = replacementFor(replacements.createOrgUnit!, 'org_unit');
    const serviceSide = (await service('/service/ou/create', body)) as string;
    const v30Side = await mutate(name, toInput(body, mapping));
    twins.push([serviceSide, v30Side]);
    twin.unit = [serviceSide, v30Side];
    await expectTwinsEqual(unitReads, serviceSide, v30Side);
  });

  it('createEmployee: /service/e/create and employee_create', async () => {
    const body = {
      givenname: 'Proof',
      surname: 'Person',
      user_key: 'proof-person',
      org: { uuid: organisationUuid },
    };
    const { name, mapping } = replacementFor(replacements.createEmployee!, 'employee');
    const serviceSide = (await service('/service/e/create', body)) as string;
    const v30Side = await mutate(name, toInput(body, mapping));
    twins.push([serviceSide, v30Side]);
    twin.person = [serviceSide, v30Side];
    await expectTwinsEqual(personReads, serviceSide, v30Side);
  });

  /** One record of each detail type a v30 mutation writes, on the unit and person twins; their owners' listings. */
  const details: {
    type: DetailType;
    body: (unit: string, person: string, engagement: string) => Json;
    owners: DetailOwner[];
  }[] = [
    {
      type: 'engagement',
      body: (unit, person) => ({
        person: { uuid: person },
        org_unit: { uuid: unit },
        job_function: { uuid: cls('engagement_job_function', 'teacher') },
        engagement_type: { uuid: cls('engagement_type', 'permanent') },
        fraction: 50,
      }),
      owners: ['org_units', 'employees'],
    },
    {
      type: 'manager',
      body: (unit, person) => ({
        person: { uuid: person },
        org_unit: { uuid: unit },
        manager_type: { uuid: cls('manager_type', 'team_leader') },
        manager_level: { uuid: cls('manager_level', 'level_4') },
        responsibility: [{ uuid: cls('responsibility', 'budget') }],
      }),
      owners: ['org_units', 'employees'],
    },
    {
      type: 'owner',
      body: (unit, person) => ({ org_unit: { uuid: unit }, owner: { uuid: person } }),
      owners: ['org_units'],
    },
    {
      type: 'it',
      body: (unit, person) => ({
        person: { uuid: person },
        itsystem: { uuid: itsystem },
        user_key: `account-${person}`,
      }),
      owners: ['employees'],
    },
    {
      type: 'address',
      body: (unit) => ({
        org_unit: { uuid: unit },
        address_type: { uuid: cls('org_unit_address_type', 'unit_email') },
        value: 'proof@example.org',
        visibility: { uuid: cls('visibility', 'internal') },
      }),
      owners: ['org_units'],
    },
    {
      type: 'association',
      body: (unit, person) => ({
        person: { uuid: person },
        org_unit: { uuid: unit },
        association_type: { uuid: cls('association_type', 'member') },
      }),
      owners: ['org_units', 'employees'],
    },
    {
      type: 'leave',
      body: (_unit, person, engagement) => ({
        person: { uuid: person },
        engagement: { uuid: engagement },
        leave_type: { uuid: cls('leave_type', 'parental') },
      }),
      owners: ['employees'],
    },
    {
      type: 'kle',
      body: (unit) => ({
        org_unit: { uuid: unit },
        kle_number: { uuid: cls('kle_number', '00.01') },
        kle_aspect: [{ uuid: cls('kle_aspect', 'responsible') }],
      }),
      owners: ['org_units'],
    },
  ];
  /** Each type's record on the `/service` twins and on the v30 twins. */
  const records = new Map<DetailType, [string, string]>();

  /** A detail type's listings of the unit and person twins, both ways. */
  const expectListingsEqual = async (type: DetailType, owners: DetailOwner[]) => {
    for (const owner of owners) {
      const [serviceSide, v30Side] = owner === 'org_units' ? twin.unit : twin.person;
      await expectTwinsEqual(detailReads(owner, type), serviceSide!, v30Side!);
    }
  };

  it.each(details.map((detail) => [detail.type, detail] as const))(
    'createDetails (%s): /service/details/create and its <type>_create',
    async (type, detail) => {
      const engagements = records.get('engagement') ?? ['', ''];
      const body = (side: 0 | 1) => ({
        type,
        ...detail.body(twin.unit[side]!, twin.person[side]!, engagements[side]),
        validity: { from },
      });
      const { name, mapping } = replacementFor(replacements.createDetails!, type);
      const serviceSide = (await service('/service/details/create', body(0))) as string;
      // The v30 twin's body names the v30 twins; the mapping makes the input of it.
      const v30Side = await mutate(name, toInput(body(1), mapping));
      twins.push([serviceSide, v30Side]);
      records.set(type, [serviceSide, v30Side]);
      await expectListingsEqual(type, detail.owners);
    },
  );

  it.each(details.map((detail) => [detail.type, detail] as const))(
    'editDetails (%s): /service/details/edit and its <type>_update',
    async (type, detail) => {
      const [serviceSide, v30Side] = records.get(type)!;
      const data = { user_key: `edited ${type}`, validity: { from: '2025-01-01' } };
      const { name, mapping } = replacementFor(replacements.editDetails!, type);
      await service('/service/details/edit', { type, uuid: serviceSide, data });
      await mutate(name, toInput({ uuid: v30Side, ...data }, mapping));
      await expectListingsEqual(type, detail.owners);
    },
  );

  it('editDetails (org_unit, employee): /service/details/edit and org_unit_update, employee_update', async () => {
    const edits = [
      { type: 'org_unit', twins: twin.unit, data: { name: 'Proof unit, renamed' }, reads: unitReads },
      { type: 'employee', twins: twin.person, data: { surname: 'Renamed' }, reads: personReads },
    ];
    for (const edit of edits) {
      const [serviceSide, v30Side] = edit.twins;
      const data = { ...edit.data, validity: { from: '2025-01-01' } };
      const { name, mapping } = replacementFor(replacements.editDetails!, edit.type);
      // A unit's or person's edit names it in `data` too (OS2mo 2.4.0 reads it there).
      await service('/service/details/edit', {
        type: edit.type,
        uuid: serviceSide,
        data: { uuid: serviceSide, ...data },
      });
      await mutate(name, toInput({ uuid: v30Side, ...data }, mapping));
      await expectTwinsEqual(edit.reads, serviceSide!, v30Side!);
    }
  });

  const end = '2031-12-31';

  it.each(details.map((detail) => [detail.type, detail] as const))(
    'terminateDetails (%s): /service/details/terminate and its <type>_terminate',
    async (type, detail) => {
      const [serviceSide, v30Side] = records.get(type)!;
      const body = (uuid: string) => ({ type, uuid, validity: { to: end } });
      const { name, mapping } = replacementFor(replacements.terminateDetails!, type);
      await service('/service/details/terminate', body(serviceSide));
      await mutate(name, toInput(body(v30Side), mapping));
      await expectListingsEqual(type, detail.owners);
    },
  );

  it('mapOrgUnits: /service/ou/{uuid}/map and related_units_update, relating and (after the records end) unrelating', async () => {
    const [serviceSide, v30Side] = twin.unit;
    const body = (origin: string, destination = [unitUuid(2)], day = '2025-01-01') => ({
      origin,
      destination,
      validity: { from: day },
    });
    const { name, mapping } = replacementFor(replacements.mapOrgUnits!, 'related_unit');
    const { origin: _origin, ...serviceBody } = body(serviceSide!);
    await service(`/service/ou/${serviceSide}/map`, serviceBody);
    await mutate(name, toInput(body(v30Side!), mapping));
    // The relation's UUID is the Service API's own choice (from its two units): the twins' relations pair up.
    const relation = async (unit: string) =>
      ((await serviceRead(`/service/ou/${unit}/details/related_unit`)) as Json[]).map(
        (record) => record.uuid,
      );
    const [made, twinMade] = [await relation(serviceSide!), await relation(v30Side!)];
    expect(made).toHaveLength(1);
    expect(twinMade).toHaveLength(1);
    twins.push([made[0] as string, twinMade[0] as string]);
    await expectListingsEqual('related_unit', ['org_units']);
    // Related to nothing from the day after the records' end: the relation ends with them (a unit with a
    // relation after its end cannot be terminated).
    const unrelate = (origin: string) => body(origin, [], dayAfter(end));
    const { origin: _again, ...unrelated } = unrelate(serviceSide!);
    await service(`/service/ou/${serviceSide}/map`, unrelated);
    await mutate(name, toInput(unrelate(v30Side!), mapping));
    await expectListingsEqual('related_unit', ['org_units']);
  });

  it('terminateOrgUnit and terminateEmployee: /service/…/terminate and org_unit_terminate, employee_terminate', async () => {
    const cases = [
      { operation: 'terminateOrgUnit', type: 'org_unit', path: 'ou', twins: twin.unit, reads: unitReads },
      { operation: 'terminateEmployee', type: 'employee', path: 'e', twins: twin.person, reads: personReads },
    ];
    for (const terminated of cases) {
      const [serviceSide, v30Side] = terminated.twins;
      const body = { validity: { to: end } };
      const { name, mapping } = replacementFor(replacements[terminated.operation]!, terminated.type);
      await service(`/service/${terminated.path}/${serviceSide}/terminate`, body);
      await mutate(name, toInput({ uuid: v30Side, ...body }, mapping));
      await expectTwinsEqual(terminated.reads, serviceSide!, v30Side!);
    }
  });

  it('has proven every mutation the coverage report names for a write (what its proven_on claims)', () => {
    const named = new Set(Object.values(replacements).flatMap((replacement) => replacement.mutations));
    expect([...proven].sort()).toEqual([...named].sort());
    expect(named.size).toBeGreaterThanOrEqual(27);
  });

  it("tells where a create differs when the body leaves the key out: /service keys a unit by its name, v30 by its UUID (OS2mo's own create)", async () => {
    const body = {
      name: 'Keyless unit',
      parent: { uuid: unitUuid(1) },
      org_unit_type: { uuid: cls('org_unit_type', 'team') },
      validity: { from },
    };
    const { name, mapping } = replacementFor(replacements.createOrgUnit!, 'org_unit');
    const serviceSide = (await service('/service/ou/create', body)) as string;
    const v30Side = await mutate(name, toInput(body, mapping));
    const keyOf = async (uuid: string) => ((await serviceRead(`/service/ou/${uuid}/`)) as Json).user_key;
    expect([await keyOf(serviceSide), await keyOf(v30Side)]).toEqual(['Keyless unit', v30Side]);
    // A person is keyed by its UUID both ways.
    const person = { givenname: 'Keyless', surname: 'Person', org: { uuid: organisationUuid } };
    const { name: personMutation, mapping: personMapping } = replacementFor(
      replacements.createEmployee!,
      'employee',
    );
    const servicePerson = (await service('/service/e/create', person)) as string;
    const v30Person = await mutate(personMutation, toInput(person, personMapping));
    const personKey = async (uuid: string) => ((await serviceRead(`/service/e/${uuid}/`)) as Json).user_key;
    expect([await personKey(servicePerson), await personKey(v30Person)]).toEqual([servicePerson, v30Person]);
  });
});
