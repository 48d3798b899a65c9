import {
  getNamedType,
  isInputObjectType,
  isListType,
  getNullableType,
  isObjectType,
  type GraphQLField,
  type GraphQLInputObjectType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { backendHoldsNone } from '../gateway/src/graphql/os2mo/ledger/index.js';
import { buildVersions } from '../gateway/src/graphql/versions.js';
import { postGraphQL, sharedReadOnlyStack, type TestStack } from './stack.js';

/**
 * Every filter filters (issue 35, item 4): the red team found `employee: {cpr_numbers: …}` and
 * `employee: {query: …}` inside `engagements`, `managers` and `addresses` filters returning every record.
 * This walks every input member of every root collection's filter in v30's schema, and every member of each
 * sub-filter inside it (`engagements(filter: {employee: {query: …}})`), against the seeded stand-in: for each
 * it picks a value that selects a strict subset (from the seed's own records and links) and fails when the
 * answer is the unfiltered one. A member may instead be refused with `NOT_SERVED_BY_THIS_BACKEND`; a member
 * that cannot narrow on the seed needs its reason in `cannotNarrow`, and a reason no case uses fails too.
 * Every link with a filter on those collections' objects (`Employee.engagements_response(filter:
 * EmployeeBoundEngagementFilter)`, `OrganisationUnit.has_children(filter: ParentBoundOrganisationUnitFilter)`:
 * read off the schema, `linkCases`) is walked the same way on one parent whose link answers the most (it
 * caught `has_children` ignoring a window); a link 2.x never fills (the ledger's `empty` entries) is empty by
 * contract. A sub-filter's own sub-filters (`org_unit: {parent: {…}}`) are given `{uuids: […]}` in the
 * sub-filter walk: each is a root's or a link's filter type walked member by member above, read through
 * the same predicate (`unitsMatching`, `peopleMatching`), so the walk does not descend further.
 * The semantics each member is held to are OS2mo's (`mora/graphapi/resolvers.py`@HEAD and its tests in
 * `tests/graphapi/`); `test/os2mo-v30-filters.test.ts` and `os2mo-v30-detail-filters.test.ts` check exact answers.
 */
const cannotNarrow: Readonly<Record<string, string>> = {
  RoleBindingFilter:
    'the 2.x Service API holds no role bindings (the ledger: `ledger/role-binding.ts`): the unfiltered answer is already empty',
  'FacetFilter.from_date': 'facets are timeless in 2.x: every facet is valid in every window',
  'FacetFilter.to_date': 'facets are timeless in 2.x: every facet is valid in every window',
  'ITSystemFilter.from_date': 'IT systems are timeless in 2.x: every system is valid in every window',
  'ITSystemFilter.to_date': 'IT systems are timeless in 2.x: every system is valid in every window',
  'ClassFilter.from_date': 'classes are timeless in 2.x: every class is valid in every window',
  'ClassFilter.to_date': 'classes are timeless in 2.x: every class is valid in every window',
  'ClassOwnerFilter.include_none':
    'alone it keeps every class: with no other member every unit is an owner that matches, and no 2.x class has an owner',
  'EmployeeFilter.from_date': 'every seeded person is valid from before 2000 and has no end',
  'EngagementBoundAddressFilter.ituser':
    'OS2mo ORs an address filter’s `ituser` with its `engagement` (`mora/graphapi/resolvers.py`@66.1.2:754-791), which an engagement’s addresses link seeds with the engagement: every address of it is kept',
  'ITUser.addresses_response':
    'OS2mo seeds the IT account into the address filter and ORs it with `engagement` (`mora/graphapi/collections/it.py`@66.1.2:420-432, `resolvers.py`:754-791); no 2.x address names an IT account, so the link is empty until an `engagement` is given (`test/os2mo-held-none-filters.test.ts` holds that answer)',
  'OrganisationUnit.leaves_response':
    'a 2.x leave names its person and engagement, never a unit (the contract’s `Leave`): no unit’s leave listing holds one',
};

/** Which root lists the objects a sub-filter of this type picks, and what to read of each. */
const kinds: Readonly<Record<string, { root: string; fields: string }>> = {
  EmployeeFilter: { root: 'persons', fields: 'user_key name cpr_number' },
  OrganisationUnitFilter: {
    root: 'org_units',
    fields: 'user_key name parent { uuid user_key } children { uuid }',
  },
  ClassOwnerFilter: { root: 'org_units', fields: 'user_key name parent { uuid user_key } children { uuid }' },
  ClassFilter: {
    root: 'classes',
    fields: 'user_key name scope facet { uuid user_key } parent { uuid user_key }',
  },
  FacetFilter: { root: 'facets', fields: 'user_key' },
  ITSystemFilter: { root: 'itsystems', fields: 'user_key' },
  EngagementFilter: {
    root: 'engagements',
    fields:
      'user_key person { uuid user_key } org_unit { uuid user_key } job_function { uuid user_key } engagement_type { uuid user_key }',
  },
  ITUserFilter: {
    root: 'itusers',
    fields: 'user_key person { uuid user_key } org_unit { uuid user_key } itsystem { uuid user_key }',
  },
};

/** The link on an object a filter member narrows by, where its name differs from the member's. */
const linkOf: Readonly<Record<string, string>> = {
  employee: 'person',
  employees: 'person',
  exclude: 'person',
  owner: 'owner',
  org_units: 'org_unit',
  address_types: 'address_type',
  address_type_user_keys: 'address_type',
  association_types: 'association_type',
  association_type_user_keys: 'association_type',
  itsystem_uuids: 'itsystem',
  engagements: 'engagement',
  facets: 'facet',
  facet_user_keys: 'facet',
  parents: 'parent',
  parent_user_keys: 'parent',
  responsibility: 'responsibilities',
};

/** A UUID no seeded object has: what a member whose objects 2.x never links to is given. */
const nobody = '00000000-0000-4000-8000-000000000000';

let stack: TestStack;
let token: string;
const schema: GraphQLSchema = buildVersions().find((version) => version.name === 'v30')!.schema;

beforeAll(async () => {
  stack = await sharedReadOnlyStack();
  token = await stack.token('nora');
});

type Ref = { uuid: string; user_key?: string };
type Row = { uuid: string; current: Record<string, unknown> | null };

type Answer = {
  data?: Record<string, any>;
  errors?: { message: string; extensions?: { code?: string } }[];
};

/**
 * Each distinct request's answer, asked once: the stack is read-only, so the same query with the same
 * variables answers the same (a sub-filter's objects are read by every root that has one, and a window
 * member's value picks the same window twice).
 */
const answers = new Map<string, Promise<Answer>>();

function ask(query: string, variables: Record<string, unknown> = {}): Promise<Answer> {
  const key = JSON.stringify([query, variables]);
  let answer = answers.get(key);
  if (!answer) {
    answer = postGraphQL(stack, 'v30', { query, variables }, { authorization: `Bearer ${token}` }).then(
      ({ body }) => body as Answer,
    );
    answers.set(key, answer);
  }
  return answer;
}

/** A root's objects under a filter: their UUIDs, or the error code it was refused with. */
async function listed(root: string, type: string, filter: object): Promise<string[] | { refused: string }> {
  const body = await ask(`query($f: ${type}) { ${root}(filter: $f) { objects { uuid } } }`, { f: filter });
  if (body.errors) return { refused: body.errors[0]?.extensions?.code ?? body.errors[0]!.message };
  return (body.data![root].objects as { uuid: string }[]).map((object) => object.uuid).sort();
}

const refsIn = (value: unknown): Ref[] =>
  (Array.isArray(value) ? value : value ? [value] : []).filter(
    (ref): ref is Ref => typeof ref === 'object' && ref !== null && 'uuid' in ref,
  );

/** The link value held by the fewest of the records (at least one): the one that narrows them most. */
function rarest(rows: readonly Row[], field: string): Ref | undefined {
  const held = new Map<string, { ref: Ref; count: number }>();
  for (const row of rows) {
    for (const ref of refsIn(row.current?.[field])) {
      const entry = held.get(ref.uuid) ?? { ref, count: 0 };
      entry.count += 1;
      held.set(ref.uuid, entry);
    }
  }
  return [...held.values()].sort((a, b) => a.count - b.count)[0]?.ref;
}

/** The user key held by the fewest of the records. */
function rarestKey(rows: readonly Row[]): string | undefined {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const key = row.current?.user_key;
    if (typeof key === 'string') counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => a[1] - b[1])[0]?.[0];
}

/** The value a member is given, read off `subject` (an object of the filter's kind, or a root's records). */
function valueFor(member: string, type: GraphQLInputObjectType, subject: Row, rows: readonly Row[]): unknown {
  const field = type.getFields()[member]!;
  const named = getNamedType(field.type);
  const list = isListType(getNullableType(field.type));
  const current = subject.current ?? {};
  const link = rarest(rows, linkOf[member] ?? member) ?? refsIn(current[linkOf[member] ?? member])[0];
  if (member === 'uuids') return [subject.uuid];
  if (member === 'user_keys') return [rarestKey(rows) ?? current.user_key ?? 'none-such'];
  if (member === 'from_date') return '2000-01-01';
  // With an unbounded start, a window ending before anything was made.
  if (member === 'to_date') return '1900-01-01';
  if (member === 'query') return current.name ?? 'none-such-text';
  if (member === 'names' || member === 'name') return [current.name ?? 'none-such'];
  if (member === 'cpr_numbers') return [current.cpr_number ?? '0101000000'];
  if (member === 'scope') return [current.scope ?? 'none-such'];
  if (member === 'it_association') return true;
  if (member === 'include_none') return true;
  if (member === 'external_ids' || member === 'binding_types') return ['none-such'];
  if (member === 'subtree' || member === 'descendant' || member === 'ancestor')
    return { uuids: [subject.uuid] };
  if (member === 'child') return { uuids: [refsIn(current.children)[0]?.uuid ?? nobody] };
  if (member.endsWith('_user_keys')) return [link?.user_key ?? 'none-such'];
  if (isInputObjectType(named)) return { uuids: [link?.uuid ?? nobody] };
  if (list && named.name === 'UUID') return [link?.uuid ?? nobody];
  throw new Error(`The walk has no value for ${type.name}.${member}: add one.`);
}

/** Root collections by the filter type they take (the first root of each, `persons` for people). */
const eventRoots = new Set(['event_fetch', 'events', 'event_listeners', 'event_namespaces']);

function roots(): [string, GraphQLInputObjectType][] {
  const found = new Map<string, [string, GraphQLInputObjectType]>();
  for (const field of Object.values(schema.getQueryType()!.getFields())) {
    const argument = field.args.find((arg) => arg.name === 'filter');
    const type = argument && getNamedType(argument.type);
    if (!isInputObjectType(type) || field.deprecationReason) continue;
    // OS2mo's event system filters what the gateway's own database holds, not the backend's data:
    // test/events.test.ts holds its filters.
    if (eventRoots.has(field.name)) continue;
    if (!found.has(type.name)) found.set(type.name, [field.name, type]);
  }
  return [...found.values()];
}

/** Every link field a root's objects have among the members' links, selected as `{ uuid user_key }`. */
function linkSelection(root: string, type: GraphQLInputObjectType): string {
  const objectType = getNamedType(schema.getQueryType()!.getFields()[root]!.type);
  const entity = isObjectType(objectType) ? getNamedType(objectType.getFields().objects!.type) : undefined;
  const current = isObjectType(entity) ? getNamedType(entity.getFields().current!.type) : undefined;
  return isObjectType(current) ? objectSelection(current, type) : '';
}

/** The scalars and links of an object type that a filter's members are read off. */
function objectSelection(objectType: GraphQLObjectType, type: GraphQLInputObjectType): string {
  const fields = objectType.getFields();
  const links = new Set(
    Object.keys(type.getFields())
      .map((member) => linkOf[member] ?? member)
      // An address's engagement and IT account are read one by one: over every address, past the call budget.
      .filter((name) => name !== 'engagement' && name !== 'ituser')
      .filter((name) => name in fields && isObjectType(getNamedType(fields[name]!.type))),
  );
  const scalars = ['user_key', 'name', 'cpr_number', 'scope'].filter((name) => name in fields);
  // A link's user key only where a `…_user_keys` member needs it: a person's is one more read each.
  const keyed = new Set(
    Object.keys(type.getFields())
      .filter((member) => member.endsWith('_user_keys'))
      .map((member) => linkOf[member] ?? member),
  );
  const selected = [...links].map((link) => `${link} { uuid${keyed.has(link) ? ' user_key' : ''} }`);
  return [...scalars, ...selected].join(' ');
}

const used = new Set<string>();

/** How many of a root's objects a link walk reads to find the parent whose link answers the most. */
const anchorsRead = 12;

interface LinkCase {
  root: string;
  parent: GraphQLObjectType;
  field: string;
  filterType: GraphQLInputObjectType;
}

/**
 * Every link with a filter on the objects of v30's root collections (`Employee.engagements_response(filter:
 * EmployeeBoundEngagementFilter)`, `OrganisationUnit.child_count(filter: ParentBoundOrganisationUnitFilter)`),
 * read off the schema: each object type once, by the first root that lists it; deprecated links share their
 * replacement's filter machinery and are left to it.
 */
function linkCases(): LinkCase[] {
  const cases: LinkCase[] = [];
  const seen = new Set<string>();
  for (const field of Object.values(schema.getQueryType()!.getFields())) {
    if (field.deprecationReason || eventRoots.has(field.name)) continue;
    if (!field.args.some((arg) => arg.name === 'filter')) continue;
    const paged = getNamedType(field.type);
    const entity = isObjectType(paged) ? paged.getFields().objects : undefined;
    const entityType = entity && getNamedType(entity.type);
    const current = isObjectType(entityType) ? entityType.getFields().current : undefined;
    const parent = current && getNamedType(current.type);
    if (!isObjectType(parent) || seen.has(parent.name)) continue;
    seen.add(parent.name);
    for (const link of Object.values(parent.getFields())) {
      const argument = link.args.find((arg) => arg.name === 'filter');
      const filterType = argument && getNamedType(argument.type);
      if (link.deprecationReason || !isInputObjectType(filterType)) continue;
      cases.push({ root: field.name, parent, field: link.name, filterType });
    }
  }
  return cases;
}

/** The collection filter a link's bound filter is made from (`UuidsBoundClassFilter` → `ClassFilter`). */
function baseFilter(type: GraphQLInputObjectType): string {
  const kind = /(class|facet|itsystem)filter$/i.exec(type.name)?.[1]?.toLowerCase();
  return kind === 'class'
    ? 'ClassFilter'
    : kind === 'facet'
      ? 'FacetFilter'
      : kind
        ? 'ITSystemFilter'
        : type.name;
}

/** Pages of a root's objects read to find a parent whose link answers something to narrow. */
const anchorPages = 6;

/**
 * A parent of the link's root whose link answers two objects or more, read a page at a time (a smaller page
 * where a page of the link is too costly for one query); else the one answering most, or none.
 */
async function anchorOf(link: LinkCase, shape: ReturnType<typeof linkShape>) {
  let best: { uuid: string; answer: string[]; value: unknown } | undefined;
  let cursor: string | null = null;
  let size = anchorsRead;
  for (let page = 0; page < anchorPages; page++) {
    const body = await ask(
      `query($c: Cursor) { ${link.root}(limit: ${size}, cursor: $c) { objects { uuid current { ${link.field} ${shape.selection} } } page_info { next_cursor } } }`,
      { c: cursor },
    );
    if (body.errors?.[0]?.extensions?.code === 'QUERY_TOO_COMPLEX' && size > 2) {
      size = 2;
      page -= 1;
      continue;
    }
    expect(body.errors).toBeUndefined();
    for (const object of body.data![link.root].objects as { uuid: string; current: any }[]) {
      if (!object.current) continue;
      const value = object.current[link.field];
      const answer = shape.measure(value);
      if (!best || answer.length > best.answer.length) best = { uuid: object.uuid, answer, value };
    }
    cursor = body.data![link.root].page_info?.next_cursor ?? null;
    if ((best?.answer.length ?? 0) >= 2 || cursor === null) break;
  }
  if ((best?.answer.length ?? 0) > 0 || !shape.objectType) return best;
  // Few parents link to any (a seed's leaves): the parents the link's own collection names.
  const target = rootOf(shape.objectType);
  // The link back to the parent: not the link itself under its other spelling (`Class.children` beside
  // `children_response` names a class's children, not its parent).
  const same = link.field.replace(/_response$/, '');
  const back = Object.values(shape.objectType.getFields()).find(
    (field) => getNamedType(field.type) === link.parent && field.name !== same,
  );
  if (!target || !back) return best;
  const named = await ask(`{ ${target} { objects { current { ${back.name} { uuid } } } } }`);
  const uuids = [
    ...new Set(
      ((named.data?.[target]?.objects ?? []) as { current: any }[]).flatMap((object) =>
        refsIn(object.current?.[back.name]).map((ref) => ref.uuid),
      ),
    ),
  ].slice(0, anchorsRead);
  const body = await ask(
    `query($a: [UUID!]) { ${link.root}(filter: {uuids: $a}) { objects { uuid current { ${link.field} ${shape.selection} } } } }`,
    { a: uuids },
  );
  for (const object of (body.data?.[link.root]?.objects ?? []) as { uuid: string; current: any }[]) {
    const answer = shape.measure(object.current?.[link.field]);
    if (!best || answer.length > best.answer.length)
      best = { uuid: object.uuid, answer, value: object.current?.[link.field] };
  }
  return best;
}

/** The root collection whose objects' `current` is of a type. */
function rootOf(type: GraphQLObjectType): string | undefined {
  return Object.values(schema.getQueryType()!.getFields()).find((field) => {
    if (field.deprecationReason || eventRoots.has(field.name)) return false;
    const paged = getNamedType(field.type);
    const entity = isObjectType(paged) ? paged.getFields().objects : undefined;
    const entityType = entity && getNamedType(entity.type);
    const current = isObjectType(entityType) ? entityType.getFields().current : undefined;
    return current !== undefined && getNamedType(current.type) === type;
  })?.name;
}

/**
 * How a link is read and measured: a count or a flag as that many marks, a list (or a page of responses) as
 * its objects' UUIDs; `rows` are its objects with what the members' values are read off.
 */
function linkShape(field: GraphQLField<unknown, unknown>, filterType: GraphQLInputObjectType) {
  const named = getNamedType(field.type);
  const marks = (count: number) => Array.from({ length: count }, (_, index) => `#${index}`);
  if (!isObjectType(named)) {
    return {
      selection: '',
      objectType: undefined,
      measure: (value: unknown) => marks(typeof value === 'number' ? value : value === true ? 1 : 0),
      rows: (): Row[] => [],
    };
  }
  const paged = named.getFields().objects;
  const itemType = paged ? getNamedType(paged.type) : named;
  const response = isObjectType(itemType) && itemType.getFields().current;
  const objectType = response ? getNamedType(response.type) : itemType;
  const fields = isObjectType(objectType) ? objectSelection(objectType, filterType) : '';
  const item = response ? `uuid current { ${fields} }` : `uuid ${fields}`;
  const selection = paged ? `{ objects { ${item} } }` : `{ ${item} }`;
  const items = (value: unknown): Record<string, any>[] => {
    const list = paged ? (value as { objects?: unknown[] } | null)?.objects : value;
    return (Array.isArray(list) ? list : list ? [list] : []) as Record<string, any>[];
  };
  return {
    selection,
    objectType: isObjectType(objectType) ? objectType : undefined,
    measure: (value: unknown) => items(value).map((object) => object.uuid as string),
    rows: (value: unknown): Row[] =>
      items(value).map((object) => ({
        uuid: object.uuid,
        current: response ? object.current : object,
      })),
  };
}

/** Whether an answer is narrowed (or refused as not served); else the reason it may not be, or a failure. */
function narrows(unfiltered: readonly string[], answer: string[] | { refused: string }): boolean {
  if (!Array.isArray(answer)) return answer.refused === 'NOT_SERVED_BY_THIS_BACKEND';
  return answer.length < unfiltered.length && answer.every((uuid) => unfiltered.includes(uuid));
}

/** Fails a member whose answers (for a telling value, then for one that picks nothing) are unfiltered. */
function judge(
  keys: readonly string[],
  unfiltered: readonly string[],
  answers: readonly (string[] | { refused: string })[],
  failures: string[],
) {
  if (answers.some((answer) => narrows(unfiltered, answer))) return;
  const reason = keys.find((key) => key in cannotNarrow);
  if (reason) {
    used.add(reason);
    return;
  }
  const seen = answers
    .map((answer) => (Array.isArray(answer) ? `${answer.length} of ${unfiltered.length}` : answer.refused))
    .join(', then ');
  failures.push(`${keys[0]}: ${seen}`);
}

/** The same member given a value that picks no object of its kind: a member that is read then keeps none. */
function nothing(member: string, value: unknown): unknown {
  if (member === 'cpr_numbers') return ['0101000000'];
  if (member === 'include_none' || member === 'it_association') return value;
  const isUuid = (item: unknown) => typeof item === 'string' && /^[0-9a-f-]{36}$/.test(item);
  if (Array.isArray(value)) return value.map((item) => (isUuid(item) ? nobody : 'none-such'));
  if (typeof value === 'string') return member.endsWith('date') ? value : 'none-such-text';
  if (typeof value === 'object' && value !== null) return { uuids: [nobody] };
  return value;
}

// Kept in its order (the suite shuffles the rest): its last case reads which reasons the walks before it used.
describe(
  'v30: every member of every served filter narrows the seeded answer, or is refused',
  { shuffle: false },
  () => {
    it.each(roots().map(([root, type]) => [root, type.name, type] as const))(
      '%s(filter: %s)',
      { timeout: 300_000 },
      async (root, _name, type) => {
        const failures: string[] = [];
        const rowsBody = await ask(
          `{ ${root} { objects { uuid current { ${linkSelection(root, type)} } } } }`,
        );
        expect(rowsBody.errors).toBeUndefined();
        const rows = rowsBody.data![root].objects as Row[];
        const unfiltered = rows.map((row) => row.uuid).sort();
        for (const [member, field] of Object.entries(type.getFields())) {
          const named = getNamedType(field.type);
          const coordinate = `${type.name}.${member}`;
          if (!isInputObjectType(named)) {
            const subject = rows.find((row) => row.current) ?? { uuid: nobody, current: {} };
            const value = valueFor(member, type, subject, rows);
            const answers = [];
            for (const given of [value, nothing(member, value)]) {
              const filter = { [member]: given, ...(member === 'to_date' ? { from_date: null } : {}) };
              answers.push(await listed(root, type.name, filter));
              if (narrows(unfiltered, answers[0]!)) break;
            }
            judge([coordinate, type.name], unfiltered, answers, failures);
            continue;
          }
          // A sub-filter: its members, each given a value read off the object the outer records link to least.
          const anchor = rarest(rows, linkOf[member] ?? member)?.uuid;
          const kind = kinds[named.name];
          let subject: Row = { uuid: anchor ?? nobody, current: {} };
          let subjectRows: Row[] = [];
          if (kind) {
            const body = await ask(`{ ${kind.root} { objects { uuid current { ${kind.fields} } } } }`);
            subjectRows = (body.data?.[kind.root]?.objects ?? []) as Row[];
            subject = subjectRows.find((row) => row.uuid === anchor) ?? subjectRows[0] ?? subject;
          }
          for (const inner of Object.keys(named.getFields())) {
            const value = valueFor(inner, named, subject, [subject]);
            const answers = [];
            for (const given of [value, nothing(inner, value)]) {
              const filter = { [inner]: given, ...(inner === 'to_date' ? { from_date: null } : {}) };
              answers.push(await listed(root, type.name, { [member]: filter }));
              if (narrows(unfiltered, answers[0]!)) break;
            }
            judge(
              [`${coordinate}.${inner}`, `${named.name}.${inner}`, type.name],
              unfiltered,
              answers,
              failures,
            );
          }
        }
        expect(failures).toEqual([]);
      },
    );

    it.each(linkCases().map((link) => [`${link.parent.name}.${link.field}`, link] as const))(
      'link %s(filter:)',
      { timeout: 300_000 },
      async (_name, link) => {
        const failures: string[] = [];
        const field = link.parent.getFields()[link.field]!;
        const shape = linkShape(field, link.filterType);
        // A parent whose link answers two objects or more (else the one answering most), page by page.
        const anchor = await anchorOf(link, shape);
        const coordinate = `${link.parent.name}.${link.field}`;
        const ask1 = async (filter: object): Promise<string[] | { refused: string }> => {
          const body = await ask(
            `query($a: [UUID!], $f: ${link.filterType.name}) { ${link.root}(filter: {uuids: $a}) { objects { current { ${link.field}(filter: $f) ${shape.selection} } } } }`,
            { a: [anchor!.uuid], f: filter },
          );
          if (body.errors) return { refused: body.errors[0]?.extensions?.code ?? body.errors[0]!.message };
          return shape.measure(body.data![link.root].objects[0]?.current?.[link.field]).sort();
        };
        const unfiltered = anchor ? [...anchor.answer].sort() : [];
        const rows = anchor ? shape.rows(anchor.value) : [];
        const heldNone = backendHoldsNone.find((entry) => entry.coordinate === coordinate);
        for (const member of Object.keys(link.filterType.getFields())) {
          const keys = [
            `${coordinate}.${member}`,
            `${link.filterType.name}.${member}`,
            `${baseFilter(link.filterType)}.${member}`,
            coordinate,
          ];
          // What 2.x never holds (the ledger's `empty` entries, each with its reason): the answer is empty by contract.
          if (heldNone && unfiltered.length === 0) continue;
          if (!anchor || unfiltered.length === 0) {
            judge(keys, unfiltered, [unfiltered], failures);
            continue;
          }
          const subject = rows[0] ?? { uuid: nobody, current: {} };
          const value = valueFor(member, link.filterType, subject, rows);
          const answers = [];
          for (const given of [value, nothing(member, value)]) {
            const filter = { [member]: given, ...(member === 'to_date' ? { from_date: null } : {}) };
            answers.push(await ask1(filter));
            if (narrows(unfiltered, answers[0]!)) break;
          }
          judge(keys, unfiltered, answers, failures);
        }
        expect(failures).toEqual([]);
      },
    );

    it('walks every filter type a served filter reaches, at any depth', () => {
      // Walked member by member: the roots' filters and each sub-filter in them, and the links' filters.
      const walked = new Set<string>();
      for (const [, type] of roots()) {
        walked.add(type.name);
        for (const field of Object.values(type.getFields())) {
          const named = getNamedType(field.type);
          if (isInputObjectType(named)) walked.add(named.name);
        }
      }
      for (const link of linkCases()) walked.add(link.filterType.name);
      // Reached: every input type inside those, however deep (a sub-filter's sub-filter's …).
      const reached = new Set<string>();
      const reach = (type: GraphQLInputObjectType) => {
        if (reached.has(type.name)) return;
        reached.add(type.name);
        for (const field of Object.values(type.getFields())) {
          const named = getNamedType(field.type);
          if (isInputObjectType(named)) reach(named);
        }
      };
      for (const [, type] of roots()) reach(type);
      for (const link of linkCases()) reach(link.filterType);
      expect([...reached].filter((name) => !walked.has(name))).toEqual([]);
    });

    it('gives a reason only where a case needs one', () => {
      expect(Object.keys(cannotNarrow).filter((key) => !used.has(key))).toEqual([]);
    });
  },
);

describe('v30: a sub-filter’s window', () => {
  const engagementsOf = async (employee: Record<string, unknown>) =>
    listed('engagements', 'EngagementFilter', { employee });

  it('is served when it is the listing’s own day, and refused with its coordinate when it is another', async () => {
    const people = await ask('{ persons(limit: 1) { objects { current { name } } } }');
    const name = people.data!.persons.objects[0].current.name as string;
    const today = new Date().toISOString().slice(0, 10);
    const plain = await engagementsOf({ query: name });
    expect(Array.isArray(plain) && plain.length).toBeGreaterThan(0);
    expect(await engagementsOf({ query: name, from_date: today })).toEqual(plain);
    const body = await ask('query($f: EngagementFilter) { engagements(filter: $f) { objects { uuid } } }', {
      f: { employee: { query: name, from_date: '2000-01-01' } },
    });
    expect(body.errors?.[0]?.extensions).toMatchObject({
      code: 'NOT_SERVED_BY_THIS_BACKEND',
      coordinate: 'filter.employee.from_date',
    });
  });
});
