import { OAuthError } from './errors.js';

/** Keycloak's default client scopes that put claims in our tokens; always granted. */
const DEFAULT_SCOPES = ['profile', 'email'];
const OPENID = 'openid';
const KNOWN_SCOPES = new Set([OPENID, ...DEFAULT_SCOPES]);

/**
 * The `scope` a token carries for a requested `scope` parameter: `openid` only if asked for (in every flow,
 * as Keycloak does: without it the code flow is plain OAuth 2.0), then the default scopes. Unknown scopes
 * are refused as Keycloak does.
 */
export function grantedScope(requested: string | null | undefined): string {
  const names = parseScope(requested);
  const unknown = names.filter((name) => !KNOWN_SCOPES.has(name));
  if (unknown.length > 0) throw new OAuthError(400, 'invalid_scope', `Invalid scopes: ${requested ?? ''}`);
  const openid = names.includes(OPENID);
  return [...(openid ? [OPENID] : []), ...DEFAULT_SCOPES].join(' ');
}

/** A refresh may narrow the scope: `openid` stays only if the refresh asks for it again. */
export function narrowedScope(granted: string, requested: string | null): string {
  if (requested === null || requested.trim() === '') return granted;
  grantedScope(requested);
  const keepOpenid = includesOpenid(granted) && parseScope(requested).includes(OPENID);
  return [...(keepOpenid ? [OPENID] : []), ...DEFAULT_SCOPES].join(' ');
}

export function includesOpenid(scope: string): boolean {
  return parseScope(scope).includes(OPENID);
}

function parseScope(scope: string | null | undefined): string[] {
  return [...new Set((scope ?? '').split(/\s+/).filter((name) => name.length > 0))];
}
