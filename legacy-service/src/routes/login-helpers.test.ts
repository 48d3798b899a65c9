import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdp, type RunningIdp } from '../../../idp/src/server.js';
import { createLegacyApp } from '../app.js';
import { LegacyError } from '../errors.js';
import { loginHelperRoutes } from './login-helpers.js';
import { readLegacyConfig } from '../config.js';
import { openTestLegacy, type TestLegacy } from '../testing.js';

/**
 * OS2mo 2.4.0's login helpers under `/service` (`backend/mora/auth/keycloak/router.py`), against the development
 * identity provider on a loopback port: `GET /service/keycloak.json` and `POST /service/token`, both without a
 * token, as 2.4.0's `backend/tests/test_service_auth.py::TestEndpointAuthDependency` lists them.
 */

const os2moAuthTest = 'OS2mo 2.4.0 backend/tests/test_service_auth.py::TestEndpointAuthDependency';
let keysDir: string;
let idp: RunningIdp;
let legacy: TestLegacy;

beforeAll(async () => {
  keysDir = await mkdtemp(join(tmpdir(), 'legacy-login-keys-'));
  idp = await startIdp({ keysDir });
  legacy = await openTestLegacy({
    auth: {
      enabled: true,
      issuer: idp.issuer,
      jwksUrl: new URL(idp.jwksUri),
      clockToleranceSeconds: 5,
      jwksCooldownMs: 30_000,
    },
  });
});
afterAll(async () => {
  await legacy?.cleanup();
  await idp?.close();
  await rm(keysDir, { recursive: true, force: true });
});

const login = (form: Record<string, string>, contentType = 'application/x-www-form-urlencoded') =>
  legacy.request('/service/token', {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: new URLSearchParams(form).toString(),
  });

describe('keycloak.json (router.py:20-30)', () => {
  it(`answers the realm's adapter settings without a token (${os2moAuthTest})`, async () => {
    const response = await legacy.request('/service/keycloak.json');
    expect(response.status).toBe(200);
    const issuer = new URL(idp.issuer);
    const realm = issuer.pathname.split('/').pop();
    expect(await response.json()).toEqual({
      realm,
      'auth-server-url': `${issuer.origin}${issuer.pathname.slice(0, -`realms/${realm}`.length)}`,
      'ssl-required': 'external',
      resource: 'org-frontend',
      'public-client': true,
      'confidential-port': 0,
    });
  });

  it('names the client LEGACY_KEYCLOAK_CLIENT gives, and refuses a malformed one at start', async () => {
    expect(readLegacyConfig({ LEGACY_KEYCLOAK_CLIENT: 'mo' }).keycloakClient).toBe('mo');
    expect(readLegacyConfig({}).keycloakClient).toBe('org-frontend');
    expect(() => readLegacyConfig({ LEGACY_KEYCLOAK_CLIENT: 'a b' })).toThrow(/LEGACY_KEYCLOAK_CLIENT/);
    const app = createLegacyApp({
      store: legacy.store,
      auth: {
        enabled: true,
        issuer: idp.issuer,
        jwksUrl: new URL(idp.jwksUri),
        clockToleranceSeconds: 5,
        jwksCooldownMs: 30_000,
      },
      keycloakClient: 'mo',
    });
    expect(
      ((await (await app.request('/service/keycloak.json')).json()) as { resource: string }).resource,
    ).toBe('mo');
  });

  it('is not served without a realm (LEGACY_AUTH=off): 404 E_NO_SUCH_ENDPOINT', async () => {
    const app = createLegacyApp({ store: legacy.store });
    const response = await app.request('/service/keycloak.json');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error_key: 'E_NO_SUCH_ENDPOINT' });
  });
});

describe('token (router.py:32-61)', () => {
  it(`logs a user in at the realm without a token and answers the access token (${os2moAuthTest})`, async () => {
    const response = await login({ username: 'alice', password: 'alice' });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { access_token: string; token_type: string };
    expect(body.token_type).toBe('Bearer');
    // The token is the realm's: the stand-in's own token check takes it.
    const read = await legacy.request('/service/o/', {
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    expect(read.status).toBe(200);
  });

  it('takes grant_type=password and a multipart form, as OAuth2PasswordRequestForm does', async () => {
    expect((await login({ grant_type: 'password', username: 'alice', password: 'alice' })).status).toBe(200);
    const form = new FormData();
    form.set('username', 'alice');
    form.set('password', 'alice');
    expect((await legacy.request('/service/token', { method: 'POST', body: form })).status).toBe(200);
  });

  it.each([
    [{ grant_type: 'password_other' }, "grant_type must be 'password'"],
    [{ client_id: 'org-frontend' }, 'client_id must be left empty'],
    [{ client_secret: 'secret' }, 'client_secret must be left empty'],
    [{ scope: 'openid' }, 'client_scope must be left empty'],
  ])('refuses %j with 406 and its sentence (router.py:39-50)', async (extra, sentence) => {
    const response = await login({ username: 'alice', password: 'alice', ...extra });
    expect(response.status).toBe(406);
    expect(await response.json()).toBe(sentence);
  });

  it('refuses a form without username or password, or another grant, with 400 E_INVALID_INPUT (request validation)', async () => {
    const forms: Record<string, string>[] = [
      { password: 'alice' },
      { username: 'alice' },
      { username: 'alice', password: 'alice', grant_type: 'client_credentials' },
    ];
    for (const form of forms) {
      const response = await login(form);
      expect(response.status, JSON.stringify(form)).toBe(400);
      expect(await response.json()).toMatchObject({ error_key: 'E_INVALID_INPUT' });
    }
    const json = await login({ username: 'alice', password: 'alice' }, 'application/json');
    expect(json.status).toBe(400);
  });

  it('answers a wrong password 401 E_UNAUTHORIZED, with nothing of the realm in it', async () => {
    const response = await login({ username: 'alice', password: 'wrong' });
    expect(response.status).toBe(401);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ error: true, error_key: 'E_UNAUTHORIZED' });
    expect(text).not.toContain(idp.issuer);
  });

  it('still needs a token for every other /service path', async () => {
    expect((await legacy.request('/service/o/')).status).toBe(401);
  });

  it('answers a realm that does not answer in time 500 E_UNKNOWN, naming nothing of it', async () => {
    // A realm that takes the connection and never answers.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/realms/org`;
    const app = new Hono();
    app.route(
      '/service',
      loginHelperRoutes({
        realm: { issuer, client: 'org-frontend' },
        maxBodyBytes: 1024,
        realmTimeoutMs: 50,
      }),
    );
    app.onError((error, c) =>
      error instanceof LegacyError
        ? c.json(error.toBody(), error.status)
        : c.json(
            {
              error: true,
              status: 500,
              error_key: 'E_UNKNOWN',
              description: 'An unexpected error occurred.',
            },
            500,
          ),
    );
    try {
      const response = await app.request('/service/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'username=alice&password=alice',
      });
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(JSON.parse(text)).toMatchObject({ error_key: 'E_UNKNOWN' });
      expect(text).not.toContain(issuer);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
