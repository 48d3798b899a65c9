import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, startStubBackend, type StubBackend } from '../../legacy/stub-backend.test-helpers.js';
import { answerStubOrg, stubOrg, stubbedVersions, type StubbedVersions } from '../stub-org.test-helpers.js';

/**
 * A class's links up and down its facet's hierarchy and its organisation, as OS2mo gives them
 * (`mora/service/facet.py`@HEAD: `parent_uuid` is the class's `overordnetklasse`, `org_uuid` its
 * `ansvarlig`). The facet below holds KLE-like classes: group A above subject C above subject D, and B alone.
 */
let backend: StubBackend;
let versions: StubbedVersions;
const facet = '0a000000-0000-4000-8000-0000000000f0';
const uuidOf = (letter: string) => `0a000000-0000-4000-8000-0000000000${letter}1`;
const named = (letter: string) => ({ uuid: uuidOf(letter), name: `Class ${letter}`, user_key: letter });
const children: Record<string, string[]> = { a: ['c'], b: [], c: ['d'], d: [] };
const listed = (letter: string) => ({ ...named(letter), child_count: children[letter]!.length });
const full = (letter: string) => ({
  ...named(letter),
  example: null,
  scope: null,
  owner: null,
  facet: { uuid: facet, user_key: 'kle_number', description: '' },
});

beforeAll(async () => {
  backend = await startStubBackend();
  backend.answer((request, response) => {
    const path = request.url.replace(/\?.*$/, '');
    if (path === `/service/o/${stubOrg.organisation}/f/`) {
      return json(response, 200, [{ uuid: facet, user_key: 'kle_number', description: '', path: '' }]);
    }
    if (path === `/service/o/${stubOrg.organisation}/f/kle_number/`) {
      const items = ['a', 'b', 'c', 'd'].map((letter) => ({ ...full(letter), facet: undefined }));
      return json(response, 200, {
        uuid: facet,
        user_key: 'kle_number',
        description: '',
        path: '',
        data: { items, offset: 0, total: items.length },
      });
    }
    if (path === `/service/f/${facet}/children`) return json(response, 200, ['a', 'b'].map(listed));
    for (const letter of Object.keys(children)) {
      if (path === `/service/c/${uuidOf(letter)}/`) return json(response, 200, full(letter));
      if (path === `/service/c/${uuidOf(letter)}/children`) {
        return json(response, 200, children[letter]!.map(listed));
      }
    }
    return answerStubOrg(request, response);
  });
  versions = stubbedVersions(backend);
});
afterAll(async () => {
  await versions.close();
  await backend.close();
});
beforeEach(() => {
  backend.received.length = 0;
});

const paths = () => backend.received.map((request) => request.url.replace(/\?.*$/, ''));

describe("a class's parent", () => {
  it('is the class above it, found by walking its facet from the top; null at the top', async () => {
    const { body } = await versions.ask(
      'v30',
      `query($uuids: [UUID!]) { classes(filter: {uuids: $uuids}) { objects { current {
        user_key parent_uuid parent { user_key scope } parent_response { uuid current { name } }
      } } } }`,
      { variables: { uuids: [uuidOf('d'), uuidOf('c'), uuidOf('a')] } },
    );
    expect(body.errors).toBeUndefined();
    const parentOf = (letter: string) => ({
      parent_uuid: uuidOf(letter),
      parent: { user_key: letter, scope: null },
      parent_response: { uuid: uuidOf(letter), current: { name: `Class ${letter}` } },
    });
    const noParent = { parent_uuid: null, parent: null, parent_response: null };
    expect(body.data.classes.objects.map((o: { current: unknown }) => o.current)).toEqual([
      { user_key: 'a', ...noParent },
      { user_key: 'c', ...parentOf('a') },
      { user_key: 'd', ...parentOf('c') },
    ]);
    // Each listing of the tree is read once for the three classes, and a class without children never.
    const listings = paths().filter((path) => path.endsWith('/children'));
    expect(listings.sort()).toEqual(
      [
        `/service/c/${uuidOf('a')}/children`,
        `/service/c/${uuidOf('c')}/children`,
        `/service/f/${facet}/children`,
      ].sort(),
    );
  });
});

describe("a class's children and the organisation", () => {
  it('lists the classes directly below, and names the organisation for a class and its facet', async () => {
    const { body } = await versions.ask(
      'v30',
      `query($uuid: UUID!) { classes(filter: {uuids: [$uuid]}) { objects { current {
        children { user_key children { user_key } } org_uuid facet { org_uuid }
      } } } }`,
      { variables: { uuid: uuidOf('a') } },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.classes.objects[0].current).toEqual({
      children: [{ user_key: 'c', children: [{ user_key: 'd' }] }],
      org_uuid: stubOrg.organisation,
      facet: { org_uuid: stubOrg.organisation },
    });
  });
});
