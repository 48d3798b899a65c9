import { beforeAll, describe, expect, it } from 'vitest';
import { newestReplacement } from '../gateway/src/comparison/coverage/replacements.js';
import { notCovered } from '../gateway/src/comparison/coverage/not-covered.js';
import { contractOperations } from '../gateway/src/contract/contract-operations.generated.js';
import { isServiceOperation } from '../gateway/src/contract/contract-operations.js';
import { sharedReadOnlyStack, signIn, type GraphQLSession } from './stack.js';

/**
 * The v30 query a `410` (and the coverage report) tells an integration to use instead of a `/service` read
 * is answered by the gateway as shown: each runs on /graphql/v30 against the seeded stand-in, its variables
 * filled with objects the seed has, without an error, and a read of one object finds it. (Which fields the
 * text may use is held in `gateway/src/comparison/os2mo-road.test.ts`: none v30 deprecates.)
 */
let nora: GraphQLSession;
const seeded: Record<string, unknown> = {};

beforeAll(async () => {
  nora = await signIn(await sharedReadOnlyStack(), 'nora');
  // A unit with a manager (and so most detail types), a person, a class with children, the names to search.
  // Not the first manager: managers are listed in UUID order, as OS2mo's are, and the first may be vacant.
  const managers = await nora.ask(
    'v30',
    '{ managers { objects { current { org_unit_response { uuid } person_response { uuid } } } } }',
  );
  const manager = (managers.data!.managers.objects as any[]).find(
    (object) => object.current?.person_response,
  ).current;
  const holder = await nora.ask(
    'v30',
    'query($p: [UUID!]) { persons(filter: {uuids: $p}) { objects { current { name } } } }',
    { p: [manager.person_response.uuid] },
  );
  // A person someone owns, where the seed has one: a person's owners are read too.
  const owners = await nora.ask('v30', '{ owners { objects { current { person_response { uuid } } } } }');
  const owned = (owners.data!.owners.objects as any[]).find((object) => object.current?.person_response)
    ?.current.person_response.uuid as string | undefined;
  const unit = await nora.ask(
    'v30',
    'query($u: [UUID!]) { org_units(filter: {uuids: $u}) { objects { current { name } } } }',
    {
      u: [manager.org_unit_response.uuid],
    },
  );
  const classes = await nora.ask(
    'v30',
    '{ classes { objects { uuid current { facet_response { current { user_key } } children_response(limit: 1) { objects { uuid } } } } } }',
  );
  const parent = (classes.data!.classes.objects as any[]).find(
    (object) => object.current.children_response.objects.length > 0,
  );
  Object.assign(seeded, {
    unit: manager.org_unit_response.uuid,
    person: owned ?? manager.person_response.uuid,
    personName: holder.data!.persons.objects[0].current.name,
    unitName: unit.data!.org_units.objects[0].current.name,
    class: parent.uuid,
    facet: parent.current.facet_response.current.user_key,
  });
});

const reads = contractOperations.filter(
  (operation) =>
    operation.method === 'GET' &&
    isServiceOperation(operation) &&
    notCovered[operation.operationId] === undefined,
);
const shown = reads.flatMap((operation) => {
  const newest = newestReplacement(operation);
  return newest?.version === 'v30' ? [[operation.operationId, operation.path, newest.query] as const] : [];
});

/** The variables a shown query names, with the seeded object the read's path is about. */
function variablesFor(path: string, query: string) {
  const owner = path.startsWith('/service/e/')
    ? seeded.person
    : path.startsWith('/service/c/')
      ? seeded.class
      : seeded.unit;
  const types: Record<string, [string, unknown]> = {
    uuid: ['UUID!', owner],
    uuids: ['[UUID!]', [seeded.unit]],
    facet: ['String!', seeded.facet],
    query: ['String', query.startsWith('persons') ? seeded.personName : seeded.unitName],
  };
  const used = [...new Set([...query.matchAll(/\$(\w+)/g)].map((match) => match[1]!))];
  return {
    declared: used.map((name) => `$${name}: ${types[name]![0]}`).join(', '),
    values: Object.fromEntries(used.map((name) => [name, types[name]![1]])),
  };
}

describe('the v30 query a 410 names, run as shown', () => {
  it('covers the reads that have one', () => {
    expect(shown.length).toBeGreaterThanOrEqual(30);
  });

  it.each(shown)('%s', async (_operationId, path, query) => {
    const { declared, values } = variablesFor(path, query);
    const body = await nora.ask('v30', `query Shown${declared ? `(${declared})` : ''} { ${query} }`, values);
    expect(body.errors, query).toBeUndefined();
    const [root] = Object.values(body.data!) as { objects?: unknown[] }[];
    expect(root, query).toBeDefined();
    // A read of one object (or a search for a seeded name) finds it.
    if ('uuid' in values || 'query' in values || 'facet' in values) {
      expect(root!.objects?.length ?? 1, query).toBeGreaterThan(0);
    }
  });
});
