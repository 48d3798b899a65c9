import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { Hono } from 'hono';
import { noSuchEndpoint } from '../errors/gateway-error.js';
import { legacyErrorResponse } from '../errors/legacy-error-body.js';

const require = createRequire(import.meta.url);
const gzipped = promisify(gzip);

const javascript = 'text/javascript; charset=utf-8';
const stylesheet = 'text/css; charset=utf-8';

type YogaGraphiqlPart = 'js' | 'css' | 'editorWorkerService' | 'jsonWorker' | 'graphqlWorker';

interface BrowserAsset {
  contentType: string;
  read(): Promise<string | Uint8Array>;
}

/** A file of an installed package, found the way Node finds the package. */
const packageFile = (specifier: string, contentType: string): BrowserAsset => ({
  contentType,
  read: () => readFile(require.resolve(specifier)),
});

/**
 * Yoga's GraphiQL ships its bundle, stylesheet and editor workers as strings meant to be inlined into one
 * page; served as files they are cached by the browser and the workers load from this origin, not from blobs.
 */
const yogaGraphiql = (part: YogaGraphiqlPart, contentType: string): BrowserAsset => ({
  contentType,
  read: async () => (await import('@graphql-yoga/render-graphiql/graphiql'))[part],
});

/** The pages' own scripts and stylesheet, beside this module. */
const pageFile = (name: string, contentType: string): BrowserAsset => ({
  contentType,
  read: () => readFile(new URL(`./client/${name}`, import.meta.url)),
});

/** Where every asset of the browser pages is served. Nothing loads from a CDN. */
export const BROWSER_ASSET_PREFIX = '/browser-assets';

const browserAssets = {
  'keycloak-js/keycloak.js': packageFile('keycloak-js', javascript),
  'graphiql/graphiql.js': yogaGraphiql('js', javascript),
  'graphiql/graphiql.css': yogaGraphiql('css', stylesheet),
  'graphiql/editor.worker.js': yogaGraphiql('editorWorkerService', javascript),
  'graphiql/json.worker.js': yogaGraphiql('jsonWorker', javascript),
  'graphiql/graphql.worker.js': yogaGraphiql('graphqlWorker', javascript),
  'graphql-voyager/voyager.standalone.js': packageFile(
    'graphql-voyager/dist/voyager.standalone.js',
    javascript,
  ),
  'graphql-voyager/voyager.css': packageFile('graphql-voyager/dist/voyager.css', stylesheet),
  'client/browser-pages.css': pageFile('browser-pages.css', stylesheet),
  'client/session.js': pageFile('session.js', javascript),
  'client/graphiql-page.js': pageFile('graphiql-page.js', javascript),
  'client/voyager-page.js': pageFile('voyager-page.js', javascript),
  'client/workbench-page.js': pageFile('workbench-page.js', javascript),
  'client/workbench.css': pageFile('workbench.css', stylesheet),
} satisfies Record<string, BrowserAsset>;

export type BrowserAssetPath = keyof typeof browserAssets;

/** The URL (a path on this origin) of one browser asset. */
export const browserAssetUrl = (path: BrowserAssetPath): string => `${BROWSER_ASSET_PREFIX}/${path}`;

interface LoadedAsset {
  contentType: string;
  body: Uint8Array<ArrayBuffer>;
  gzipBody: Uint8Array<ArrayBuffer>;
  etag: string;
}

async function load(asset: BrowserAsset): Promise<LoadedAsset> {
  const content = await asset.read();
  // Copied into views of their own ArrayBuffer: the body type a web Response accepts.
  const body = new Uint8Array(typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
  const digest = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  return {
    contentType: asset.contentType,
    body,
    gzipBody: new Uint8Array(await gzipped(body)),
    etag: `"${digest}"`,
  };
}

const acceptsGzip = (header: string | undefined) =>
  (header ?? '').split(',').some((coding) => coding.trim().split(';')[0] === 'gzip');

/**
 * `GET /browser-assets/*`: the packages' browser bundles from node_modules and the pages' own scripts,
 * read once, gzipped once, revalidated by ETag (they change only with an upgrade or a deploy).
 */
export function browserAssetRoutes(): Hono {
  const loaded = new Map<BrowserAssetPath, Promise<LoadedAsset>>();
  const lookup = (path: string): Promise<LoadedAsset> | undefined => {
    if (!Object.hasOwn(browserAssets, path)) return undefined;
    const name = path as BrowserAssetPath;
    let entry = loaded.get(name);
    if (!entry) {
      entry = load(browserAssets[name]);
      // A failed read is retried by the next request instead of being remembered.
      entry.catch(() => loaded.delete(name));
      loaded.set(name, entry);
    }
    return entry;
  };

  const app = new Hono();
  app.get(`${BROWSER_ASSET_PREFIX}/*`, async (c) => {
    const pending = lookup(c.req.path.slice(BROWSER_ASSET_PREFIX.length + 1));
    if (!pending) return legacyErrorResponse(c, noSuchEndpoint('No such browser asset.'));
    const asset = await pending;
    const headers: Record<string, string> = {
      'content-type': asset.contentType,
      'cache-control': 'no-cache',
      etag: asset.etag,
      vary: 'Accept-Encoding',
    };
    const cached = (c.req.header('if-none-match') ?? '').split(',').map((tag) => tag.trim());
    if (cached.includes(asset.etag)) return c.body(null, 304, headers);
    if (acceptsGzip(c.req.header('accept-encoding'))) {
      return c.body(asset.gzipBody, 200, { ...headers, 'content-encoding': 'gzip' });
    }
    return c.body(asset.body, 200, headers);
  });
  return app;
}
