import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { IdpContext } from './context.js';
import { allowOrigin } from './cors.js';
import { GRANTS } from './token-endpoint.js';

export const OIDC_PATH = '/protocol/openid-connect';

/** The OpenID Connect discovery document: only what this provider implements is listed. */
export function discoveryDocument(ctx: IdpContext): Record<string, unknown> {
  const oidc = `${ctx.issuer}${OIDC_PATH}`;
  const mappedClaims = new Set(
    ctx.realm.clients.flatMap((client) => client.attributeMappers.map((mapper) => mapper.claimName)),
  );
  return {
    issuer: ctx.issuer,
    authorization_endpoint: `${oidc}/auth`,
    token_endpoint: `${oidc}/token`,
    userinfo_endpoint: `${oidc}/userinfo`,
    end_session_endpoint: `${oidc}/logout`,
    jwks_uri: `${oidc}/certs`,
    introspection_endpoint: `${oidc}/token/introspect`,
    revocation_endpoint: `${oidc}/revoke`,
    grant_types_supported: Object.keys(GRANTS),
    response_types_supported: ['code'],
    response_modes_supported: ['query', 'fragment'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    code_challenge_methods_supported: ['S256'],
    scopes_supported: ['openid', 'profile', 'email'],
    claims_supported: [
      'aud',
      'sub',
      'iss',
      'auth_time',
      'name',
      'given_name',
      'family_name',
      'preferred_username',
      'email',
      'email_verified',
      'acr',
      'sid',
      ...mappedClaims,
    ],
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    // RFC 9207: every authorization response, errors included, carries `iss`.
    authorization_response_iss_parameter_supported: true,
    frontchannel_logout_supported: false,
    backchannel_logout_supported: false,
  };
}

/** `GET …/.well-known/openid-configuration`; any origin may read it. */
export function discoveryEndpoint(ctx: IdpContext) {
  return (c: Context): Response => {
    allowOrigin(c, () => true);
    return c.json(discoveryDocument(ctx));
  };
}

/** `GET …/protocol/openid-connect/certs`: the JWKS, with keys still in their grace period. */
export function certsEndpoint(ctx: IdpContext) {
  return (c: Context): Response => {
    allowOrigin(c, () => true);
    c.header('Cache-Control', 'no-cache');
    return c.json(ctx.keys.jwks());
  };
}

/** `GET /auth/realms/{realm}`: Keycloak's realm summary; also a health check for the realm. */
export function realmInfoEndpoint(ctx: IdpContext) {
  return async (c: Context): Promise<Response> => {
    allowOrigin(c, () => true);
    return c.json({
      realm: ctx.realm.name,
      public_key: await ctx.keys.activePublicKeyBase64(),
      'token-service': `${ctx.issuer}${OIDC_PATH}`,
      'account-service': `${ctx.issuer}/account`,
      'tokens-not-before': 0,
    });
  };
}

// keycloak-js loads this page in a hidden iframe before anything else. There is no session-status iframe
// here, so the page answers "unsupported" and the adapter falls back to redirects, instead of timing out.
const THIRD_PARTY_COOKIE_SCRIPT = 'window.parent.postMessage("unsupported", "*");';
const THIRD_PARTY_COOKIE_SCRIPT_HASH = createHash('sha256')
  .update(THIRD_PARTY_COOKIE_SCRIPT)
  .digest('base64');

/** `GET …/protocol/openid-connect/3p-cookies/step1.html` for keycloak-js's third-party cookie check. */
export function thirdPartyCookieCheckEndpoint() {
  return (c: Context): Response => {
    c.header('Cache-Control', 'no-store');
    c.header(
      'Content-Security-Policy',
      `default-src 'none'; script-src 'sha256-${THIRD_PARTY_COOKIE_SCRIPT_HASH}'`,
    );
    return c.html(
      `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Cookie check</title></head><body><script>${THIRD_PARTY_COOKIE_SCRIPT}</script></body></html>`,
    );
  };
}
