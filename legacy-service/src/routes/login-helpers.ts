import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { invalid, LegacyError, notFound } from '../errors.js';

export interface LoginHelperOptions {
  /** The realm; none (authentication off) answers both routes 404 `E_NO_SUCH_ENDPOINT`. */
  realm:
    | {
        /** The realm's issuer (`…/realms/{realm}`): where the settings point and where logins go. */
        issuer: string;
        /** The client a login uses (2.4.0's `keycloak_mo_client`): a public client allowed the password grant. */
        client: string;
      }
    | undefined;
  /** Largest accepted form, in bytes. */
  maxBodyBytes: number;
  /** How long a login waits for the realm's answer (default 10 s). */
  realmTimeoutMs?: number;
}

/** A refusal 2.4.0 raises as FastAPI's `HTTPException(406, detail=…)`: its body is the detail, a JSON string. */
class NotAcceptable extends Error {}

/** The realm's name and its server's address, from an issuer `{server}/realms/{realm}` as Keycloak's are. */
function realmOf(issuer: string): { realm: string; server: string } {
  const url = new URL(issuer.replace(/\/$/, ''));
  const match = /^(.*\/)realms\/([^/]+)$/.exec(url.pathname);
  if (match) return { server: `${url.origin}${match[1]!}`, realm: match[2]! };
  // Not Keycloak's layout: the issuer's last segment is the realm's name, its origin the server.
  return { server: `${url.origin}/`, realm: url.pathname.split('/').pop() ?? '' };
}

/** One form field as FastAPI's `Form(None)` reads it: absent, or the last value given. */
function field(form: URLSearchParams, name: string): string | undefined {
  const values = form.getAll(name);
  return values.length === 0 ? undefined : values[values.length - 1];
}

/**
 * `OAuth2PasswordRequestForm` (FastAPI, as 2.4.0's login takes it): `username` and `password` required, a
 * `grant_type` matching `password` from its start; then 2.4.0's own checks (`auth/keycloak/router.py:39-50`).
 */
function readLogin(form: URLSearchParams): { username: string; password: string } {
  const username = field(form, 'username');
  const password = field(form, 'password');
  const grantType = field(form, 'grant_type');
  const problems = [
    ...(username === undefined ? [{ key: 'username', message: 'field required' }] : []),
    ...(password === undefined ? [{ key: 'password', message: 'field required' }] : []),
    ...(grantType && !grantType.startsWith('password')
      ? [{ key: 'grant_type', message: 'string does not match regex "password"' }]
      : []),
  ];
  if (problems.length > 0) throw invalid.input(problems);
  if (grantType && grantType !== 'password') throw new NotAcceptable("grant_type must be 'password'");
  if (field(form, 'client_id')) throw new NotAcceptable('client_id must be left empty');
  if (field(form, 'client_secret')) throw new NotAcceptable('client_secret must be left empty');
  if ((field(form, 'scope') ?? '').split(' ').some((scope) => scope !== '')) {
    throw new NotAcceptable('client_scope must be left empty');
  }
  return { username: username!, password: password! };
}

async function readForm(c: Context): Promise<URLSearchParams> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return new URLSearchParams(await c.req.text());
  if (type === 'multipart/form-data') {
    const form = new URLSearchParams();
    for (const [name, value] of await c.req.formData())
      if (typeof value === 'string') form.append(name, value);
    return form;
  }
  // FastAPI reads no form from another body: the required fields are missing.
  return new URLSearchParams();
}

/**
 * OS2mo 2.4.0's `keycloak_router()` (`backend/mora/auth/keycloak/router.py`), mounted under `/service` without
 * the token check (2.4.0's `app.py:223-227`; its `test_service_auth.py` lists both among the endpoints without
 * authentication): `GET /keycloak.json`, the realm's adapter settings for OS2mo's frontend, and `POST /token`,
 * a password login at the realm that answers the access token.
 */
export function loginHelperRoutes(options: LoginHelperOptions): Hono {
  const app = new Hono({ strict: false });
  const realm = options.realm;
  if (realm === undefined) {
    app.get('/keycloak.json', (c) => {
      throw notFound.endpoint(c.req.path, c.req.method);
    });
    app.post('/token', (c) => {
      throw notFound.endpoint(c.req.path, c.req.method);
    });
    return app;
  }
  const { realm: realmName, server } = realmOf(realm.issuer);
  const tokenUrl = `${realm.issuer.replace(/\/$/, '')}/protocol/openid-connect/token`;

  // router.py:20-30; `ssl-required` is 2.4.0's default setting (`config.py:75`).
  app.get('/keycloak.json', (c) =>
    c.json({
      realm: realmName,
      'auth-server-url': server,
      'ssl-required': 'external',
      resource: realm.client,
      'public-client': true,
      'confidential-port': 0,
    }),
  );

  app.post(
    '/token',
    bodyLimit({
      maxSize: options.maxBodyBytes,
      onError: () => {
        throw invalid.tooLarge(options.maxBodyBytes);
      },
    }),
    async (c) => {
      let login: { username: string; password: string };
      try {
        login = readLogin(await readForm(c));
      } catch (error) {
        if (error instanceof NotAcceptable) return c.json(error.message, 406);
        throw error;
      }
      // router.py:52-61: the password grant as the realm's client, the token passed on with its type.
      const response = await fetch(tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: realm.client, grant_type: 'password', ...login }),
        // A realm that does not answer fails the login (500 E_UNKNOWN, as 2.4.0's client error) instead of holding it.
        signal: AbortSignal.timeout(options.realmTimeoutMs ?? 10_000),
      });
      const answer = (await response.json().catch(() => ({}))) as { access_token?: unknown };
      if (typeof answer.access_token !== 'string') {
        // 2.4.0 indexes the missing `access_token` and fails with 500; a wrong password is the caller's mistake.
        throw new LegacyError(401, 'E_UNAUTHORIZED', 'The realm refused the user name and password.');
      }
      return c.json({ access_token: answer.access_token, token_type: 'Bearer' });
    },
  );

  return app;
}
