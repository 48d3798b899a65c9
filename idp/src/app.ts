import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { JSONWebKeySet, JWK } from 'jose';
import { authorizationEndpoint } from './authorization-endpoint.js';
import { AuthorizationCodes } from './authorization-codes.js';
import { LoginThrottle } from './brute-force.js';
import { systemClock, type Clock } from './clock.js';
import type { IdpContext } from './context.js';
import { preflight } from './cors.js';
import {
  certsEndpoint,
  discoveryEndpoint,
  OIDC_PATH,
  realmInfoEndpoint,
  thirdPartyCookieCheckEndpoint,
} from './discovery.js';
import { escapeHtml, htmlResponse, page } from './html.js';
import { KeyRotationLimitError, KeyStore, type KeyRotation } from './keys.js';
import { logoutEndpoint } from './logout-endpoint.js';
import { introspectionEndpoint } from './introspection-endpoint.js';
import type { Realm } from './realm.js';
import { revocationEndpoint } from './revocation-endpoint.js';
import { RevokedTokens } from './revoked-tokens.js';
import { SessionStore } from './sessions.js';
import { tokenEndpoint } from './token-endpoint.js';
import { userinfoEndpoint } from './userinfo-endpoint.js';

export interface IdpOptions {
  /** The realm, as `loadRealm` reads it from a realm import file. */
  realm: Realm;
  /** `{auth_url}`, as clients reach this provider, e.g. `http://localhost:8081`. Tokens' `iss` derives from it. */
  publicUrl: string;
  /** Folder for the signing keys (`keys.json`); omitted, keys live in memory and die with the process. */
  keysDir?: string;
  /** How long a rotated-out key stays in the JWKS; default the realm's access token lifespan. */
  keyGraceSeconds?: number;
  /**
   * How long a rotated-in key is published before it signs; default 0 (tests that drive the gateway see the
   * new key at once). `npm run idp` uses 60 s: at least the gateway's JWKS refetch cooldown (30 s).
   */
  keyActivationDelaySeconds?: number;
  /** Development-only endpoints such as `POST /auth/realms/{realm}/dev/rotate-keys`; default false. */
  devEndpoints?: boolean;
  /** Injectable clock (milliseconds since the epoch) so tests can move time. */
  now?: Clock;
  /** Makes each new signing key's private JWK; default a fresh RSA-2048 key (`KeyStoreOptions.generateKey`). */
  generateKey?: () => Promise<JWK>;
}

export interface Idp {
  /** The Hono app: serve it, or drive it with `app.request(...)`. */
  app: Hono;
  /** `{publicUrl}/auth/realms/{realm}`. */
  issuer: string;
  realm: Realm;
  /** Publishes a new key that signs after the activation delay; the previous one stays for the grace period. */
  rotateKeys(): Promise<KeyRotation>;
  jwks(): JSONWebKeySet;
}

const MAX_BODY_BYTES = 64 * 1024;

/** A development identity provider with Keycloak's paths, token shapes and error answers. */
export async function createIdp(options: IdpOptions): Promise<Idp> {
  const publicUrl = normalisePublicUrl(options.publicUrl);
  const { realm } = options;
  const now = options.now ?? systemClock;
  const realmPath = `/auth/realms/${encodeURIComponent(realm.name)}`;
  const issuer = `${publicUrl}${realmPath}`;
  const keys = await KeyStore.open({
    ...(options.keysDir === undefined ? {} : { dir: options.keysDir }),
    now,
    graceSeconds: options.keyGraceSeconds ?? realm.accessTokenLifespan,
    activationDelaySeconds: options.keyActivationDelaySeconds ?? 0,
    ...(options.generateKey === undefined ? {} : { generateKey: options.generateKey }),
  });
  const ctx: IdpContext = {
    realm,
    issuer,
    realmPath,
    keys,
    sessions: new SessionStore(realm, now),
    codes: new AuthorizationCodes(realm.accessCodeLifespan, now),
    throttle: new LoginThrottle(realm.bruteForce, now),
    revokedTokens: new RevokedTokens(now),
    now,
    secureCookies: publicUrl.startsWith('https:'),
  };

  const app = new Hono();
  const oidc = `${realmPath}${OIDC_PATH}`;

  app.get('/health', (c) => c.json({ status: 'UP' }));
  app.get('/', (c) => indexPage(c, ctx));
  app.get('/auth', (c) => indexPage(c, ctx));

  app.use(
    `${realmPath}/*`,
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => c.json({ error: 'invalid_request', error_description: 'Request body too large' }, 413),
    }),
  );
  app.get(realmPath, realmInfoEndpoint(ctx));
  app.get(`${realmPath}/.well-known/openid-configuration`, discoveryEndpoint(ctx));
  app.options(`${realmPath}/.well-known/openid-configuration`, (c) => preflight(c, ['GET']));
  app.get(`${oidc}/certs`, certsEndpoint(ctx));
  app.options(`${oidc}/certs`, (c) => preflight(c, ['GET']));
  app.on(['GET', 'POST'], `${oidc}/auth`, authorizationEndpoint(ctx));
  app.post(`${oidc}/token`, tokenEndpoint(ctx));
  app.options(`${oidc}/token`, (c) => preflight(c, ['POST']));
  app.all(`${oidc}/token`, (c) => methodNotAllowed(c, ['POST', 'OPTIONS']));
  app.post(`${oidc}/token/introspect`, introspectionEndpoint(ctx));
  app.all(`${oidc}/token/introspect`, (c) => methodNotAllowed(c, ['POST']));
  app.post(`${oidc}/revoke`, revocationEndpoint(ctx));
  app.options(`${oidc}/revoke`, (c) => preflight(c, ['POST']));
  app.all(`${oidc}/revoke`, (c) => methodNotAllowed(c, ['POST', 'OPTIONS']));
  app.on(['GET', 'POST'], `${oidc}/userinfo`, userinfoEndpoint(ctx));
  app.options(`${oidc}/userinfo`, (c) => preflight(c, ['GET', 'POST']));
  app.on(['GET', 'POST'], `${oidc}/logout`, logoutEndpoint(ctx));
  app.options(`${oidc}/logout`, (c) => preflight(c, ['GET', 'POST']));
  app.get(`${oidc}/3p-cookies/step1.html`, thirdPartyCookieCheckEndpoint());

  if (options.devEndpoints === true) {
    // Development only, and off unless asked for: anyone who reaches the provider could rotate its keys.
    app.post(`${realmPath}/dev/rotate-keys`, async (c) => {
      try {
        return c.json(await keys.rotate());
      } catch (error) {
        if (!(error instanceof KeyRotationLimitError)) throw error;
        c.header('Retry-After', String(realm.accessTokenLifespan));
        return c.json({ error: 'too_many_keys', error_description: error.message }, 429);
      }
    });
  }

  const unknownPath = (c: Context) =>
    c.req.param('realm') === realm.name
      ? c.json({ error: 'Unable to find matching target resource method' }, 404)
      : c.json({ error: 'Realm does not exist' }, 404);
  app.all('/auth/realms/:realm', unknownPath);
  app.all('/auth/realms/:realm/*', unknownPath);
  app.notFound((c) => c.json({ error: 'Unable to find matching target resource method' }, 404));
  app.onError((error, c) => {
    console.error('identity provider: unexpected error', error);
    return c.json(
      { error: 'unknown_error', error_description: 'For more on this error consult the server log.' },
      500,
    );
  });

  return {
    app,
    issuer,
    realm,
    rotateKeys: () => keys.rotate(),
    jwks: () => keys.jwks(),
  };
}

function methodNotAllowed(c: Context, allowed: readonly string[]): Response {
  c.header('Allow', allowed.join(', '));
  return c.json(
    {
      error: 'invalid_request',
      error_description: `HTTP method ${c.req.method} is not supported by this endpoint`,
    },
    405,
  );
}

function indexPage(c: Context, ctx: IdpContext): Response {
  const discovery = `${ctx.issuer}/.well-known/openid-configuration`;
  const body = `<h1>Development identity provider</h1>
<p>Keycloak's endpoints for the realm <strong>${escapeHtml(ctx.realm.name)}</strong>; there is no administration console.</p>
<p><a href="${escapeHtml(discovery)}">OpenID Connect discovery document</a></p>`;
  return htmlResponse(c, page({ title: 'Development identity provider', realm: ctx.realm.name, body }));
}

function normalisePublicUrl(value: string): string {
  const trimmed = value.replace(/\/+$/, '');
  if (!URL.canParse(trimmed) || !/^https?:\/\//.test(trimmed)) {
    throw new Error(`The public URL must be an absolute http(s) URL, got ${JSON.stringify(value)}`);
  }
  const url = new URL(trimmed);
  if (url.search || url.hash || url.username || url.password) {
    throw new Error(
      `The public URL must not carry a query, fragment or credentials, got ${JSON.stringify(value)}`,
    );
  }
  return trimmed;
}
