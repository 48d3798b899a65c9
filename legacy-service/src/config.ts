/**
 * The legacy service's environment.
 *
 * Authentication switch: `LEGACY_AUTH=on|off` (default `on`). With `on`, every `/service` call needs a
 * bearer token from the identity provider's realm (`IDP_ISSUER` / `IDP_JWKS_URL`, by default built from
 * `IDP_SCHEMA`, `IDP_HOST`, `IDP_PORT` and `IDP_REALM` as the gateway builds them). Use `off` only for a
 * backend run without an identity provider (a local bench or a closed test network): it then answers anyone.
 */
import { fileURLToPath } from 'node:url';
import type { NavLink } from './frontend-settings.js';

export type LegacyAuthConfig =
  | { enabled: false }
  | {
      enabled: true;
      /** Tokens must carry exactly this `iss`. */
      issuer: string;
      jwksUrl: URL;
      /** Leeway for `exp`/`nbf`, in seconds (OS2mo allows 5). */
      clockToleranceSeconds: number;
      /** Least time between two JWKS fetches caused by an unknown `kid`. */
      jwksCooldownMs: number;
    };

export interface LegacyConfig {
  host: string;
  port: number;
  dataDir: string;
  latencyMs: number;
  auth: LegacyAuthConfig;
  /** `LEGACY_EXPORT_DIR`: the folder `/service/exports/` serves (default: `exports` in the data folder). */
  exportDir?: string;
  /**
   * `LEGACY_KEYCLOAK_CLIENT`: the realm's client `POST /service/token` logs in with and
   * `/service/keycloak.json` names (OS2mo's `KEYCLOAK_MO_CLIENT`); default `org-frontend`.
   */
  keycloakClient: string;
  /** `LEGACY_NAVLINKS`: a JSON list of `{"href", "text"}` for `/service/navlinks` (OS2mo's `NAVLINKS`). */
  navlinks: NavLink[];
}

const defaultDataDir = fileURLToPath(new URL('../../data/legacy', import.meta.url));

function readInteger(env: NodeJS.ProcessEnv, name: string, fallback: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new Error(`${name} must be an integer between 0 and ${max}, got "${raw}".`);
  }
  return value;
}

function readText(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = env[name];
  return raw === undefined || raw === '' ? fallback : raw;
}

function readUrl(env: NodeJS.ProcessEnv, name: string, fallback: string): URL {
  const raw = readText(env, name, fallback);
  if (!URL.canParse(raw) || !/^https?:$/.test(new URL(raw).protocol)) {
    throw new Error(`${name} must be an http(s) URL, got "${raw}".`);
  }
  return new URL(raw);
}

function readAuth(env: NodeJS.ProcessEnv): LegacyAuthConfig {
  const mode = readText(env, 'LEGACY_AUTH', 'on');
  if (mode === 'off') return { enabled: false };
  if (mode !== 'on') throw new Error(`LEGACY_AUTH must be on or off, got "${mode}".`);
  const schema = readText(env, 'IDP_SCHEMA', 'http');
  if (schema !== 'http' && schema !== 'https') {
    throw new Error(`IDP_SCHEMA must be http or https, got "${schema}".`);
  }
  const host = readText(env, 'IDP_HOST', 'localhost');
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(host)) {
    throw new Error(`IDP_HOST must be a host name or IP address, got "${host}".`);
  }
  const port = readInteger(env, 'IDP_PORT', 8081, 65535);
  const realm = readText(env, 'IDP_REALM', 'org');
  if (!/^[A-Za-z0-9_-]+$/.test(realm)) throw new Error(`IDP_REALM must be a realm name, got "${realm}".`);
  const realmUrl = `${schema}://${host}:${port}/auth/realms/${realm}`;
  readUrl(env, 'IDP_ISSUER', realmUrl);
  return {
    enabled: true,
    // Validated as a URL above but kept as written: tokens must carry exactly this issuer.
    issuer: readText(env, 'IDP_ISSUER', realmUrl).replace(/\/$/, ''),
    jwksUrl: readUrl(env, 'IDP_JWKS_URL', `${realmUrl}/protocol/openid-connect/certs`),
    clockToleranceSeconds: readInteger(env, 'LEGACY_AUTH_CLOCK_TOLERANCE_SECONDS', 5, 300),
    jwksCooldownMs: readInteger(env, 'LEGACY_AUTH_JWKS_COOLDOWN_MS', 30_000, 3_600_000),
  };
}

function readNavlinks(env: NodeJS.ProcessEnv): NavLink[] {
  const raw = env.LEGACY_NAVLINKS;
  if (raw === undefined || raw.trim() === '') return [];
  const problem = 'LEGACY_NAVLINKS must be a JSON list of {"href": "http(s)://…", "text": "…"}';
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw) as unknown;
  } catch {
    throw new Error(`${problem}; it is not JSON.`);
  }
  if (!Array.isArray(parsed)) throw new Error(`${problem}.`);
  return parsed.map((item: unknown, index) => {
    const { href, text } = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    const isHttp = typeof href === 'string' && URL.canParse(href) && /^https?:$/.test(new URL(href).protocol);
    if (!isHttp || typeof text !== 'string') throw new Error(`${problem}; item ${index} is not.`);
    return { href, text };
  });
}

function readClientId(env: NodeJS.ProcessEnv): string {
  const client = readText(env, 'LEGACY_KEYCLOAK_CLIENT', 'org-frontend');
  if (!/^[A-Za-z0-9_.-]+$/.test(client)) {
    throw new Error(
      `LEGACY_KEYCLOAK_CLIENT must be a client id (letters, digits, '.', '_', '-'), got "${client}".`,
    );
  }
  return client;
}

/** Reads the legacy service's environment; a bad value stops the start with a message naming it. */
export function readLegacyConfig(env: NodeJS.ProcessEnv = process.env): LegacyConfig {
  return {
    host: env.LEGACY_HOST || '127.0.0.1',
    port: readInteger(env, 'LEGACY_PORT', 8082, 65535),
    dataDir: env.LEGACY_DATA_DIR || defaultDataDir,
    latencyMs: readInteger(env, 'LEGACY_LATENCY_MS', 0, 60_000),
    auth: readAuth(env),
    ...(env.LEGACY_EXPORT_DIR ? { exportDir: env.LEGACY_EXPORT_DIR } : {}),
    navlinks: readNavlinks(env),
    keycloakClient: readClientId(env),
  };
}
