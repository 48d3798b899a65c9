import { readFileSync } from 'node:fs';
import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  jwtVerify,
  type JSONWebKeySet,
  type JWK,
} from 'jose';
import { createIdp, type Idp, type IdpOptions } from './app.js';
import { developmentRealm } from './dev-realm.js';
import { generateRsaJwk } from './keys.js';
import type { RealmBuilderOptions } from './realm-builder.js';
import { DEV_REALM_USERS_FILE } from './realm-env.js';
import { parseRealmUsers, type RealmUser } from './realm-users.js';

/** Shared by the identity provider's tests: a movable clock and a provider built on it. */

export const PUBLIC_URL = 'http://localhost:8081';
export const ISSUER = `${PUBLIC_URL}/auth/realms/org`;
export const OIDC = '/auth/realms/org/protocol/openid-connect';
export const INTEGRATION_SECRET = 'integration-dev-secret';
export const GATEWAY_ORIGIN = 'http://localhost:8080';

export function devUsers(): RealmUser[] {
  return parseRealmUsers(readFileSync(DEV_REALM_USERS_FILE, 'utf8'));
}

export class TestClock {
  constructor(public ms = Date.UTC(2030, 0, 1)) {}
  readonly now = (): number => this.ms;
  advanceSeconds(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

export interface TestIdp extends Idp {
  clock: TestClock;
  /** POSTs a form to the token endpoint. */
  token(params: Record<string, string>, headers?: Record<string, string>): Promise<Response>;
  certs(): Promise<JSONWebKeySet>;
}

/** The first signing key of every provider these tests build, made once per process. */
let firstKey: Promise<JWK> | undefined;

/**
 * Each provider starts with the process's one key and makes a fresh one at each rotation: making an RSA key
 * costs 0.1–0.3 CPU-seconds, and these tests build a provider each (token-endpoint.test.ts 9 → 2 CPU-s).
 */
export function sharedFirstKey(): () => Promise<JWK> {
  let made = 0;
  return () => {
    made += 1;
    if (made > 1) return generateRsaJwk();
    firstKey ??= generateRsaJwk();
    return firstKey;
  };
}

export async function testIdp(
  options: Partial<RealmBuilderOptions> & Partial<Omit<IdpOptions, 'realm' | 'now'>> = {},
): Promise<TestIdp> {
  const { users, rbacEnabled, integrationClientSecret, gatewayPublicUrl, ...idpOptions } = options;
  const clock = new TestClock();
  const realm = developmentRealm({
    ...(users === undefined ? {} : { users }),
    rbacEnabled: rbacEnabled ?? true,
    ...(integrationClientSecret === undefined ? {} : { integrationClientSecret }),
    ...(gatewayPublicUrl === undefined ? {} : { gatewayPublicUrl }),
  });
  const idp = await createIdp({
    publicUrl: PUBLIC_URL,
    generateKey: sharedFirstKey(),
    ...idpOptions,
    realm,
    now: clock.now,
  });
  return {
    ...idp,
    clock,
    token: (params, headers = {}) =>
      Promise.resolve(
        idp.app.request(`${OIDC}/token`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
          body: new URLSearchParams(params),
        }),
      ),
    certs: async () => (await idp.app.request(`${OIDC}/certs`)).json() as Promise<JSONWebKeySet>,
  };
}

export function basic(clientId: string, secret: string): Record<string, string> {
  return { Authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` };
}

export async function passwordTokens(
  idp: TestIdp,
  username = 'alice',
  scope?: string,
): Promise<Record<string, unknown>> {
  const response = await idp.token({
    grant_type: 'password',
    client_id: 'org-frontend',
    username,
    password: username,
    ...(scope === undefined ? {} : { scope }),
  });
  if (response.status !== 200)
    throw new Error(`password grant failed: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
}

/** Verifies a token as the gateway will: the JWKS, RS256 only, the issuer, at the test clock's time. */
export async function verifyWithJwks(token: string, jwks: JSONWebKeySet, at: number) {
  return jwtVerify(token, createLocalJWKSet(jwks), {
    issuer: ISSUER,
    algorithms: ['RS256'],
    currentDate: new Date(at),
  });
}

export function claims(token: unknown): Record<string, unknown> {
  return decodeJwt(String(token)) as Record<string, unknown>;
}

export function header(token: unknown): Record<string, unknown> {
  return decodeProtectedHeader(String(token)) as Record<string, unknown>;
}

/** The hidden fields of the first form in a page, as a browser submits them. */
export function formFields(html: string): URLSearchParams {
  const fields = new URLSearchParams();
  const decode = (text: string) =>
    text
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  for (const match of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    fields.append(decode(match[1]!), decode(match[2]!));
  }
  return fields;
}

/** The `name=value` pairs of a response's `Set-Cookie` headers, joined as a `Cookie` header sends them. */
export function cookiesFrom(response: Response, earlier = ''): string {
  const jar = new Map(
    earlier
      .split('; ')
      .filter(Boolean)
      .map((pair) => [pair.split('=')[0]!, pair] as const),
  );
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(';')[0]!;
    jar.set(pair.split('=')[0]!, pair);
  }
  return [...jar.values()].join('; ');
}

/** A code-flow authorization request of the gateway's browser client, with PKCE. */
export const browserAuthorization = (overrides: Record<string, string> = {}) =>
  new URLSearchParams({
    client_id: 'org-frontend',
    redirect_uri: 'http://localhost:8080/graphql/v2',
    response_type: 'code',
    scope: 'openid',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    ...overrides,
  });

/**
 * Opens the login form for `query` as a browser does: its hidden fields (the anti-forgery token among them),
 * ready for a username and password, and the cookie the form is bound to.
 */
export async function openLoginForm(
  idp: Idp,
  query: URLSearchParams = browserAuthorization(),
): Promise<{ fields: URLSearchParams; cookie: string }> {
  const form = await idp.app.request(`${OIDC}/auth?${query}`);
  return { fields: formFields(await form.text()), cookie: cookiesFrom(form) };
}

/**
 * Signs a user in through the login form as a browser does: opens the form (keeping its cookies and hidden
 * fields), posts it, and returns the cookies the browser then holds (the SSO session among them).
 */
export async function browserLogin(idp: Idp, username = 'alice', password = username): Promise<string> {
  const { fields: body, cookie } = await openLoginForm(idp);
  body.set('username', username);
  body.set('password', password);
  const posted = await idp.app.request(`${OIDC}/auth`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(cookie ? { Cookie: cookie } : {}) },
    body,
  });
  if (posted.status !== 302) throw new Error(`login failed: ${posted.status} ${await posted.text()}`);
  return cookiesFrom(posted, cookie);
}
