import { ComparisonError } from '../comparison-error.js';
import { idpUrlFromEnv, StackAddressError } from './stack-addresses.js';

/** The development realm's names: the browser client for the password grant. */
const defaults = { realm: 'org', passwordClient: 'org-frontend' };

/**
 * The development realm's confidential clients, each with the variable its secret is set by and its development
 * secret (as `idp/src/realm-builder.ts` writes them); another client falls back to the integration's.
 */
const clientSecrets: Record<string, { variable: string; development: string }> = {
  integration: { variable: 'IDP_INTEGRATION_CLIENT_SECRET', development: 'integration-dev-secret' },
  payroll: { variable: 'IDP_PAYROLL_CLIENT_SECRET', development: 'payroll-dev-secret' },
  'dev-tools': { variable: 'IDP_DEV_TOOLS_CLIENT_SECRET', development: 'dev-tools-dev-secret' },
};

function developmentSecret(clientId: string, env: Record<string, string | undefined>): string {
  const { variable, development } = clientSecrets[clientId] ?? clientSecrets['integration']!;
  return env[variable] ?? development;
}

export interface TokenGrantOptions {
  user?: string;
  password?: string;
  client?: string;
  secret?: string;
  realm?: string;
}

/** `application/x-www-form-urlencoded` as OAuth 2.0 client authentication wants it (RFC 6749 §2.3.1). */
const formEncode = (text: string) => encodeURIComponent(text).replace(/%20/g, '+');

/**
 * An access token from the identity provider's OpenID Connect token endpoint, over HTTP like any client:
 * the password grant for `user` (the development users' password is their name), otherwise the client
 * credentials grant for `client`. A failure is a `ComparisonError` whose sentence says what to fix.
 *
 * @example
 * const token = await tokenFromIdp({ user: 'alice' }, process.env, fetch);
 */
export async function tokenFromIdp(
  options: TokenGrantOptions,
  env: Record<string, string | undefined>,
  fetchImpl: typeof fetch,
): Promise<string> {
  let idpUrl: string;
  try {
    idpUrl = idpUrlFromEnv(env);
  } catch (error) {
    if (!(error instanceof StackAddressError)) throw error;
    throw new ComparisonError('failed', error.message);
  }
  const form = new URLSearchParams();
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  const clientId = options.client ?? defaults.passwordClient;
  if (options.user !== undefined) {
    form.set('grant_type', 'password');
    form.set('username', options.user);
    form.set('password', options.password ?? options.user);
  } else {
    form.set('grant_type', 'client_credentials');
  }
  const secret =
    options.secret ?? (options.user === undefined ? developmentSecret(clientId, env) : undefined);
  if (secret === undefined) form.set('client_id', clientId);
  else {
    const basic = Buffer.from(`${formEncode(clientId)}:${formEncode(secret)}`).toString('base64');
    headers['authorization'] = `Basic ${basic}`;
  }

  const realm = encodeURIComponent(options.realm ?? defaults.realm);
  const endpoint = `${idpUrl}/auth/realms/${realm}/protocol/openid-connect/token`;
  let response: Response;
  try {
    response = await fetchImpl(endpoint, {
      method: 'POST',
      headers,
      body: form,
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw new ComparisonError(
      'failed',
      `no token: the identity provider at ${idpUrl} cannot be reached. Start it with "npm run idp", or set IDP_URL or IDP_PORT.`,
    );
  }
  const body = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  const token = body?.['access_token'];
  if (response.ok && typeof token === 'string') return token;
  const description = body?.['error_description'] ?? body?.['error'];
  throw new ComparisonError(
    'failed',
    typeof description === 'string'
      ? `no token: ${description} (HTTP ${response.status}).`
      : `no token: the identity provider answered HTTP ${response.status}.`,
  );
}
