import { gunzipSync } from 'node:zlib';
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildVersions } from '../graphql/versions.js';
import { browserRoutes, graphiqlPage } from './browser-routes.js';
import { graphiqlQueries, referenceQueries, referenceUnitsMarker } from './reference-queries.js';

const unitUuid = 'f41291dc-2a78-5663-957a-efb8d5ed9a0e';
const app = browserRoutes({
  newestVersion: 'v2',
  referenceUnits: { find: async (authorization) => (authorization ? [unitUuid] : []) },
  authenticate: async (c, next) => (c.req.header('authorization') ? next() : c.text('no token', 401)),
});

/** A reference query as the page shows it, with units in place of the marker line. */
const withUnits = (query: string) => query.replace(referenceUnitsMarker, `"${unitUuid}"`);

/** Every URL a page loads or names: element attributes, the import map and the embedded configuration. */
function referencedUrls(html: string): string[] {
  const attributes = [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((match) => match[1]!);
  const importMap = JSON.parse(/<script type="importmap">(.*?)<\/script>/s.exec(html)![1]!);
  return [...attributes, ...Object.values<string>(importMap.imports), ...configUrls(pageConfig(html))];
}

function pageConfig(html: string): any {
  return JSON.parse(/<script type="application\/json" id="page-config">(.*?)<\/script>/s.exec(html)![1]!);
}

function configUrls(value: unknown): string[] {
  if (typeof value === 'string') return value.startsWith('/') ? [value] : [];
  if (value && typeof value === 'object') return Object.values(value).flatMap(configUrls);
  return [];
}

const pages = {
  'GraphiQL v1': () => graphiqlPage('v1'),
  'GraphiQL v2': () => graphiqlPage('v2'),
  Voyager: async () => (await app.request('/voyager')).text(),
};

describe.each(Object.entries(pages))('the %s page', (_name, render) => {
  it('loads nothing from another origin', async () => {
    const html = await render();
    expect(html).not.toMatch(/https?:|\/\/[a-z]/i);
    for (const url of referencedUrls(html)) expect(url).toMatch(/^(\/[^/]|data:)/);
  });

  it('reads the keycloak-js adapter configuration from /idp.json and imports keycloak-js from this origin', async () => {
    const html = await render();
    expect(pageConfig(html).adapterConfig).toBe('/idp.json');
    expect(html).toContain('"keycloak-js":"/browser-assets/keycloak-js/keycloak.js"');
  });

  it('has every asset it references served with the right content type', async () => {
    const assets = referencedUrls(await render()).filter((url) => url.startsWith('/browser-assets/'));
    expect(assets.length).toBeGreaterThanOrEqual(5);
    for (const url of assets) {
      const response = await app.request(url);
      expect(response.status, url).toBe(200);
      const expected = url.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8';
      expect(response.headers.get('content-type'), url).toBe(expected);
      expect((await response.arrayBuffer()).byteLength, url).toBeGreaterThan(100);
    }
  });
});

describe('the GraphiQL page', () => {
  it('queries its own version and offers every version and Voyager', () => {
    const html = graphiqlPage('v1');
    expect(pageConfig(html)).toMatchObject({ version: 'v1', endpoint: '/graphql/v1' });
    expect(html).toMatch(/<a href="\/graphql\/v1" aria-current="page">GraphiQL v1<\/a>/);
    expect(html).toContain('<a href="/graphql/v2">GraphiQL v2</a>');
    expect(html).toContain('<a href="/voyager">Voyager</a>');
  });

  it("opens with the specification's reference query for that version, units to be found at the backend", () => {
    for (const version of ['v1', 'v2', 'v30']) {
      const config = pageConfig(graphiqlPage(version));
      expect(config.defaultQuery).toBe(graphiqlQueries[version]);
      expect(config.defaultQuery).toMatch(new RegExp(`^ +${referenceUnitsMarker}$`, 'm'));
      expect(config.referenceUnits).toEqual({
        endpoint: '/browser/reference-units',
        marker: referenceUnitsMarker,
      });
    }
  });

  it('finds the reference units for a signed-in page only', async () => {
    expect((await app.request('/browser/reference-units')).status).toBe(401);
    const response = await app.request('/browser/reference-units', {
      headers: { authorization: 'Bearer token' },
    });
    expect(await response.json()).toEqual({ units: [unitUuid] });
  });

  it('escapes what it embeds', () => {
    const html = graphiqlPage('v9"><script>alert(1)</script>');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('&lt;script&gt;alert(1)');
  });
});

describe('the reference queries', () => {
  it('are valid against the schema of their version', () => {
    // The workbench compares the gateway's own versions (referenceQueries); GraphiQL also opens the newest
    // OS2mo version, v30, with the same query in OS2mo's shape.
    expect(Object.keys(referenceQueries).sort()).toEqual(['v1', 'v2']);
    const versions = buildVersions().filter((version) => version.name in graphiqlQueries);
    expect(versions.map((version) => version.name).sort()).toEqual(['v1', 'v2', 'v30']);
    for (const version of versions) {
      expect(
        validate(version.schema, parse(withUnits(graphiqlQueries[version.name]!))),
        version.name,
      ).toEqual([]);
    }
  });
});

describe('the Voyager page', () => {
  it('introspects the newest version', async () => {
    const response = await app.request('/voyager');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(pageConfig(await response.text())).toMatchObject({ version: 'v2', endpoint: '/graphql/v2' });
  });
});

describe('browser assets', () => {
  const url = '/browser-assets/keycloak-js/keycloak.js';

  it('are gzipped for browsers that accept it', async () => {
    const plain = Buffer.from(await (await app.request(url)).arrayBuffer());
    const response = await app.request(url, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(response.headers.get('vary')).toBe('Accept-Encoding');
    expect(gunzipSync(Buffer.from(await response.arrayBuffer()))).toEqual(plain);
    expect(plain.toString()).toContain('export default class Keycloak');
  });

  it('are revalidated by ETag', async () => {
    const first = await app.request(url);
    const etag = first.headers.get('etag')!;
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const again = await app.request(url, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('serve Monaco workers for GraphiQL', async () => {
    const worker = await app.request('/browser-assets/graphiql/graphql.worker.js');
    expect(worker.status).toBe(200);
    expect(await worker.text()).toContain('onmessage');
  });

  it('answer 404 for anything not in the list', async () => {
    for (const path of [
      '/browser-assets/nope.js',
      '/browser-assets/constructor',
      '/browser-assets/client/',
    ]) {
      const response = await app.request(path);
      expect(response.status, path).toBe(404);
      expect(await response.json()).toMatchObject({ error_key: 'E_NO_SUCH_ENDPOINT' });
    }
    // The URL parser resolves dot segments before routing, so this never reaches the asset table.
    expect((await app.request('/browser-assets/%2e%2e/package.json')).status).toBe(404);
  });
});
