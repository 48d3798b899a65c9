import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { booleanFromEnv, ConfigError, urlFromEnv, type Environment } from './realm-env.js';

/** Where each stack keeps its own data (git-ignored): one folder per identity provider port. */
export const GENERATED_DIR = fileURLToPath(new URL('../generated', import.meta.url));
export const DEFAULT_IDP_PORT = 8081;
/** A new key is published this long before it signs: more than the gateway's JWKS cooldown (30 s). */
export const DEFAULT_KEY_ACTIVATION_DELAY_SECONDS = 60;

/**
 * The default keys folder: the stack's own, named after its port, so two stacks on one host (different
 * `IDP_PORT`s) never share keys, and a restart on the same port finds its keys again. With `IDP_PORT=0`
 * (any free port) there is no stable place, so keys live in memory.
 */
export function defaultKeysDir(port: number): string | undefined {
  return port === 0 ? undefined : join(GENERATED_DIR, `idp-${port}`, 'keys');
}

/** How `npm run idp` runs; the realm itself comes from `IDP_REALM_FILE` or the realm builder's variables. */
export interface IdpServerConfig {
  port: number;
  host: string;
  /** Undefined: `http://localhost:{port}`. */
  publicUrl?: string;
  realmFile?: string;
  /** Undefined: keys in memory. */
  keysDir?: string;
  keyActivationDelaySeconds: number;
  devEndpoints: boolean;
}

/**
 * Reads and checks `IDP_PORT`, `IDP_LISTEN_HOST`, `IDP_PUBLIC_URL`, `IDP_REALM_FILE`, `IDP_KEYS_DIR`,
 * `IDP_KEY_ACTIVATION_DELAY_SECONDS` and `IDP_DEV_ENDPOINTS` (off unless set to `true`).
 */
export function idpServerConfigFromEnv(env: Environment): IdpServerConfig {
  const port = portFromEnv(env, 'IDP_PORT', DEFAULT_IDP_PORT);
  const config: IdpServerConfig = {
    port,
    host: nonEmpty(env, 'IDP_LISTEN_HOST') ?? '127.0.0.1',
    keyActivationDelaySeconds: secondsFromEnv(
      env,
      'IDP_KEY_ACTIVATION_DELAY_SECONDS',
      DEFAULT_KEY_ACTIVATION_DELAY_SECONDS,
    ),
    devEndpoints: booleanFromEnv(env, 'IDP_DEV_ENDPOINTS', false),
  };
  const keysDir = nonEmpty(env, 'IDP_KEYS_DIR') ?? defaultKeysDir(port);
  if (keysDir !== undefined) config.keysDir = keysDir;
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

function secondsFromEnv(env: Environment, name: string, fallback: number): number {
  const value = nonEmpty(env, name);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) > 86_400) {
    throw new ConfigError(
      `${name} must be a whole number of seconds from 0 to 86400, got ${JSON.stringify(value)}`,
    );
  }
  return Number(value);
}

function nonEmpty(env: Environment, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}
