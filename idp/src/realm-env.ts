import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_DEV_TOOLS_CLIENT_SECRET,
  DEFAULT_GATEWAY_PUBLIC_URL,
  DEFAULT_INTEGRATION_CLIENT_SECRET,
  DEFAULT_PAYROLL_CLIENT_SECRET,
  type RealmBuilderOptions,
} from './realm-builder.js';
import { parseRealmUsers } from './realm-users.js';

/** The development users (alice, oscar, nora), used when `IDP_REALM_USERS` is not set. */
export const DEV_REALM_USERS_FILE = fileURLToPath(new URL('../dev-realm-users.json', import.meta.url));
/** Where `npm run realm` and `npm run idp` write the realm file by default (git-ignored). */
export const DEFAULT_REALM_FILE = fileURLToPath(new URL('../generated/realm-org.json', import.meta.url));

/** A configuration variable with a value the identity provider cannot use; the message names it. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Reads the realm builder's variables: `IDP_REALM_USERS`, `IDP_RBAC_ENABLED`, `IDP_INTEGRATION_CLIENT_SECRET`,
 * `IDP_PAYROLL_CLIENT_SECRET`, `IDP_DEV_TOOLS_CLIENT_SECRET`, `GATEWAY_PUBLIC_URL`.
 */
export function realmBuilderOptionsFromEnv(env: Environment): RealmBuilderOptions {
  const usersText = env['IDP_REALM_USERS'];
  const users =
    usersText !== undefined && usersText.trim() !== ''
      ? parseRealmUsers(usersText, 'IDP_REALM_USERS')
      : parseRealmUsers(
          readFileSync(DEV_REALM_USERS_FILE, 'utf8'),
          'IDP_REALM_USERS (idp/dev-realm-users.json)',
        );
  return {
    users,
    rbacEnabled: booleanFromEnv(env, 'IDP_RBAC_ENABLED', false),
    integrationClientSecret: secretFromEnv(
      env,
      'IDP_INTEGRATION_CLIENT_SECRET',
      DEFAULT_INTEGRATION_CLIENT_SECRET,
    ),
    payrollClientSecret: secretFromEnv(env, 'IDP_PAYROLL_CLIENT_SECRET', DEFAULT_PAYROLL_CLIENT_SECRET),
    devToolsClientSecret: secretFromEnv(env, 'IDP_DEV_TOOLS_CLIENT_SECRET', DEFAULT_DEV_TOOLS_CLIENT_SECRET),
    gatewayPublicUrl: urlFromEnv(env, 'GATEWAY_PUBLIC_URL', DEFAULT_GATEWAY_PUBLIC_URL),
  };
}

function secretFromEnv(env: Environment, name: string, fallback: string): string {
  const secret = env[name];
  if (secret !== undefined && secret.length === 0) {
    throw new ConfigError(`${name} must not be empty; leave it unset for the development secret`);
  }
  return secret ?? fallback;
}

export function booleanFromEnv(env: Environment, name: string, fallback: boolean): boolean {
  const value = env[name];
  if (value === undefined || value.trim() === '') return fallback;
  const normalised = value.trim().toLowerCase();
  if (normalised === 'true') return true;
  if (normalised === 'false') return false;
  throw new ConfigError(`${name} must be "true" or "false", got ${JSON.stringify(value)}`);
}

export function urlFromEnv(env: Environment, name: string, fallback: string): string {
  const value = env[name];
  if (value === undefined || value.trim() === '') return fallback;
  const trimmed = value.trim().replace(/\/+$/, '');
  if (!URL.canParse(trimmed) || !/^https?:\/\//.test(trimmed)) {
    throw new ConfigError(
      `${name} must be an absolute http(s) URL such as http://localhost:8080, got ${JSON.stringify(value)}`,
    );
  }
  const url = new URL(trimmed);
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigError(
      `${name} must not carry a query, fragment or credentials, got ${JSON.stringify(value)}`,
    );
  }
  return trimmed;
}
