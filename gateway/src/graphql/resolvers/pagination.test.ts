import { GraphQLError } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubBackend, type StubBackend } from '../../legacy/stub-backend.test-helpers.js';
import { answerStubOrg, stubOrg, stubbedVersions, type StubbedVersions } from '../stub-org.test-helpers.js';
import { decodeCursor, encodeCursor, maxPageSize, readLimit } from './pagination.js';

describe('cursors', () => {
  it('give back the offset they were made from', () => {
    for (const offset of [0, 1, 100, 123_456]) expect(decodeCursor(encodeCursor(offset))).toBe(offset);
    expect(decodeCursor(null)).toBe(0);
  });

  it('refuse anything the gateway did not give out, with a sentence saying what to pass', () => {
    for (const cursor of [
      '',
      'not-a-cursor',
      Buffer.from('{"o":-1}').toString('base64url'),
      Buffer.from('{"o":1.5}').toString('base64url'),
    ]) {
      expect(() => decodeCursor(cursor), cursor).toThrow(GraphQLError);
      try {
        decodeCursor(cursor);
      } catch (error) {
        expect((error as GraphQLError).extensions.code).toBe('BAD_USER_INPUT');
        expect((error as GraphQLError).message).toMatch(/pass page_info\.next_cursor unchanged/);
      }
    }
  });

  it('come with limits between 1 and the largest page', () => {
    expect(readLimit(undefined)).toBe(100);
    expect(readLimit(maxPageSize)).toBe(maxPageSize);
    for (const limit of [0, -1, maxPageSize + 1, 2.5])
      expect(() => readLimit(limit), String(limit)).toThrow(/limit must be/);
  });
});

describe('paging through units', () => {
  let backend: StubBackend;
  let versions: StubbedVersions;
  beforeAll(async () => {
    backend = await startStubBackend();
    backend.answer(answerStubOrg);
    versions = stubbedVersions(backend);
  });
  afterAll(async () => {
    await versions.close();
    await backend.close();
  });

  it('walks every unit one page at a time, asking the legacy service for each page', async () => {
    const pageQuery = `query Page($cursor: Cursor) {
      org_units(limit: 1, cursor: $cursor) { objects { uuid } page_info { next_cursor } }
    }`;
    const first = await versions.ask('v2', pageQuery);
    expect(first.body.data.org_units.objects).toEqual([{ uuid: stubOrg.unit }]);
    const cursor = first.body.data.org_units.page_info.next_cursor;
    expect(cursor).toEqual(expect.any(String));

    const second = await versions.ask('v2', pageQuery, { variables: { cursor } });
    expect(second.body.data.org_units).toEqual({
      objects: [{ uuid: stubOrg.otherUnit }],
      page_info: { next_cursor: null },
    });
    const pages = backend.received
      .map((request) => new URL(request.url, 'http://stub'))
      .filter((url) => url.pathname === `/service/o/${stubOrg.organisation}/ou/`)
      .map((url) => [url.searchParams.get('start'), url.searchParams.get('limit')]);
    expect(pages).toEqual([
      ['0', '1'],
      ['1', '1'],
    ]);
  });

  it('answers a foreign cursor with BAD_USER_INPUT and no legacy page read', async () => {
    backend.received.length = 0;
    const { body } = await versions.ask('v2', '{ org_units(cursor: "bm9wZQ") { objects { uuid } } }');
    expect(body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(backend.received.some((request) => request.url.includes('/ou/?'))).toBe(false);
  });
});
