import { beforeAll, describe, expect, it } from 'vitest';
import {
  closedUnitUuid,
  futureUnitUuid,
  referenceUnitUuids,
} from '../legacy-service/src/fixture/organisation.js';
import {
  sharedReadOnlyStack,
  signIn,
  type TestStack,
  type TracedGraphQLSession,
  type UpstreamTrace,
} from './stack.js';

/** OS2mo's v30 reads over the stand-in: the response model, windows, paging and the reference plan. */
let stack: TestStack;
let nora: TracedGraphQLSession;
beforeAll(async () => {
  stack = await sharedReadOnlyStack();
  nora = await signIn(stack, 'nora', { trace: true });
});

const shape = (trace: UpstreamTrace) =>
  trace.calls
    .map((call) => `${call.round} ${call.path.split('?')[0]!.replace(/[0-9a-f-]{36}/g, '{uuid}')}`)
    .sort();

describe('v30: the reference query in OS2mo’s shape', () => {
  const query = `query Reference($uuids: [UUID!]) {
    org_units(filter: { uuids: $uuids }) {
      objects { current { name managers { manager_type { user_key } person { name engagements { job_function { user_key } } } } } }
    }
  }`;

  it('costs 6 legacy requests in 2 rounds, as the hand-written plan does', async () => {
    const body = await nora.ask('v30', query, { uuids: referenceUnitUuids });
    expect(body.errors).toBeUndefined();
    expect(body.extensions.upstream.rounds).toBe(2);
    expect(body.extensions.upstream.requests).toBe(6);
    expect(shape(body.extensions.upstream)).toEqual([
      ...Array(3).fill('1 /service/ou/{uuid}/details/manager'),
      ...Array(3).fill('2 /service/e/{uuid}/details/engagement'),
    ]);
  });

  it('answers what v2 answers, with `person` as a list', async () => {
    const v30 = await nora.ask('v30', query, { uuids: referenceUnitUuids });
    const v2 = await nora.ask(
      'v2',
      `query($uuids: [UUID!]) { org_units(filter: { uuids: $uuids }) { objects { name managers { manager_type { user_key } employee { name engagements { job_function { user_key } } } } } } }`,
      { uuids: referenceUnitUuids },
    );
    const fromV2 = v2.data!.org_units.objects.map((unit: any) => ({
      name: unit.name,
      managers: unit.managers.map((manager: any) => ({
        manager_type: manager.manager_type,
        person: manager.employee === null ? null : [manager.employee],
      })),
    }));
    expect(v30.data!.org_units.objects.map((response: any) => response.current)).toEqual(fromV2);
    expect(fromV2).toHaveLength(3);
  });
});

describe('v30: paging as OS2mo pages', () => {
  it('gives every object without a limit, and the same objects page by page through next_cursor', async () => {
    const all = await nora.ask('v30', '{ org_units { objects { uuid } page_info { next_cursor } } }');
    expect(all.errors).toBeUndefined();
    const everyUnit = all.data!.org_units.objects.map((response: any) => response.uuid);
    // The stand-in's fixture has 100 units; one closed in the past and one opens in the future.
    expect(everyUnit).toHaveLength(98);
    expect(all.data!.org_units.page_info.next_cursor).toBeNull();

    const paged: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await nora.ask(
        'v30',
        'query($cursor: Cursor) { org_units(limit: 40, cursor: $cursor) { objects { uuid } page_info { next_cursor } } }',
        { cursor },
      );
      expect(page.errors).toBeUndefined();
      paged.push(...page.data!.org_units.objects.map((response: any) => response.uuid));
      cursor = page.data!.org_units.page_info.next_cursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(3);
    expect(paged).toEqual(everyUnit);
  });

  it('answers limit 0 with no objects (SQL LIMIT 0), and refuses a negative limit', async () => {
    const none = await nora.ask('v30', '{ classes(limit: 0) { objects { uuid } } }');
    expect(none.data!.classes.objects).toEqual([]);
    const negative = await nora.ask('v30', '{ classes(limit: -1) { objects { uuid } } }');
    expect(negative.errors?.[0]?.message).toBe('limit must be a whole number from 0; got -1.');
  });

  it('reads every unit with its managers and engagements when no limit is given (a directory synchronisation)', async () => {
    const everything = await nora.ask(
      'v30',
      '{ org_units { objects { current { managers { uuid } engagements { uuid } } } } }',
    );
    // 98 units, each with two listings, fit the default budget of 1000 calls: all of them come back.
    expect(everything.errors).toBeUndefined();
    expect(everything.data!.org_units.objects).toHaveLength(98);
  });
});

describe('v30: time', () => {
  it('shows validities as OS2mo does: Copenhagen midnight, the end exclusive', async () => {
    const body = await nora.ask(
      'v30',
      'query($uuid: UUID!) { org_units(filter: {uuids: [$uuid], from_date: null, to_date: null}) { objects { validities { validity { from to } } } } }',
      { uuid: closedUnitUuid() },
    );
    expect(body.errors).toBeUndefined();
    // The legacy record holds 2010-01-01 to 2021-12-31, both days included.
    expect(body.data!.org_units.objects).toEqual([
      { validities: [{ validity: { from: '2010-01-01T00:00:00+01:00', to: '2022-01-01T00:00:00+01:00' } }] },
    ]);
  });

  it('lists a unit by the window: the closed one in the past, the future one ahead, neither today', async () => {
    const query =
      'query($uuids: [UUID!], $from: DateTime, $to: DateTime) { org_units(filter: {uuids: $uuids, from_date: $from, to_date: $to}) { objects { uuid } } }';
    const uuids = [closedUnitUuid(), futureUnitUuid()];
    const listed = async (variables: Record<string, unknown>) =>
      (await nora.ask('v30', query, { uuids, ...variables })).data!.org_units.objects.map(
        (response: any) => response.uuid,
      );
    expect(await listed({})).toEqual([]);
    expect(await listed({ from: '2015-01-01' })).toEqual([closedUnitUuid()]);
    expect(await listed({ from: '2031-01-01', to: null })).toEqual([futureUnitUuid()]);
    expect(await listed({ from: null, to: null })).toEqual(uuids);
  });

  it('reads a detail listing over an open window with at most the three validity reads', async () => {
    const body = await nora.ask(
      'v30',
      'query($uuid: UUID!) { managers(filter: {org_unit: {uuids: [$uuid]}, from_date: null, to_date: null}) { objects { uuid validities(start: null, end: null) { user_key } } } }',
      { uuid: referenceUnitUuids[0] },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.managers.objects.length).toBeGreaterThan(0);
    expect(shape(body.extensions.upstream)).toEqual([
      '1 /service/ou/{uuid}/details/manager',
      '1 /service/ou/{uuid}/details/manager',
      '1 /service/ou/{uuid}/details/manager',
    ]);
  });

  it('treats a variable the request did not send as absent, not as null (OS2mo’s UNSET)', async () => {
    const body = await nora.ask(
      'v30',
      `query($uuid: UUID!, $from: DateTime, $start: DateTime) {
        org_units(filter: {uuids: [$uuid], from_date: $from}) { objects { validities(start: $start) { name } } }
      }`,
      { uuid: referenceUnitUuids[0] },
    );
    // Sent as null, both would mean an open start without an end, which is refused.
    expect(body.errors).toBeUndefined();
    expect(body.data!.org_units.objects).toHaveLength(1);
    expect(body.data!.org_units.objects[0].validities).toHaveLength(1);
  });

  it('refuses an open start without an end, as OS2mo does', async () => {
    const body = await nora.ask('v30', '{ org_units(filter: {from_date: null}) { objects { uuid } } }');
    expect(body.errors?.[0]).toMatchObject({
      message: 'filter.to_date must be given when filter.from_date is null (an open start).',
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });
});

describe('v30: filters and relations', () => {
  it('filters details by their unit and by their person, as the unit and the person list them', async () => {
    const unit = referenceUnitUuids[1];
    const byUnit = await nora.ask(
      'v30',
      'query($uuid: UUID!) { engagements(filter: {org_unit: {uuids: [$uuid]}}) { objects { current { uuid org_unit_uuid person { uuid } } } } }',
      { uuid: unit },
    );
    expect(byUnit.errors).toBeUndefined();
    const engagements = byUnit.data!.engagements.objects.map((response: any) => response.current);
    expect(engagements.length).toBeGreaterThan(0);
    expect(new Set(engagements.map((engagement: any) => engagement.org_unit_uuid))).toEqual(new Set([unit]));
    const person = engagements[0].person[0].uuid;
    const byPerson = await nora.ask(
      'v30',
      'query($uuid: UUID!) { engagements(filter: {employee: {uuids: [$uuid]}}) { objects { current { uuid person { uuid } } } } }',
      { uuid: person },
    );
    const theirs = byPerson.data!.engagements.objects.map((response: any) => response.current);
    expect(theirs.every((engagement: any) => engagement.person[0].uuid === person)).toBe(true);
    expect(theirs.map((engagement: any) => engagement.uuid)).toContain(engagements[0].uuid);
  });

  it('filters classes by their facet', async () => {
    const body = await nora.ask(
      'v30',
      '{ classes(filter: {facet: {user_keys: ["manager_type"]}}) { objects { current { user_key facet { user_key } } } } }',
    );
    expect(body.errors).toBeUndefined();
    const facets = body.data!.classes.objects.map((response: any) => response.current.facet.user_key);
    expect(facets.length).toBeGreaterThan(0);
    expect(new Set(facets)).toEqual(new Set(['manager_type']));
  });
});

describe("OS2mo's older versions, each a step back from the next", () => {
  const closedValidity =
    'query($uuid: UUID!) { org_units(filter: {uuids: [$uuid], from_date: null, to_date: null}) { objects { validities { validity { from to } } } } }';

  it('v28 shows the last day included as `to`, v29 the exclusive end (migration guide, "Version 29")', async () => {
    const validity = async (version: string) =>
      (await nora.ask(version, closedValidity, { uuid: closedUnitUuid() })).data!.org_units.objects[0]
        .validities[0].validity;
    expect(await validity('v29')).toEqual({
      from: '2010-01-01T00:00:00+01:00',
      to: '2022-01-01T00:00:00+01:00',
    });
    expect(await validity('v28')).toEqual({
      from: '2010-01-01T00:00:00+01:00',
      to: '2021-12-31T00:00:00+01:00',
    });
    expect(await validity('v21')).toEqual(await validity('v28'));
  });

  it('v27 gives a top-level unit the organisation\'s UUID as parent_uuid, v28 null ("Version 28")', async () => {
    const topParent = async (version: string) => {
      const body = await nora.ask(
        version,
        '{ org_units { objects { current { parent { uuid } parent_uuid } } } }',
      );
      expect(body.errors).toBeUndefined();
      const units = body.data!.org_units.objects.map((response: any) => response.current);
      return units.filter((unit: any) => unit.parent === null).map((unit: any) => unit.parent_uuid);
    };
    expect(await topParent('v28')).toEqual([null]);
    const organisation = (await stack.legacyFetch('/service/o/').then((r) => r.json())) as { uuid: string }[];
    expect(await topParent('v27')).toEqual([organisation[0]!.uuid]);
  });

  it('v25 on: a manager filter with employee: null lists vacant positions; before, it is no filter ("Version 25")', async () => {
    const managers = async (version: string, filter: string) => {
      const body = await nora.ask(
        version,
        `{ managers(filter: ${filter}) { objects { current { employee_uuid } } } }`,
      );
      expect(body.errors).toBeUndefined();
      return body.data!.managers.objects.map((response: any) => response.current.employee_uuid);
    };
    const all = await managers('v30', '{}');
    const vacant = await managers('v30', '{employee: null}');
    expect(vacant.length).toBeGreaterThan(0);
    expect(vacant.every((person: string | null) => person === null)).toBe(true);
    expect(vacant.length).toBeLessThan(all.length);
    expect(await managers('v25', '{employee: null}')).toEqual(vacant);
    expect(await managers('v24', '{employee: null}')).toEqual(all);
  });

  it('v25 and older have no `persons`, as OS2mo’s printout of v25 has none', async () => {
    const body = await nora.ask('v25', '{ persons { objects { uuid } } }');
    expect(body.errors?.[0]?.message).toMatch(/Cannot query field "persons"/);
    expect((await nora.ask('v25', '{ employees(limit: 1) { objects { uuid } } }')).errors).toBeUndefined();
  });
});
