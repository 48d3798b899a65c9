import { beforeAll, describe, expect, it } from 'vitest';
import { sharedReadOnlyStack, signIn, type GraphQLSession } from './stack.js';

/**
 * One fact, one answer: a filter member asking for what no 2.x record holds answers as the fields do (the
 * ledger's `empty` facts, `gateway/src/graphql/os2mo/ledger/`). A 2.x manager names no engagement
 * (`Manager.engagement_response` is null), so a manager filter's `engagement` keeps no manager given any value
 * and every manager given null; a 2.x facet has no parent (`Facet.parent_response` is null), so a facet
 * filter's `parent`, `parents` and `parent_user_keys` keep no facet given any value and every facet given
 * null. OS2mo's semantics: `mora/graphapi/resolvers.py`@66.1.2, the manager predicate's `engagement`
 * (lines 1630-1650, any value that is not null), the facet predicate's `parent` (341-359) with the lists
 * folded into it (171-178); each member defaults to null (`mora/graphapi/filters.py`@66.1.2:379-396, 556).
 * The same holds for an IT account filter's `engagement` (2.x accounts name none: `ITUser.engagement_response`
 * is null; the predicate at :2634-2654), a class filter's `it_system` (2.x classes name none:
 * `Class.it_system_response` is null; :506-523) and an address filter's `ituser` (2.x addresses name none:
 * `Address.ituser_response` is null). OS2mo tests an address's `engagement` and `ituser` as one relation, the
 * two ORed (:754-791), where a 2.x address holds its engagement: so `ituser` narrows no `engagement` given
 * beside it, nor an engagement's addresses (OS2mo seeds the engagement there), and its UUIDs, taken as they
 * are (`uuid_shortcircuit`, :111-122), keep the addresses of an engagement they name.
 * Likewise an engagement filter's `ituser` (the engagements 2.x IT accounts name: none; the predicate at
 * :1342-1361 reads the relation off the accounts, with no `uuid_shortcircuit`), an IT account filter's
 * `external_ids` and `binding_types` (2.x accounts have neither: `ITUser.external_id` and `binding_type` are
 * null; :2682-2727, where v30's `external_ids: null` keeps the accounts without one and older versions read
 * null as not given) and a role binding filter's `role` (2.x has no role binding; :3369-3387).
 * Each case runs on v30 and on the oldest version that has the member (v27 for the manager's, v26 for the
 * engagement's `ituser`, the IT account's `binding_types` and the role binding's `role`, v22 for the IT
 * account's `engagement` and `external_ids` and the address's, v21 for the facet's and the class's; v26 as
 * well for `external_ids`, the first version with both), over the seeded stand-in.
 */
let nora: GraphQLSession;
beforeAll(async () => {
  nora = await signIn(await sharedReadOnlyStack(), 'nora');
});

/** The UUIDs a root lists under a filter, sorted. */
async function listed(version: string, root: string, type: string, filter: unknown): Promise<string[]> {
  const body = await nora.ask(version, `query($f: ${type}) { ${root}(filter: $f) { objects { uuid } } }`, {
    f: filter,
  });
  expect(body.errors).toBeUndefined();
  return (body.data![root].objects as { uuid: string }[]).map((object) => object.uuid).sort();
}

/**
 * A person's `link` (a list of records) unfiltered, with `member: null` and with `member: value`: null keeps
 * every record the link holds, the value none.
 */
async function expectPersonLinkKeeps(
  version: string,
  person: string,
  link: string,
  member: string,
  value = '{}',
) {
  const links = await nora.ask(
    version,
    `query($p: [UUID!]) { employees(filter: {uuids: $p}) { objects { current {
      all: ${link} { uuid } kept: ${link}(filter: {${member}: null}) { uuid }
      none: ${link}(filter: {${member}: ${value}}) { uuid }
    } } } }`,
    { p: [person] },
  );
  expect(links.errors, member).toBeUndefined();
  const current = links.data!.employees.objects[0].current;
  expect(current.all.length, member).toBeGreaterThan(0);
  expect(current.kept, member).toEqual(current.all);
  expect(current.none, member).toEqual([]);
}

describe.each(['v30', 'v27'])('%s: a manager filter’s engagement (2.x managers name none)', (version) => {
  it('keeps no manager given an engagement filter, `{}` included, and every manager given null', async () => {
    const all = await listed(version, 'managers', 'ManagerFilter', {});
    expect(all.length).toBeGreaterThan(1);
    const engagements = await listed(version, 'engagements', 'EngagementFilter', {});
    expect(await listed(version, 'managers', 'ManagerFilter', { engagement: null })).toEqual(all);
    expect(await listed(version, 'managers', 'ManagerFilter', { engagement: {} })).toEqual([]);
    expect(
      await listed(version, 'managers', 'ManagerFilter', { engagement: { uuids: engagements } }),
    ).toEqual([]);
  });

  it('keeps none through a unit’s managers link and with `inherit`', async () => {
    const body = await nora.ask(
      version,
      `{ managers(limit: 1) { objects { current { org_unit_response { uuid } } } } }`,
    );
    const unit = body.data!.managers.objects[0].current.org_unit_response.uuid as string;
    const links = await nora.ask(
      version,
      `query($u: [UUID!]) { org_units(filter: {uuids: $u}) { objects { current {
        all: managers { uuid } none: managers(filter: {engagement: {}}) { uuid }
      } } } }`,
      { u: [unit] },
    );
    expect(links.errors).toBeUndefined();
    const current = links.data!.org_units.objects[0].current;
    expect(current.all.length).toBeGreaterThan(0);
    expect(current.none).toEqual([]);
    const inherited = { org_unit: { uuids: [unit] } };
    expect(
      await listed(version, 'managers', 'ManagerFilter', { ...inherited, engagement: null }),
    ).not.toEqual([]);
    const body2 = await nora.ask(
      version,
      `query($f: ManagerFilter) { managers(filter: $f, inherit: true) { objects { uuid } } }`,
      { f: { ...inherited, engagement: {} } },
    );
    expect(body2.errors).toBeUndefined();
    expect(body2.data!.managers.objects).toEqual([]);
  });
});

it('v26 has no manager filter `engagement`: OS2mo added it when v27 was newest (50.4.0)', async () => {
  const body = await nora.ask('v26', '{ managers(filter: {engagement: {}}) { objects { uuid } } }');
  expect(body.errors?.[0]?.message).toMatch(/engagement/);
});

describe.each(['v30', 'v21'])('%s: a facet filter’s parent (2.x facets have none)', (version) => {
  it('`parent`, `parents` and `parent_user_keys` keep no facet given a value and every facet given null', async () => {
    const body = await nora.ask(version, '{ facets { objects { uuid current { user_key } } } }');
    const facets = body.data!.facets.objects as { uuid: string; current: { user_key: string } }[];
    const all = facets.map((facet) => facet.uuid).sort();
    expect(all.length).toBeGreaterThan(1);
    const list = (filter: unknown) => listed(version, 'facets', 'FacetFilter', filter);
    expect(await list({ parent: null, parents: null, parent_user_keys: null })).toEqual(all);
    for (const asked of [
      { parent: {} },
      { parent: { uuids: all } },
      { parents: [] },
      { parents: all },
      { parent_user_keys: facets.map((facet) => facet.current.user_key) },
    ]) {
      expect(await list(asked), JSON.stringify(asked)).toEqual([]);
    }
  });

  it('a class filter’s facet asking for a parent keeps no class, unless UUIDs name the facets', async () => {
    const body = await nora.ask(version, '{ facets(limit: 1) { objects { uuid } } }');
    const facet = body.data!.facets.objects[0].uuid as string;
    const list = (filter: unknown) => listed(version, 'classes', 'ClassFilter', filter);
    const all = await list({});
    const ofFacet = await list({ facet: { uuids: [facet] } });
    expect(ofFacet.length).toBeGreaterThan(0);
    expect(await list({ facet: { parent: null } })).toEqual(all);
    expect(await list({ facet: { parent: {} } })).toEqual([]);
    expect(await list({ facet: { parents: [facet] } })).toEqual([]);
    // OS2mo's `uuid_shortcircuit` (`resolvers.py`@66.1.2:111-122): UUIDs pick the facets, whatever else is asked.
    expect(await list({ facet: { uuids: [facet], parent: {} } })).toEqual(ofFacet);
  });
});

describe('v30: a link’s facet filter', () => {
  it('keeps no class of a manager’s responsibilities when its facet asks for a parent', async () => {
    const body = await nora.ask(
      'v30',
      `{ managers { objects { current {
        all: responsibilities_response { objects { uuid } }
        none: responsibilities_response(filter: {facet: {parent: {}}}) { objects { uuid } }
        kept: responsibilities_response(filter: {facet: {parent: null}}) { objects { uuid } }
      } } } }`,
    );
    expect(body.errors).toBeUndefined();
    const managers = (body.data!.managers.objects as { current: Record<string, { objects: unknown[] }> }[])
      .map((object) => object.current)
      .filter((current) => current.all!.objects.length > 0);
    expect(managers.length).toBeGreaterThan(0);
    for (const current of managers) {
      expect(current.none!.objects).toEqual([]);
      expect(current.kept).toEqual(current.all);
    }
  });
});

describe.each(['v30', 'v22'])('%s: an IT account filter’s engagement (2.x accounts name none)', (version) => {
  it('keeps no account given an engagement filter, `{}` and UUIDs included, and every account given null', async () => {
    const all = await listed(version, 'itusers', 'ITUserFilter', {});
    expect(all.length).toBeGreaterThan(1);
    const engagements = await listed(version, 'engagements', 'EngagementFilter', {});
    expect(engagements.length).toBeGreaterThan(0);
    expect(await listed(version, 'itusers', 'ITUserFilter', { engagement: null })).toEqual(all);
    expect(await listed(version, 'itusers', 'ITUserFilter', { engagement: {} })).toEqual([]);
    expect(await listed(version, 'itusers', 'ITUserFilter', { engagement: { uuids: engagements } })).toEqual(
      [],
    );
  });

  it('keeps none through a person’s IT accounts link, and all given null', async () => {
    const body = await nora.ask(version, '{ itusers { objects { current { employee_uuid } } } }');
    const person = (body.data!.itusers.objects as { current: { employee_uuid: string | null } }[]).find(
      (object) => object.current.employee_uuid !== null,
    )!.current.employee_uuid!;
    await expectPersonLinkKeeps(version, person, 'itusers', 'engagement');
  });
});

it('v21 has no IT account filter `engagement` and no address filter `ituser`: OS2mo added them in v22', async () => {
  const itusers = await nora.ask('v21', '{ itusers(filter: {engagement: {}}) { objects { uuid } } }');
  expect(itusers.errors?.[0]?.message).toMatch(/engagement/);
  const addresses = await nora.ask('v21', '{ addresses(filter: {ituser: {}}) { objects { uuid } } }');
  expect(addresses.errors?.[0]?.message).toMatch(/ituser/);
});

describe.each(['v30', 'v21'])('%s: a class filter’s IT system (2.x classes name none)', (version) => {
  it('keeps no class given an IT system filter, `{}` and UUIDs included, and every class given null', async () => {
    const list = (filter: unknown) => listed(version, 'classes', 'ClassFilter', filter);
    const all = await list({});
    expect(all.length).toBeGreaterThan(1);
    const systems = await listed(version, 'itsystems', 'ITSystemFilter', {});
    expect(systems.length).toBeGreaterThan(0);
    expect(await list({ it_system: null })).toEqual(all);
    expect(await list({ it_system: {} })).toEqual([]);
    expect(await list({ it_system: { uuids: systems } })).toEqual([]);
    expect(await list({ facet: { parent: null }, it_system: {} })).toEqual([]);
  });

  it('keeps none through a facet’s classes link, and all given null', async () => {
    const body = await nora.ask(
      version,
      `{ facets { objects { current {
        all: classes { uuid } kept: classes(filter: {it_system: null}) { uuid }
        none: classes(filter: {it_system: {}}) { uuid }
      } } } }`,
    );
    expect(body.errors).toBeUndefined();
    const facets = (body.data!.facets.objects as { current: Record<string, unknown[]> }[])
      .map((object) => object.current)
      .filter((current) => current.all!.length > 0);
    expect(facets.length).toBeGreaterThan(0);
    for (const current of facets) {
      expect(current.kept).toEqual(current.all);
      expect(current.none).toEqual([]);
    }
  });
});

describe.each(['v30', 'v22'])('%s: an address filter’s IT account (2.x addresses name none)', (version) => {
  /** Every address with the engagement it names (OS2mo's deprecated `engagement_uuid`, the record's own). */
  async function addresses() {
    const body = await nora.ask(version, '{ addresses { objects { uuid current { engagement_uuid } } } }');
    expect(body.errors).toBeUndefined();
    return (body.data!.addresses.objects as { uuid: string; current: { engagement_uuid: string | null } }[])
      .map((object) => ({ uuid: object.uuid, engagement: object.current.engagement_uuid }))
      .sort((a, b) => a.uuid.localeCompare(b.uuid));
  }
  const list = (filter: unknown) => listed(version, 'addresses', 'AddressFilter', filter);

  it('keeps no address given an IT account filter alone, and every address given null', async () => {
    const all = (await addresses()).map((address) => address.uuid);
    expect(all.length).toBeGreaterThan(1);
    const itusers = await listed(version, 'itusers', 'ITUserFilter', {});
    expect(await list({ ituser: null })).toEqual(all);
    expect(await list({ ituser: {} })).toEqual([]);
    expect(await list({ ituser: { uuids: itusers } })).toEqual([]);
    expect(await list({ ituser: { uuids: [] } })).toEqual([]);
  });

  it('is ORed with `engagement`, and its UUIDs keep the addresses of an engagement they name', async () => {
    const all = await addresses();
    const engagement = all.find((address) => address.engagement !== null)?.engagement;
    expect(engagement).toBeDefined();
    const ofEngagement = all
      .filter((address) => address.engagement === engagement)
      .map((address) => address.uuid);
    expect(ofEngagement.length).toBeLessThan(all.length);
    expect(await list({ engagement: { uuids: [engagement] }, ituser: {} })).toEqual(ofEngagement);
    // OS2mo matches an `ituser`'s UUIDs against the one relation a 2.x address names its engagement in.
    expect(await list({ ituser: { uuids: [engagement] } })).toEqual(ofEngagement);
    expect(await list({ ituser: { uuids: [engagement], user_keys: ['no such account'] } })).toEqual(
      ofEngagement,
    );
  });
});

describe('v30: an engagement’s addresses, filtered by IT account', () => {
  it('keeps every address of the engagement: OS2mo seeds the engagement, and `ituser` is ORed with it', async () => {
    const body = await nora.ask('v30', '{ addresses { objects { current { engagement_uuid } } } }');
    const engagement = (body.data!.addresses.objects as { current: { engagement_uuid: string | null } }[])
      .map((object) => object.current.engagement_uuid)
      .find((uuid) => uuid !== null);
    expect(engagement).toBeDefined();
    const links = await nora.ask(
      'v30',
      `query($e: [UUID!]) { engagements(filter: {uuids: $e}) { objects { current {
        all: addresses_response { objects { uuid } }
        any: addresses_response(filter: {ituser: {}}) { objects { uuid } }
        named: addresses_response(filter: {ituser: {uuids: []}}) { objects { uuid } }
        kept: addresses_response(filter: {ituser: null}) { objects { uuid } }
      } } } }`,
      { e: [engagement] },
    );
    expect(links.errors).toBeUndefined();
    const current = links.data!.engagements.objects[0].current;
    expect(current.all.objects.length).toBeGreaterThan(0);
    for (const name of ['any', 'named', 'kept']) expect(current[name], name).toEqual(current.all);
  });

  it('adds the addresses of another engagement its `ituser` UUIDs name, as OS2mo takes them as they are', async () => {
    const body = await nora.ask(
      'v30',
      '{ addresses { objects { uuid current { engagement_uuid employee_uuid } } } }',
    );
    const all = body.data!.addresses.objects as {
      uuid: string;
      current: { engagement_uuid: string | null; employee_uuid: string | null };
    }[];
    const withEngagement = all.filter((address) => address.current.engagement_uuid !== null);
    const first = withEngagement[0]!.current;
    // Another person's engagement: its addresses are in no listing the first engagement's reads hold.
    const second = withEngagement.find((a) => a.current.employee_uuid !== first.employee_uuid)!.current;
    const of = (engagement: string | null) =>
      all.filter((address) => address.current.engagement_uuid === engagement).map((a) => a.uuid);
    const links = await nora.ask(
      'v30',
      `query($e: [UUID!], $i: [UUID!]) { engagements(filter: {uuids: $e}) { objects { current {
        both: addresses_response(filter: {ituser: {uuids: $i}}) { objects { uuid } }
        narrowed: addresses_response(filter: {ituser: {uuids: $i}, address_type: {uuids: $e}}) { objects { uuid } }
      } } } }`,
      { e: [first.engagement_uuid], i: [second.engagement_uuid] },
    );
    expect(links.errors).toBeUndefined();
    const current = links.data!.engagements.objects[0].current;
    const uuids = (list: { uuid: string }[]) => list.map((address) => address.uuid).sort();
    expect(uuids(current.both.objects)).toEqual(
      [...of(first.engagement_uuid), ...of(second.engagement_uuid)].sort(),
    );
    expect(current.narrowed.objects).toEqual([]);
  });
});

describe.each(['v30', 'v26'])(
  '%s: an engagement filter’s IT account (2.x accounts name no engagement)',
  (version) => {
    it('keeps no engagement given an IT account filter, `{}` and UUIDs included, and every engagement given null', async () => {
      const list = (filter: unknown) => listed(version, 'engagements', 'EngagementFilter', filter);
      const all = await list({});
      expect(all.length).toBeGreaterThan(1);
      const itusers = await listed(version, 'itusers', 'ITUserFilter', {});
      expect(itusers.length).toBeGreaterThan(0);
      expect(await list({ ituser: null })).toEqual(all);
      expect(await list({ ituser: {} })).toEqual([]);
      // No `uuid_shortcircuit` here: OS2mo reads the relation off the accounts the UUIDs name.
      expect(await list({ ituser: { uuids: itusers } })).toEqual([]);
      expect(await list({ ituser: { uuids: all } })).toEqual([]);
    });

    it('keeps none through a person’s engagements link, and all given null', async () => {
      const body = await nora.ask(
        version,
        '{ engagements(limit: 1) { objects { current { employee_uuid } } } }',
      );
      const person = body.data!.engagements.objects[0].current.employee_uuid as string;
      await expectPersonLinkKeeps(version, person, 'engagements', 'ituser');
    });
  },
);

it('v25 has no engagement filter `ituser` and no IT account filter `binding_types`: OS2mo added them in v26', async () => {
  const engagements = await nora.ask('v25', '{ engagements(filter: {ituser: {}}) { objects { uuid } } }');
  expect(engagements.errors?.[0]?.message).toMatch(/ituser/);
  const itusers = await nora.ask('v25', '{ itusers(filter: {binding_types: []}) { objects { uuid } } }');
  expect(itusers.errors?.[0]?.message).toMatch(/binding_types/);
});

describe.each(['v30', 'v26', 'v22'])(
  '%s: an IT account filter’s external ids and binding types (2.x accounts have none)',
  (version) => {
    const list = (filter: unknown) => listed(version, 'itusers', 'ITUserFilter', filter);
    const members = version === 'v22' ? ['external_ids'] : ['external_ids', 'binding_types'];

    it('keeps no account given a list, `[]` included, and every account given null', async () => {
      const body = await nora.ask(version, '{ itusers { objects { uuid current { user_key } } } }');
      const accounts = body.data!.itusers.objects as { uuid: string; current: { user_key: string } }[];
      const all = accounts.map((account) => account.uuid).sort();
      expect(all.length).toBeGreaterThan(1);
      for (const member of members) {
        // Up to v29 OS2mo reads null as not given; v30's null keeps the accounts without one: every 2.x one.
        expect(await list({ [member]: null }), member).toEqual(all);
        expect(await list({ [member]: [] }), member).toEqual([]);
        const named = accounts.map((account) => account.current.user_key);
        expect(await list({ [member]: named }), member).toEqual([]);
      }
    });

    it('keeps none through a person’s IT accounts link, and all given null', async () => {
      const body = await nora.ask(version, '{ itusers { objects { current { employee_uuid } } } }');
      const person = (body.data!.itusers.objects as { current: { employee_uuid: string | null } }[]).find(
        (object) => object.current.employee_uuid !== null,
      )!.current.employee_uuid!;
      for (const member of members) await expectPersonLinkKeeps(version, person, 'itusers', member, '["x"]');
    });
  },
);

it('v21 has no IT account filter `external_ids`: OS2mo added it in v22', async () => {
  const body = await nora.ask('v21', '{ itusers(filter: {external_ids: []}) { objects { uuid } } }');
  expect(body.errors?.[0]?.message).toMatch(/external_ids/);
});

describe.each(['v30', 'v26'])('%s: a role binding filter’s role (2.x has no role bindings)', (version) => {
  it('keeps none whatever it is given, at the root and through an IT account’s role bindings', async () => {
    for (const role of [null, {}, { user_keys: ['admin'] }]) {
      expect(
        await listed(version, 'rolebindings', 'RoleBindingFilter', { role }),
        JSON.stringify(role),
      ).toEqual([]);
    }
    const body = await nora.ask(
      version,
      `{ itusers(limit: 1) { objects { current {
        none: rolebindings(filter: {role: {}}) { uuid }
        kept: rolebindings(filter: {role: null}) { uuid }
      } } } }`,
    );
    expect(body.errors).toBeUndefined();
    const current = body.data!.itusers.objects[0].current;
    expect(current.none).toEqual([]);
    expect(current.kept).toEqual([]);
  });
});

it('v25 has no role binding filter `role`: OS2mo added it in v26', async () => {
  const body = await nora.ask('v25', '{ rolebindings(filter: {role: {}}) { objects { uuid } } }');
  expect(body.errors?.[0]?.message).toMatch(/role/);
});

describe.each(['v30', 'v22'])('%s: an IT account’s addresses, filtered by engagement', (version) => {
  it('holds the addresses of the engagement named: OS2mo seeds the account and ORs it with `engagement`', async () => {
    const body = await nora.ask(
      version,
      '{ addresses { objects { uuid current { engagement_uuid } } } itusers(limit: 1) { objects { uuid } } }',
    );
    expect(body.errors).toBeUndefined();
    const all = body.data!.addresses.objects as {
      uuid: string;
      current: { engagement_uuid: string | null };
    }[];
    const engagement = all.find((address) => address.current.engagement_uuid !== null)!.current
      .engagement_uuid;
    const ofEngagement = all
      .filter((address) => address.current.engagement_uuid === engagement)
      .map((address) => address.uuid)
      .sort();
    expect(ofEngagement.length).toBeGreaterThan(0);
    const account = body.data!.itusers.objects[0].uuid as string;
    const responses = version === 'v30';
    const links = await nora.ask(
      version,
      `query($a: [UUID!], $e: [UUID!], $a0: UUID!) { itusers(filter: {uuids: $a}) { objects { current {
        all: addresses { uuid } named: addresses(filter: {engagement: {uuids: $e}}) { uuid }
        listed: addresses(filter: {engagements: $e}) { uuid }
        other: addresses(filter: {address_type: {}}) { uuid }
        narrowed: addresses(filter: {engagement: {uuids: $e}, address_type: {uuids: [$a0]}}) { uuid }
        ${responses ? 'paged: addresses_response(filter: {engagement: {uuids: $e}}) { objects { uuid } }' : ''}
      } } } }`,
      // An address type no address has (the account's own UUID): the filter's other members narrow.
      { a: [account], e: [engagement], a0: account },
    );
    expect(links.errors).toBeUndefined();
    const current = links.data!.itusers.objects[0].current;
    expect(current.narrowed).toEqual([]);
    const uuids = (list: { uuid: string }[]) => list.map((address) => address.uuid).sort();
    expect(current.all).toEqual([]);
    expect(current.other).toEqual([]);
    expect(uuids(current.named)).toEqual(ofEngagement);
    expect(uuids(current.listed)).toEqual(ofEngagement);
    if (responses) expect(uuids(current.paged.objects)).toEqual(ofEngagement);
  });
});
