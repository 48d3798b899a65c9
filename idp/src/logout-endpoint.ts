import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie } from 'hono/cookie';
import { SSO_COOKIE } from './authorization-endpoint.js';
import { authenticateClient, matchRedirectUri } from './clients.js';
import type { IdpContext } from './context.js';
import { allowOrigin, webOriginAllows } from './cors.js';
import { OAuthError, oauthErrorResponse } from './errors.js';
import { escapeHtml, htmlResponse, messagePage, page } from './html.js';
import type { Client } from './realm.js';
import { queryParams, readForm } from './request-params.js';
import { verifyRealmToken, verifyRefreshToken } from './tokens.js';

/**
 * `GET|POST …/protocol/openid-connect/logout`. A POST with a `refresh_token` is a client's back-channel
 * logout (204); anything else is the browser's (RP-initiated) logout, which may redirect back.
 */
export function logoutEndpoint(ctx: IdpContext) {
  // Signs the confirmation form's token; a new key per process, so a restart voids forms already shown.
  const confirmationKey = randomBytes(32);
  const confirmation = (ssoToken: string) =>
    createHmac('sha256', confirmationKey).update(`logout:${ssoToken}`).digest('base64url');
  return async (c: Context): Promise<Response> => {
    const form = c.req.method === 'POST' ? await readForm(c) : undefined;
    if (form?.has('refresh_token')) return backChannelLogout(c, ctx, form);
    return browserLogout(c, ctx, form ?? queryParams(c), confirmation);
  };
}

/** The form field that carries the confirmation token (Keycloak's logout confirmation uses `session_code`). */
export const LOGOUT_CONFIRMATION_FIELD = 'session_code';

/** Whether `given` is the token `expected`, compared in constant time. */
function sameToken(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Keycloak 26's answer to a logout without an `id_token_hint`: a page asking to confirm, whose form posts
 * the request back with a token bound to the browser's session, which another site cannot read or forge.
 */
function confirmationPage(
  c: Context,
  ctx: IdpContext,
  params: URLSearchParams,
  token: string,
  status: 200 | 400 = 200,
): Response {
  const carried = ['client_id', 'post_logout_redirect_uri', 'state', 'ui_locales']
    .map((name) => [name, params.get(name)] as const)
    .filter((field): field is readonly [string, string] => field[1] !== null);
  const hidden = [...carried, [LOGOUT_CONFIRMATION_FIELD, token] as const]
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const warning =
    status === 400
      ? '<p class="error" role="alert">The logout was not confirmed on this page. Confirm it here.</p>\n'
      : '';
  const body = `<h1>Logging out</h1>
${warning}<p>Do you want to log out?</p>
<form method="post" action="${escapeHtml(`${ctx.realmPath}/protocol/openid-connect/logout`)}">
${hidden}
<button type="submit" name="confirmLogout" value="Logout">Logout</button>
</form>`;
  return htmlResponse(c, page({ title: 'Logging out', realm: ctx.realm.name, body }), status);
}

async function backChannelLogout(c: Context, ctx: IdpContext, form: URLSearchParams): Promise<Response> {
  let client: Client | undefined;
  try {
    client = authenticateClient(ctx.realm, c.req.header('Authorization'), form);
    const claims = await verifyRefreshToken(ctx, form.get('refresh_token') ?? '', { checkExpiry: false });
    if (claims.azp !== client.clientId) {
      throw new OAuthError(
        400,
        'invalid_grant',
        "Invalid refresh token. Token client and authorized client don't match",
      );
    }
    ctx.sessions.end(claims.sid);
    const { webOrigins } = client;
    allowOrigin(c, (origin) => webOriginAllows(webOrigins, origin));
    return c.body(null, 204);
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    const webOrigins = client?.webOrigins;
    allowOrigin(c, (origin) => webOrigins === undefined || webOriginAllows(webOrigins, origin));
    return oauthErrorResponse(c, error);
  }
}

async function browserLogout(
  c: Context,
  ctx: IdpContext,
  params: URLSearchParams,
  confirmation: (ssoToken: string) => string,
): Promise<Response> {
  const errorPage = (message: string) =>
    htmlResponse(
      c,
      messagePage({ title: 'We are sorry...', realm: ctx.realm.name, message, error: true }),
      400,
    );

  let hintedClientId: string | undefined;
  let hintedSessionId: string | undefined;
  const hint = params.get('id_token_hint');
  if (hint !== null) {
    try {
      // An expired ID token still names the session to end, so expiry is not checked, as in Keycloak.
      const claims = await verifyRealmToken(ctx, hint, { typ: 'ID', checkExpiry: false });
      hintedClientId = typeof claims['azp'] === 'string' ? claims['azp'] : undefined;
      hintedSessionId = typeof claims['sid'] === 'string' ? claims['sid'] : undefined;
    } catch {
      return errorPage('Invalid parameter: id_token_hint');
    }
  }
  const clientId = params.get('client_id') ?? undefined;
  if (clientId !== undefined && hintedClientId !== undefined && clientId !== hintedClientId) {
    return errorPage('Parameter client_id different than the client for which ID Token was issued');
  }
  const client = ctx.realm.findClient(clientId ?? hintedClientId ?? '');
  if (clientId !== undefined && !client) return errorPage('Client not found.');

  const postLogoutRedirectUri = params.get('post_logout_redirect_uri') ?? undefined;
  let redirectTo: string | undefined;
  if (postLogoutRedirectUri !== undefined) {
    if (!client) return errorPage('Missing parameters: id_token_hint');
    redirectTo = matchRedirectUri(client.postLogoutRedirectUris, postLogoutRedirectUri);
    if (redirectTo === undefined) return errorPage('Invalid redirect uri');
  }

  const ssoToken = getCookie(c, SSO_COOKIE);
  const cookieSession = ctx.sessions.findBySsoToken(ssoToken);
  // Without an ID token naming the session, a bare link (from any site) must not end it: ask first.
  if (hint === null && cookieSession && ssoToken !== undefined) {
    const expected = confirmation(ssoToken);
    const given = c.req.method === 'POST' ? params.get(LOGOUT_CONFIRMATION_FIELD) : null;
    if (!sameToken(given, expected)) {
      return confirmationPage(c, ctx, params, expected, given === null ? 200 : 400);
    }
  }

  if (hintedSessionId !== undefined) ctx.sessions.end(hintedSessionId);
  if (cookieSession) ctx.sessions.end(cookieSession.id);
  deleteCookie(c, SSO_COOKIE, { path: `${ctx.realmPath}/` });

  if (redirectTo !== undefined) {
    const target = new URL(redirectTo);
    const state = params.get('state');
    if (state !== null) target.searchParams.append('state', state);
    return c.redirect(target.href, 302);
  }
  return htmlResponse(
    c,
    messagePage({ title: 'You are logged out', realm: ctx.realm.name, message: 'You are logged out.' }),
  );
}
