import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { matchRedirectUri } from './clients.js';
import type { IdpContext } from './context.js';
import { OAuthError } from './errors.js';
import { htmlResponse, messagePage } from './html.js';
import { ACCOUNT_DISABLED_MESSAGE, INVALID_CREDENTIALS_MESSAGE, renderLoginPage } from './login-page.js';
import { PKCE_METHODS, PKCE_VALUE_PATTERN } from './pkce.js';
import type { Client, Realm } from './realm.js';
import { queryParams, readForm } from './request-params.js';
import { grantedScope } from './scopes.js';
import { checkPasswordLogin, clientAddress } from './password-login.js';
import type { UserSession } from './sessions.js';

/** The browser's single sign-on cookie: holds a session's secret, never its id. */
export const SSO_COOKIE = 'IDP_SSO';

export type ResponseMode = 'query' | 'fragment';

export interface AuthorizationRequest {
  client: Client;
  /** Where to send the browser: the registered, normalised URI. */
  redirectUri: string;
  /** The `redirect_uri` parameter as sent; the token request must send the same. */
  redirectUriParam?: string;
  responseMode: ResponseMode;
  state?: string;
  nonce?: string;
  scope: string;
  codeChallenge?: string;
  codeChallengeMethod?: string;
  prompt: readonly string[];
  loginHint?: string;
}

export type ParsedAuthorizationRequest =
  | { kind: 'valid'; request: AuthorizationRequest }
  /** Shown as a page: without a trusted redirect URI the browser must never be sent anywhere. */
  | { kind: 'page'; message: string }
  | { kind: 'redirect'; location: string };

const ERROR_PAGE_TITLE = 'We are sorry...';
// The login form's own fields; everything else is the authorization request, carried through the form.
/** The login form's anti-forgery field, and the cookie that binds it to the browser that opened the form. */
export const LOGIN_TOKEN_FIELD = 'login_token';
export const LOGIN_COOKIE = 'IDP_LOGIN';

const FORM_FIELDS = new Set(['username', 'password', LOGIN_TOKEN_FIELD]);

/**
 * The login form's token: an HMAC of the browser's login cookie and the authorization request it answers
 * (client, redirect URI, state, PKCE challenge), under a key made per process. Another site can make a
 * browser post the form, but cannot read the cookie or the page, so it cannot send the matching token.
 */
function loginTokens() {
  const key = randomBytes(32);
  const expected = (loginCookie: string, params: URLSearchParams) =>
    createHmac('sha256', key)
      .update(
        [
          loginCookie,
          ...['client_id', 'redirect_uri', 'state', 'code_challenge'].map((name) => params.get(name) ?? ''),
        ]
          .map((part) => `${part.length}:${part}`)
          .join(''),
      )
      .digest('base64url');
  return {
    issue: (loginCookie: string, params: URLSearchParams) => expected(loginCookie, params),
    valid(loginCookie: string | undefined, params: URLSearchParams): boolean {
      const given = params.get(LOGIN_TOKEN_FIELD);
      if (loginCookie === undefined || given === null) return false;
      const a = Buffer.from(given);
      const b = Buffer.from(expected(loginCookie, params));
      return a.length === b.length && timingSafeEqual(a, b);
    },
  };
}
type LoginTokens = ReturnType<typeof loginTokens>;

/**
 * Validates an authorization request in Keycloak's order: client, redirect URI, then the rest. Error
 * redirects carry `iss` (RFC 9207), as successful ones do, so a client can tell which provider answered.
 */
export function parseAuthorizationRequest(
  realm: Realm,
  issuer: string,
  params: URLSearchParams,
): ParsedAuthorizationRequest {
  const clientId = params.get('client_id');
  if (!clientId) return { kind: 'page', message: 'Missing parameter: client_id' };
  const client = realm.findClient(clientId);
  if (!client) return { kind: 'page', message: 'Client not found.' };
  if (!client.enabled) return { kind: 'page', message: 'Client disabled.' };

  const redirectUriParam = params.get('redirect_uri') ?? undefined;
  const redirectUri =
    redirectUriParam === undefined
      ? soleRedirectUri(client)
      : matchRedirectUri(client.redirectUris, redirectUriParam);
  if (redirectUri === undefined) return { kind: 'page', message: 'Invalid parameter: redirect_uri' };

  const state = params.get('state') ?? undefined;
  const requestedMode = params.get('response_mode');
  const responseMode: ResponseMode = requestedMode === 'fragment' ? 'fragment' : 'query';
  const fail = (error: string, description?: string): ParsedAuthorizationRequest => ({
    kind: 'redirect',
    location: redirectLocation(redirectUri, responseMode, [
      ['error', error],
      ...(description === undefined ? [] : ([['error_description', description]] as const)),
      ...(state === undefined ? [] : ([['state', state]] as const)),
      ['iss', issuer],
    ]),
  });

  if (requestedMode !== null && requestedMode !== 'query' && requestedMode !== 'fragment') {
    return fail('invalid_request', 'Invalid parameter: response_mode');
  }
  const responseType = params.get('response_type');
  if (!responseType) return fail('invalid_request', 'Missing parameter: response_type');
  if (responseType !== 'code') return fail('unsupported_response_type', 'Unsupported response_type');
  if (!client.standardFlowEnabled) {
    return fail(
      'unauthorized_client',
      'Client is not allowed to initiate browser login with given response_type. Standard flow is disabled for the client.',
    );
  }

  let scope: string;
  try {
    // No `openid`, no ID token: Keycloak runs a plain OAuth 2.0 code flow then (keycloak-js always asks).
    scope = grantedScope(params.get('scope'));
  } catch (error) {
    if (error instanceof OAuthError) return fail(error.error, error.description);
    throw error;
  }

  const codeChallenge = params.get('code_challenge') ?? undefined;
  const codeChallengeMethod = params.get('code_challenge_method') ?? undefined;
  if (client.pkceMethod !== undefined) {
    if (codeChallengeMethod === undefined)
      return fail('invalid_request', 'Missing parameter: code_challenge_method');
    if (codeChallengeMethod !== client.pkceMethod) {
      return fail(
        'invalid_request',
        'Invalid parameter: code challenge method is not matching the configured one',
      );
    }
  }
  if (
    codeChallengeMethod !== undefined &&
    !(PKCE_METHODS as readonly string[]).includes(codeChallengeMethod)
  ) {
    return fail('invalid_request', 'Invalid parameter: code_challenge_method');
  }
  if (codeChallenge === undefined && (codeChallengeMethod !== undefined || client.pkceMethod !== undefined)) {
    return fail('invalid_request', 'Missing parameter: code_challenge');
  }
  if (codeChallenge !== undefined) {
    if (codeChallengeMethod === undefined) {
      // Without a method RFC 7636 means "plain", which this provider does not accept.
      return fail('invalid_request', 'Invalid parameter: code_challenge_method');
    }
    if (!PKCE_VALUE_PATTERN.test(codeChallenge))
      return fail('invalid_request', 'Invalid parameter: code_challenge');
  }

  const request: AuthorizationRequest = {
    client,
    redirectUri,
    responseMode,
    scope,
    prompt: (params.get('prompt') ?? '').split(/\s+/).filter((value) => value.length > 0),
  };
  if (redirectUriParam !== undefined) request.redirectUriParam = redirectUriParam;
  if (state !== undefined) request.state = state;
  const nonce = params.get('nonce');
  if (nonce !== null) request.nonce = nonce;
  if (codeChallenge !== undefined) request.codeChallenge = codeChallenge;
  if (codeChallengeMethod !== undefined) request.codeChallengeMethod = codeChallengeMethod;
  const loginHint = params.get('login_hint');
  if (loginHint !== null) request.loginHint = loginHint;
  return { kind: 'valid', request };
}

/** `GET|POST …/protocol/openid-connect/auth`: the login page, and the login itself when the form is posted. */
export function authorizationEndpoint(ctx: IdpContext) {
  const tokens = loginTokens();
  return async (c: Context): Promise<Response> => {
    const params = c.req.method === 'POST' ? await readForm(c) : queryParams(c);
    const parsed = parseAuthorizationRequest(ctx.realm, ctx.issuer, params);
    if (parsed.kind === 'page') {
      return htmlResponse(
        c,
        messagePage({ title: ERROR_PAGE_TITLE, realm: ctx.realm.name, message: parsed.message, error: true }),
        400,
      );
    }
    if (parsed.kind === 'redirect') return c.redirect(parsed.location, 302);
    const { request } = parsed;

    if (c.req.method === 'POST' && params.has('username')) {
      // Checked before the password, so a forged post costs no hashing and counts no failure.
      if (!tokens.valid(getCookie(c, LOGIN_COOKIE), params)) {
        return htmlResponse(
          c,
          messagePage({
            title: ERROR_PAGE_TITLE,
            realm: ctx.realm.name,
            message:
              'This sign-in was not sent from the sign-in page in this browser, or the page has expired. Go back to the application and sign in again.',
            error: true,
          }),
          400,
        );
      }
      return logIn(c, ctx, params, request, tokens);
    }

    const existing = ctx.sessions.findBySsoToken(getCookie(c, SSO_COOKIE));
    const existingUser = existing && ctx.realm.findUserById(existing.userId);
    if (existing && existingUser?.enabled && !request.prompt.includes('login')) {
      return completeLogin(c, ctx, request, existing, '0');
    }
    if (request.prompt.includes('none')) {
      return c.redirect(
        redirectLocation(request.redirectUri, request.responseMode, [
          ['error', 'login_required'],
          ...(request.state === undefined ? [] : ([['state', request.state]] as const)),
          ['iss', ctx.issuer],
        ]),
        302,
      );
    }
    return loginForm(c, ctx, params, tokens, request.loginHint);
  };
}

function logIn(
  c: Context,
  ctx: IdpContext,
  params: URLSearchParams,
  request: AuthorizationRequest,
  tokens: LoginTokens,
): Response {
  const username = params.get('username') ?? '';
  const login = checkPasswordLogin(ctx, username, params.get('password') ?? '', clientAddress(c));
  // Keycloak's form shows the same message for an unknown user, a wrong password and a locked account.
  if (login.kind === 'invalid') {
    return loginForm(c, ctx, params, tokens, username, INVALID_CREDENTIALS_MESSAGE);
  }
  if (login.kind === 'disabled') return loginForm(c, ctx, params, tokens, username, ACCOUNT_DISABLED_MESSAGE);
  const session = ctx.sessions.create(login.user.id);
  setCookie(c, SSO_COOKIE, session.ssoToken, {
    path: `${ctx.realmPath}/`,
    httpOnly: true,
    sameSite: 'Lax',
    secure: ctx.secureCookies,
  });
  return completeLogin(c, ctx, request, session, '1');
}

function completeLogin(
  c: Context,
  ctx: IdpContext,
  request: AuthorizationRequest,
  session: UserSession,
  acr: '0' | '1',
): Response {
  ctx.sessions.attachClient(session, {
    clientId: request.client.clientId,
    scope: request.scope,
    acr,
    ...(request.nonce === undefined ? {} : { nonce: request.nonce }),
  });
  const code = ctx.codes.issue({
    sessionId: session.id,
    clientId: request.client.clientId,
    ...(request.redirectUriParam === undefined ? {} : { redirectUri: request.redirectUriParam }),
    ...(request.codeChallenge === undefined ? {} : { codeChallenge: request.codeChallenge }),
    ...(request.codeChallengeMethod === undefined
      ? {}
      : { codeChallengeMethod: request.codeChallengeMethod }),
  });
  return c.redirect(
    redirectLocation(request.redirectUri, request.responseMode, [
      ...(request.state === undefined ? [] : ([['state', request.state]] as const)),
      ['session_state', session.id],
      ['iss', ctx.issuer],
      ['code', code],
    ]),
    302,
  );
}

function loginForm(
  c: Context,
  ctx: IdpContext,
  params: URLSearchParams,
  tokens: LoginTokens,
  username?: string,
  error?: string,
): Response {
  // One login cookie per browser, kept across forms, so two tabs signing in do not void each other's form.
  let loginCookie = getCookie(c, LOGIN_COOKIE);
  if (loginCookie === undefined || !/^[A-Za-z0-9_-]{43}$/.test(loginCookie)) {
    loginCookie = randomBytes(32).toString('base64url');
    setCookie(c, LOGIN_COOKIE, loginCookie, {
      path: `${ctx.realmPath}/`,
      httpOnly: true,
      sameSite: 'Lax',
      secure: ctx.secureCookies,
    });
  }
  // Shown again after a failed login with status 200, as Keycloak does.
  const html = renderLoginPage({
    realm: ctx.realm.name,
    action: `${ctx.realmPath}/protocol/openid-connect/auth`,
    hiddenFields: [
      ...[...params].filter(([name]) => !FORM_FIELDS.has(name)),
      [LOGIN_TOKEN_FIELD, tokens.issue(loginCookie, params)],
    ],
    ...(username === undefined ? {} : { username }),
    ...(error === undefined ? {} : { error }),
  });
  return htmlResponse(c, html);
}

/** Adds the response parameters to the redirect URI, in the query or in the fragment. */
export function redirectLocation(
  redirectUri: string,
  mode: ResponseMode,
  params: ReadonlyArray<readonly [string, string]>,
): string {
  const url = new URL(redirectUri);
  if (mode === 'fragment') {
    url.hash = new URLSearchParams(params.map(([name, value]): [string, string] => [name, value])).toString();
  } else {
    for (const [name, value] of params) url.searchParams.append(name, value);
  }
  return url.href;
}

/** Keycloak's fallback when `redirect_uri` is left out: the client's only redirect URI, if it has no wildcard. */
function soleRedirectUri(client: Client): string | undefined {
  const [only, ...others] = client.redirectUris;
  if (only === undefined || others.length > 0 || only.endsWith('*')) return undefined;
  return matchRedirectUri([only], only);
}
