import { parseArgs } from 'node:util';
import {
  DEV_TOOLS_CLIENT_ID,
  FRONTEND_CLIENT_ID,
  PAYROLL_CLIENT_ID,
  REALM_NAME,
} from './realm-representation.js';
import {
  DEFAULT_DEV_TOOLS_CLIENT_SECRET,
  DEFAULT_INTEGRATION_CLIENT_SECRET,
  DEFAULT_PAYROLL_CLIENT_SECRET,
} from './realm-builder.js';
import { ConfigError, urlFromEnv, type Environment } from './realm-env.js';
import type { CommandOutput } from './realm-builder-command.js';

export const DEFAULT_IDP_URL = 'http://localhost:8081';

const USAGE = `Usage:
  npm run token -- USERNAME [--password PASSWORD] [--client CLIENT_ID [--secret SECRET]] [--idp URL]
      password grant (default client ${FRONTEND_CLIENT_ID}; the development users' password is their username)
  npm run token -- --client CLIENT_ID [--secret SECRET] [--idp URL]
      client credentials grant (secret default: IDP_INTEGRATION_CLIENT_SECRET or "${DEFAULT_INTEGRATION_CLIENT_SECRET}";
      for --client ${PAYROLL_CLIENT_ID}: IDP_PAYROLL_CLIENT_SECRET or "${DEFAULT_PAYROLL_CLIENT_SECRET}";
      for --client ${DEV_TOOLS_CLIENT_ID}: IDP_DEV_TOOLS_CLIENT_SECRET or "${DEFAULT_DEV_TOOLS_CLIENT_SECRET}")

Prints the access token only. The identity provider is --idp, else IDP_URL, else IDP_PUBLIC_URL, else
http://localhost:IDP_PORT, else ${DEFAULT_IDP_URL}: the same variables "npm run idp" and "npm start" read.
--realm overrides "${REALM_NAME}".
`;

/** Where the identity provider is: `--idp`, then the variables the identity provider itself reads. */
export function identityProviderUrl(flag: string | undefined, env: Environment): string {
  if (flag !== undefined) return urlFromEnv({ '--idp': flag }, '--idp', DEFAULT_IDP_URL);
  if (env['IDP_URL']?.trim()) return urlFromEnv(env, 'IDP_URL', DEFAULT_IDP_URL);
  if (env['IDP_PUBLIC_URL']?.trim()) return urlFromEnv(env, 'IDP_PUBLIC_URL', DEFAULT_IDP_URL);
  const port = env['IDP_PORT']?.trim();
  if (port) {
    if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65_535) {
      throw new ConfigError(`IDP_PORT must be a port number from 1 to 65535, got ${JSON.stringify(port)}`);
    }
    return `http://localhost:${Number(port)}`;
  }
  return DEFAULT_IDP_URL;
}

/** A confidential client's secret from its variable, else the development realm's. */
function developmentSecret(clientId: string, env: Environment): string {
  if (clientId === PAYROLL_CLIENT_ID)
    return env['IDP_PAYROLL_CLIENT_SECRET'] ?? DEFAULT_PAYROLL_CLIENT_SECRET;
  if (clientId === DEV_TOOLS_CLIENT_ID) {
    return env['IDP_DEV_TOOLS_CLIENT_SECRET'] ?? DEFAULT_DEV_TOOLS_CLIENT_SECRET;
  }
  return env['IDP_INTEGRATION_CLIENT_SECRET'] ?? DEFAULT_INTEGRATION_CLIENT_SECRET;
}

/** `npm run token`: prints an access token and returns the process exit code. */
export async function runTokenCommand(
  argv: string[],
  env: Environment,
  output: CommandOutput,
  fetchImpl: typeof fetch = fetch,
): Promise<number> {
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      options: {
        password: { type: 'string' },
        client: { type: 'string' },
        secret: { type: 'string' },
        realm: { type: 'string' },
        idp: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: true,
    }));
  } catch (error) {
    output.stderr(`${(error as Error).message}\n\n${USAGE}`);
    return 1;
  }
  if (values.help) {
    output.stdout(USAGE);
    return 0;
  }
  const [username, ...extra] = positionals;
  if (extra.length > 0 || (username === undefined && values.client === undefined)) {
    output.stderr(USAGE);
    return 1;
  }

  let idpUrl: string;
  try {
    idpUrl = identityProviderUrl(values.idp, env);
  } catch (error) {
    output.stderr(`${(error as Error).message}\n`);
    return 1;
  }
  const realm = values.realm ?? REALM_NAME;
  const form = new URLSearchParams();
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded' };
  if (username !== undefined) {
    form.set('grant_type', 'password');
    form.set('username', username);
    form.set('password', values.password ?? username);
  } else {
    form.set('grant_type', 'client_credentials');
  }
  const clientId = values.client ?? FRONTEND_CLIENT_ID;
  const secret = values.secret ?? (username === undefined ? developmentSecret(clientId, env) : undefined);
  if (secret === undefined) {
    form.set('client_id', clientId);
  } else {
    const encode = (text: string) => encodeURIComponent(text).replace(/%20/g, '+');
    headers['Authorization'] =
      `Basic ${Buffer.from(`${encode(clientId)}:${encode(secret)}`).toString('base64')}`;
  }

  const endpoint = `${idpUrl}/auth/realms/${encodeURIComponent(realm)}/protocol/openid-connect/token`;
  let response: Response;
  try {
    response = await fetchImpl(endpoint, {
      method: 'POST',
      headers,
      body: form,
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    const { cause } = error as { cause?: { code?: string; message?: string } };
    const reason = cause?.code ?? cause?.message ?? (error as Error).message;
    output.stderr(
      `Cannot reach the identity provider at ${idpUrl} (${reason}). Start it with "npm run idp", or name it with --idp or IDP_URL.\n`,
    );
    return 1;
  }
  const body = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (!response.ok || typeof body?.['access_token'] !== 'string') {
    const description = body?.['error_description'] ?? body?.['error'];
    output.stderr(
      typeof description === 'string'
        ? `Token request failed: ${description} (${String(body?.['error'])}, HTTP ${response.status})\n`
        : `Token request failed with HTTP status ${response.status} from ${endpoint}\n`,
    );
    return 1;
  }
  output.stdout(`${body['access_token']}\n`);
  return 0;
}
