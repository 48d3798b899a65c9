import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classUuid } from '../legacy-service/src/fixture/organisation.js';
import { stableUuid } from '../legacy-service/src/fixture/stable-uuid.js';
import { postGraphQL, startTestStack, type TestStack } from './stack.js';

/**
 * OS2mo's class writes (`class_create`, `class_update`) and its file store (`files`) as the gateway serves them
 * through the Service API: `POST /service/f/{facet}/` and `GET /service/exports/` (OS2mo 2.4.0
 * `service/facet.py:800`, `service/exports.py`), on the whole stack with RBAC on.
 */
type Json = Record<string, any>;
let stack: TestStack;

const facet = 'engagement_job_function';
const facetUuid = stableUuid(`facet:${facet}`);

beforeAll(async () => {
  stack = await startTestStack({ legacyProxy: true });
});
afterAll(() => stack.close());

async function ask(who: string, query: string, variables: Json = {}, version = 'v29') {
  const { status, body } = await postGraphQL(
    stack,
    version,
    { query, variables },
    { authorization: `Bearer ${await stack.token(who)}` },
  );
  expect(status).toBe(200);
  return body as { data?: Json | null; errors?: { message: string; extensions?: Json }[] };
}

/** The writes (anything but GET) the gateway sent to the legacy service while `run` ran. */
async function legacyWrites<T>(run: () => Promise<T>) {
  const proxy = stack.legacyProxy!;
  const before = proxy.requests.length;
  const result = await run();
  const writes = proxy.requests.slice(before).filter((request) => request.method !== 'GET');
  return { result, writes };
}

/** The facet's classes as the Service API lists them (2.4.0 `GET /service/f/{facet}/`). */
async function listed(): Promise<Json[]> {
  const answer = (await (await stack.legacyFetch(`/service/f/${facet}/`)).json()) as Json;
  return answer.data.items as Json[];
}

const create = `mutation($input: ClassCreateInput!) { class_create(input: $input) { uuid } }`;
const update = `mutation($input: ClassUpdateInput!) { class_update(input: $input) { uuid } }`;

describe('class_create and class_update (POST /service/f/{facet}/)', () => {
  it('alice creates a class; /service/f/{facet}/ and GraphQL classes read it back, and class_update renames it', async () => {
    const uuid = randomUUID();
    const created = await ask('alice', create, {
      input: {
        uuid,
        name: 'Gardener',
        user_key: `gardener-${uuid.slice(0, 8)}`,
        facet_uuid: facetUuid,
        scope: 'TEXT',
        validity: { from: '2025-01-01' },
      },
    });
    expect(created.errors).toBeUndefined();
    expect(created.data!.class_create).toEqual({ uuid });
    expect((await listed()).find((item) => item.uuid === uuid)).toMatchObject({
      name: 'Gardener',
      scope: 'TEXT',
    });
    const read = await ask(
      'alice',
      `query($uuids: [UUID!]) { classes(filter: { uuids: $uuids }) { objects { current { name user_key scope facet { user_key } } } } }`,
      { uuids: [uuid] },
    );
    expect(read.errors).toBeUndefined();
    expect(read.data!.classes.objects).toEqual([
      {
        current: {
          name: 'Gardener',
          user_key: `gardener-${uuid.slice(0, 8)}`,
          scope: 'TEXT',
          facet: { user_key: facet },
        },
      },
    ]);

    const updated = await ask(
      'alice',
      `mutation($input: ClassUpdateInput!) { class_update(input: $input) { uuid current { name } } }`,
      {
        input: {
          uuid,
          name: 'Head gardener',
          user_key: `gardener-${uuid.slice(0, 8)}`,
          facet_uuid: facetUuid,
          validity: { from: '2025-01-01' },
        },
      },
    );
    expect(updated.errors).toBeUndefined();
    expect(updated.data!.class_update).toEqual({ uuid, current: { name: 'Head gardener' } });
    expect((await listed()).find((item) => item.uuid === uuid)?.name).toBe('Head gardener');
  });

  it('is served on v21 too, whose printout has it', async () => {
    const answer = await ask(
      'alice',
      create,
      {
        input: {
          name: 'Forester',
          user_key: `forester-${randomUUID().slice(0, 8)}`,
          facet_uuid: facetUuid,
          validity: { from: '2025-01-01' },
        },
      },
      'v21',
    );
    expect(answer.errors).toBeUndefined();
    expect((await listed()).map((item) => item.uuid)).toContain(answer.data!.class_create.uuid);
  });

  it.each(['oscar', 'nora'])(
    'refuses %s (oscar owns a unit, nora has no role) a class write with FORBIDDEN, and nothing reaches the backend',
    async (who) => {
      const { result, writes } = await legacyWrites(async () => ({
        created: await ask(who, create, {
          input: {
            name: 'Denied',
            user_key: 'denied',
            facet_uuid: facetUuid,
            validity: { from: '2025-01-01' },
          },
        }),
        updated: await ask(who, update, {
          input: {
            uuid: classUuid(facet, 'teacher'),
            name: 'Denied',
            user_key: 'teacher',
            facet_uuid: facetUuid,
            validity: { from: '2025-01-01' },
          },
        }),
      }));
      expect(result.created.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      expect(result.updated.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      expect(writes).toEqual([]);
    },
  );

  it('refuses an end or an unpublished class with BAD_USER_INPUT before any write (2.4.0 keeps a class for all time, published)', async () => {
    const { result, writes } = await legacyWrites(async () => [
      await ask('alice', create, {
        input: {
          name: 'Seasonal',
          user_key: 'seasonal',
          facet_uuid: facetUuid,
          validity: { from: '2025-01-01', to: '2025-12-31' },
        },
      }),
      await ask('alice', create, {
        input: {
          name: 'Draft',
          user_key: 'draft',
          facet_uuid: facetUuid,
          published: 'IkkePubliceret',
          validity: { from: '2025-01-01' },
        },
      }),
    ]);
    expect(result.map((answer) => answer.errors?.[0]?.extensions?.code)).toEqual([
      'BAD_USER_INPUT',
      'BAD_USER_INPUT',
    ]);
    expect(writes).toEqual([]);
  });

  it('declares class_terminate left out (2.4.0 cannot end a class), naming the coordinate', async () => {
    const answer = await ask(
      'alice',
      `mutation { class_terminate(input: { uuid: "${classUuid(facet, 'teacher')}", to: "2030-01-01" }) { uuid } }`,
    );
    expect(answer.errors?.[0]?.extensions?.coordinate).toBe('Mutation.class_terminate');
  });

  // os2mo-naldo's class edit page and class table (`Class` query) ask for it; 2.4.0 writes every class open
  // at both ends (`service/facet.py`@2.4.0:763-764), so OS2mo answers an open validity.
  it.each(['v21', 'v29', 'v30'])('answers a class validity open at both ends on %s', async (version) => {
    const answer = await ask(
      'nora',
      `{ classes(filter: { uuids: ["${classUuid(facet, 'teacher')}"] }) { objects { current { validity { from to } } } } }`,
      {},
      version,
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.classes.objects).toEqual([{ current: { validity: { from: null, to: null } } }]);
  });
});

/**
 * `files`, from the stand-in's export folder. The cases follow OS2mo's own (`backend/tests/graphapi/test_files.py`
 * at HEAD: `test_list_files`, `test_file_names_filter`, `test_file_name_contains_filter`,
 * `test_read_file_contents`, `test_read_binary_file_contents`, `test_file_stores_are_separate`), with the files
 * placed in the folder as 2.x's reports are, since 2.4.0 has no upload.
 */
describe('files (GET /service/exports/)', () => {
  const binary = Buffer.from(Array.from({ length: 256 }, (_, index) => index));
  const names = `query($filter: FileFilter!, $limit: int, $cursor: Cursor) {
    files(filter: $filter, limit: $limit, cursor: $cursor) { objects { file_store file_name } page_info { next_cursor } }
  }`;
  let folder: string;

  beforeAll(async () => {
    folder = stack.legacy.exportDir;
    await writeFile(join(folder, 'report.csv'), 'uuid;name\n1;Ærø\n');
    await writeFile(join(folder, 'Report.txt'), 'data');
    await writeFile(join(folder, 'summary.csv'), 'data');
    await writeFile(join(folder, 'binary.bin'), binary);
  });

  const listedNames = async (filter: Json, who = 'nora') => {
    const answer = await ask(who, names, { filter: { file_store: 'EXPORTS', ...filter } });
    expect(answer.errors).toBeUndefined();
    return answer.data!.files.objects.map((file: Json) => file.file_name) as string[];
  };

  it('lists the folder sorted by name (test_list_files); an empty or null file_names is no filter', async () => {
    const all = ['Report.txt', 'binary.bin', 'report.csv', 'summary.csv'];
    expect(await listedNames({})).toEqual(all);
    expect(await listedNames({ file_names: [] })).toEqual(all);
    expect(await listedNames({ file_names: null })).toEqual(all);
  });

  it.each([
    [['report.csv'], ['report.csv']],
    [
      ['report.csv', 'summary.csv'],
      ['report.csv', 'summary.csv'],
    ],
    [['whatever'], []],
    [['report.csv', 'whatever'], ['report.csv']],
  ])('file_names %j keeps %j (test_file_names_filter)', async (filter, expected) => {
    expect(await listedNames({ file_names: filter })).toEqual(expected);
  });

  it.each([
    ['report', ['Report.txt', 'report.csv']],
    ['MARY', ['summary.csv']],
    ['missing', []],
  ])(
    'file_name_contains %s keeps %j, in any letter case (test_file_name_contains_filter)',
    async (part, expected) => {
      expect(await listedNames({ file_name_contains: part })).toEqual(expected);
    },
  );

  it('reads a file as text and as base64 (test_read_file_contents, test_read_binary_file_contents)', async () => {
    const read = (fields: string, name: string) =>
      ask(
        'nora',
        `query($names: [String!]) { files(filter: { file_store: EXPORTS, file_names: $names }) { objects { ${fields} } } }`,
        {
          names: [name],
        },
      );
    const text = 'uuid;name\n1;Ærø\n';
    const csv = await read('file_name text_contents base64_contents', 'report.csv');
    expect(csv.errors).toBeUndefined();
    expect(csv.data!.files.objects).toEqual([
      { file_name: 'report.csv', text_contents: text, base64_contents: Buffer.from(text).toString('base64') },
    ]);
    const bytes = await read('base64_contents', 'binary.bin');
    expect(bytes.errors).toBeUndefined();
    expect(bytes.data!.files.objects).toEqual([{ base64_contents: binary.toString('base64') }]);
    // OS2mo decodes text_contents as UTF-8 and fails on other bytes; here with a code and the way out.
    const notText = await read('text_contents', 'binary.bin');
    expect(notText.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(notText.errors?.[0]?.message).toMatch(/base64_contents/);
  });

  it('answers the INSIGHTS store, which 2.4.0 has not, as an empty store (test_file_stores_are_separate)', async () => {
    expect(await listedNames({ file_store: 'INSIGHTS' })).toEqual([]);
  });

  it('pages by limit and cursor', async () => {
    const first = await ask('nora', names, { filter: { file_store: 'EXPORTS' }, limit: 3 });
    expect(first.data!.files.objects).toHaveLength(3);
    const cursor = first.data!.files.page_info.next_cursor as string;
    const rest = await ask('nora', names, { filter: { file_store: 'EXPORTS' }, limit: 3, cursor });
    expect(rest.data!.files.objects.map((file: Json) => file.file_name)).toEqual(['summary.csv']);
    expect(rest.data!.files.page_info.next_cursor).toBeNull();
  });
});
