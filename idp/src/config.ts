import { fileURLToPath } from 'node:url';
import { booleanFromEnv, ConfigError, urlFromEnv, type Environment } from './realm-env.js';

/** Default keys folder (git-ignored), so tokens keep verifying across restarts. */
export const DEFAULT_KEYS_DIR = fileURLToPath(new URL('../generated/keys', import.meta.url));
export const DEFAULT_IDP_PORT = 8081;

/** How `npm run idp` runs; the realm itself comes from `IDP_REALM_FILE` or the realm builder's variables. */
export interface IdpServerConfig {
  port: number;
  host: string;
  /** Undefined: `http://localhost:{port}`. */
  publicUrl?: string;
  realmFile?: string;
  keysDir: string;
  devEndpoints: boolean;
}

/** Reads and checks `IDP_PORT`, `IDP_LISTEN_HOST`, `IDP_PUBLIC_URL`, `IDP_REALM_FILE`, `IDP_KEYS_DIR`, `IDP_DEV_ENDPOINTS`. */
export function idpServerConfigFromEnv(env: Environment): IdpServerConfig {
  const config: IdpServerConfig = {
    port: portFromEnv(env, 'IDP_PORT', DEFAULT_IDP_PORT),
    host: nonEmpty(env, 'IDP_LISTEN_HOST') ?? '127.0.0.1',
    keysDir: nonEmpty(env, 'IDP_KEYS_DIR') ?? DEFAULT_KEYS_DIR,
    devEndpoints: booleanFromEnv(env, 'IDP_DEV_ENDPOINTS', true),
  };
  if (nonEmpty(env, 'IDP_PUBLIC_URL') !== undefined) {
    config.publicUrl = urlFromEnv(env, 'IDP_PUBLIC_URL', '');
    if (new URL(config.publicUrl).pathname !== '/') {
      throw new ConfigError(
        `IDP_PUBLIC_URL must be the server's address without a path (the realm paths start with /auth), got ${JSON.stringify(env['IDP_PUBLIC_URL'])}`,
      );
    }
  }
  const realmFile = nonEmpty(env, 'IDP_REALM_FILE');
  if (realmFile !== undefined) config.realmFile = realmFile;
  return config;
}

function portFromEnv(env: Environment, name: string, fallback: number): number {
  const value = nonEmpty(env, name);
  if (value === undefined) return fallback;
  const port = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new ConfigError(`${name} must be a port number from 0 to 65535, got ${JSON.stringify(value)}`);
  }
  return port;
}

function nonEmpty(env: Environment, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}
