import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenVerifier } from '../auth/token-verifier.js';
import { legacyErrorHandler } from '../errors/legacy-error-body.js';
import { startStubBackend, type StubBackend } from '../legacy/stub-backend.test-helpers.js';
import { stubbedVersions, type StubbedVersions } from '../graphql/stub-org.test-helpers.js';
import { versionRoutes } from '../graphql/version-routes.js';
import { bufferedBody } from './body-limit.js';

const verifier: TokenVerifier = {
  verify: async () => ({
    subject: 'alice',
    username: 'alice',
    clientId: 'test',
    roles: ['admin'],
    employeeUuid: undefined,
  }),
  hasKeys: () => true,
};

/** Everything each route family told its unexpected-error log, which logs at error level with a stack. */
const unexpected: unknown[] = [];
/** The status each request ended with, as the route's error handler answered it. */
const finished: { path: string; status: number }[] = [];
let settled: () => void = () => undefined;

let backend: StubBackend;
let stubbed: StubbedVersions;
let url: string;
let close: () => Promise<void>;
beforeAll(async () => {
  backend = await startStubBackend();
  stubbed = stubbedVersions(backend);
  const app = new Hono();
  app.use('*', async (c, next) => {
    await next();
    finished.push({ path: c.req.path, status: c.res.status });
    settled();
  });
  const service = new Hono();
  service.post(
    '/service/*',
    bufferedBody({
      maxSize: 10_000,
      timeoutMs: 10_000,
      onTooLarge: (c) => c.json({}, 413),
      onTimeout: (c) => c.json({}, 408),
    }),
    (c) => c.json({}, 201),
  );
  service.onError(legacyErrorHandler((_c, error) => unexpected.push(error)));
  app.route('/', service);
  app.route(
    '/',
    versionRoutes({
      versions: stubbed.versions,
      removedVersions: [],
      migrationGuideUrl: 'https://gateway.example/docs/migration',
      verifier,
      realm: 'org',
      maxBodyBytes: 10_000,
      bodyTimeoutMs: 10_000,
      graphiqlPage: () => '',
      logUnexpected: (_c, error) => unexpected.push(error),
    }),
  );
  const server = createServer(getRequestListener(app.fetch));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
});
afterAll(async () => {
  await close();
  await stubbed.close();
  await backend.close();
});

/** Starts a 1,000-byte upload, sends 20 bytes and closes the connection; resolves when the route has finished. */
function abandonedUpload(path: string): Promise<void> {
  const done = new Promise<void>((resolve) => (settled = resolve));
  const outgoing = request(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: 'Bearer good', 'content-type': 'application/json', 'content-length': '1000' },
  });
  outgoing.on('error', () => undefined);
  outgoing.write('{"query": "{ __typen', () => outgoing.destroy());
  return done;
}

describe('an upload its client abandons', () => {
  it.each(['/service/details/create', '/graphql/v2'])(
    'on %s ends as the client’s doing, not as an unexpected error of ours',
    async (path) => {
      unexpected.length = 0;
      await abandonedUpload(path);
      expect(finished.at(-1)).toEqual({ path, status: 400 });
      expect(unexpected).toEqual([]);
    },
  );
});
