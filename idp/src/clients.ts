import { OAuthError } from './errors.js';
import type { Client, Realm } from './realm.js';
import { sameSecret } from './secrets.js';

const INVALID_CLIENT = 'Invalid client or Invalid client credentials';

/**
 * Authenticates the client of a token or logout request with `client_secret_basic` or `client_secret_post`,
 * answering failures with Keycloak's statuses and codes (a wrong secret is `unauthorized_client` there).
 */
export function authenticateClient(
  realm: Realm,
  authorization: string | undefined,
  form: URLSearchParams,
): Client {
  let clientId: string | undefined;
  let secret: string | undefined;
  if (authorization !== undefined) {
    const basic = parseBasicAuthorization(authorization);
    if (basic) {
      [clientId, secret] = basic;
    } else if (!form.has('client_id')) {
      throw new OAuthError(401, 'invalid_client', INVALID_CLIENT, {
        'WWW-Authenticate': `Basic realm="${realm.name}"`,
      });
    }
  }
  // As in Keycloak, form parameters win over the Authorization header.
  clientId = form.get('client_id') ?? clientId;
  secret = form.get('client_secret') ?? secret;
  if (clientId === undefined || clientId === '') {
    throw new OAuthError(400, 'invalid_client', 'Missing client_id parameter');
  }
  const client = realm.findClient(clientId);
  if (!client || !client.enabled) throw new OAuthError(401, 'invalid_client', INVALID_CLIENT);
  if (client.publicClient) return client;
  if (secret === undefined || client.secret === undefined || !sameSecret(secret, client.secret)) {
    throw new OAuthError(401, 'unauthorized_client', INVALID_CLIENT);
  }
  return client;
}

/** `Basic base64(urlencode(id) ":" urlencode(secret))` as RFC 6749 §2.3.1 asks; undefined if it is not that. */
export function parseBasicAuthorization(header: string): [string, string] | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  try {
    return [formDecode(decoded.slice(0, colon)), formDecode(decoded.slice(colon + 1))];
  } catch {
    return undefined;
  }
}

function formDecode(text: string): string {
  return decodeURIComponent(text.replace(/\+/g, ' '));
}

/**
 * Checks a redirect URI against registered ones the way Keycloak does: exact match, or a trailing `*`
 * matching any continuation (ignoring the query unless the pattern has one). Returns the normalised URI
 * to redirect to, or undefined when it is not registered.
 */
export function matchRedirectUri(registered: readonly string[], requested: string): string | undefined {
  const url = parseRedirectUri(requested);
  if (!url) return undefined;
  const candidate = url.href;
  const withoutQuery = `${url.origin}${url.pathname}`;
  for (const pattern of registered) {
    if (pattern.endsWith('*')) {
      const prefix = normalisePrefix(pattern.slice(0, -1));
      if (prefix === undefined) continue;
      const compared = pattern.includes('?') ? candidate : withoutQuery;
      if (compared.startsWith(prefix)) return candidate;
    } else if (URL.canParse(pattern) && new URL(pattern).href === candidate) {
      return candidate;
    }
  }
  return undefined;
}

function parseRedirectUri(value: string): URL | undefined {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  // A fragment or user info in a redirect URI is never legitimate (RFC 6749 §3.1.2) and hides the real target.
  if (url.hash || url.username || url.password) return undefined;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return url;
}

function normalisePrefix(prefix: string): string | undefined {
  if (!URL.canParse(prefix)) return undefined;
  const url = new URL(prefix);
  // URL adds "/" to a bare origin; a prefix such as "http://host" must not gain a slash it did not have.
  return prefix.endsWith('/') || url.pathname !== '/' ? url.href : url.href.slice(0, -1);
}
