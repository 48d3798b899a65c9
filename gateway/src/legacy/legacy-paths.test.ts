import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLegacyClient } from './legacy-client.js';
import { createLegacyLoaders } from './legacy-loaders.js';
import {
  detailTypes,
  legacyPaths,
  queryString,
  readingApiTypes,
  segment,
  UnaddressableValueError,
} from './legacy-paths.js';
import { json, startStubBackend, type StubBackend } from './stub-backend.test-helpers.js';

describe('legacyPaths', () => {
  it('keeps a value inside its own path segment', () => {
    expect(segment('../../../../health')).toBe('..%2F..%2F..%2F..%2Fhealth');
    for (const unaddressable of ['', '.', '..', '%2e%2E', '.%2e']) {
      expect(() => segment(unaddressable)).toThrow(UnaddressableValueError);
    }
    expect(segment('...')).toBe('...');
    expect(segment('a?limit=0&b#c')).toBe('a%3Flimit%3D0%26b%23c');
    expect(legacyPaths.facet('org', '../../../../health')).toBe(
      '/service/o/org/f/..%2F..%2F..%2F..%2Fhealth/',
    );
  });

  it('names every detail listing and the unit mapping with the value in its own segment', () => {
    for (const type of detailTypes) {
      expect(legacyPaths.unitDetails(type, 'u-1', { at: '2024-01-01' })).toBe(
        `/service/ou/u-1/details/${type}?at=2024-01-01`,
      );
      expect(legacyPaths.employeeDetails(type, 'e-1')).toBe(`/service/e/e-1/details/${type}`);
    }
    expect(legacyPaths.orgUnitMap('../create')).toBe('/service/ou/..%2Fcreate/map');
  });

  it('names the reading API (2.4.0 /api/v1) of every type, its UUIDs repeated and each value encoded', () => {
    for (const type of readingApiTypes) {
      expect(legacyPaths.readingList(type, { changed_since: '2024-01-01T10:00:00+01:00' })).toBe(
        `/api/v1/${type}?changed_since=2024-01-01T10%3A00%3A00%2B01%3A00`,
      );
      expect(legacyPaths.readingByUuid(type, ['a', 'b&uuid=c'], { validity: '-infinity/infinity' })).toBe(
        `/api/v1/${type}/by_uuid?uuid=a&uuid=b%26uuid%3Dc&validity=-infinity%2Finfinity`,
      );
    }
    expect(readingApiTypes).toHaveLength(13);
  });

  it('builds query strings that a value cannot add parameters to', () => {
    expect(queryString({ at: '2024-01-01&validity=past', limit: 0, inherit_owner: true, x: false })).toBe(
      '?at=2024-01-01%26validity%3Dpast&limit=0&inherit_owner=1',
    );
    expect(queryString({})).toBe('');
  });
});

describe('legacy loaders against a backend', () => {
  let backend: StubBackend;
  beforeAll(async () => {
    backend = await startStubBackend();
    backend.answer((request, response) => {
      if (request.url === '/service/o/') return json(response, 200, [{ uuid: 'org-1' }]);
      return json(response, 404, { error: true, status: 404, error_key: 'E_NO_SUCH_ENDPOINT' });
    });
  });
  afterAll(() => backend.close());

  it('sends every value from a query encoded: no traversal, no injected parameter', async () => {
    const legacy = createLegacyClient({
      url: new URL(backend.url),
      connectTimeoutMs: 30_000,
      responseTimeoutMs: 30_000,
    });
    const loaders = createLegacyLoaders(legacy);
    await loaders.facet('../../../../health');
    expect(await loaders.facet('..')).toBeNull();
    expect(await loaders.orgUnit('%2e%2e', '2024-01-01')).toBeNull();
    await loaders.orgUnit('x/../../../health?', '2024-01-01');
    await loaders.unitDetails('manager', 'u', { at: '2024-01-01&inherit_manager=1' }).catch(() => null);
    const urls = backend.received.map((request) => request.url);
    expect(urls).not.toContain('/health');
    expect(urls).toEqual([
      '/service/o/',
      '/service/o/org-1/f/..%2F..%2F..%2F..%2Fhealth/',
      '/service/ou/x%2F..%2F..%2F..%2Fhealth%3F/?at=2024-01-01',
      '/service/ou/u/details/manager?at=2024-01-01%26inherit_manager%3D1',
    ]);
    await legacy.close();
  });
});

describe('the tree, class-children and version paths', () => {
  it('repeat `uuid` once per unit, each value encoded, so none adds a parameter', () => {
    expect(legacyPaths.orgUnitTree('org-1', ['a', 'b&at=1999-01-01'], { at: '2024-01-01' })).toBe(
      '/service/o/org-1/ou/tree?uuid=a&uuid=b%26at%3D1999-01-01&at=2024-01-01',
    );
    expect(legacyPaths.orgUnitAncestorTree(['a'])).toBe('/service/ou/ancestor-tree?uuid=a');
    expect(legacyPaths.orgUnitAncestorTree([])).toBe('/service/ou/ancestor-tree');
  });

  it('keep a class, a facet and a unit in their segment', () => {
    expect(legacyPaths.classChildren('c/../x')).toBe('/service/c/c%2F..%2Fx/children');
    expect(legacyPaths.facetChildren('kle_number')).toBe('/service/f/kle_number/children');
    expect(() => legacyPaths.facetChildren('..')).toThrow(UnaddressableValueError);
    expect(legacyPaths.orgUnitVersions('u', { at: '2024-01-01', validity: 'past' })).toBe(
      '/service/ou/u/details/org_unit?at=2024-01-01&validity=past',
    );
  });
});
