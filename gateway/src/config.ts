/** The gateway's configuration, read once from the environment and validated; a bad value names its variable. */

export interface GatewayConfig {
  host: string;
  port: number;
  publicUrl: string;
  legacy: {
    url: URL;
    connectTimeoutMs: number;
    /** Time for the legacy service to send response headers, and then the whole body. */
    responseTimeoutMs: number;
  };
  idp: {
    realm: string;
    issuer: string;
    jwksUrl: URL;
    signingAlg: 'RS256';
    rbacEnabled: boolean;
    clockToleranceSeconds: number;
    /** Least time between two JWKS fetches caused by unknown `kid`s. */
    jwksCooldownMs: number;
    /** What `/idp.json` tells browsers. */
    authServerUrl: string;
    sslRequired: string;
    clientId: string;
  };
  maxBodyBytes: number;
  removedVersions: string[];
  migrationGuideUrl: string;
  introspection: boolean;
  /** Whether `X-Upstream-Trace: 1` may add the legacy calls to a GraphQL response. */
  upstreamTrace: boolean;
  corsOrigins: string[];
  logLevel: string;
}

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function text(env: Env, name: string, fallback: string): string {
  const value = env[name];
  return value === undefined || value === '' ? fallback : value;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new ConfigError(name, `must be "true" or "false", got "${raw}"`);
}

function url(env: Env, name: string, fallback: string): URL {
  const raw = text(env, name, fallback);
  try {
    const parsed = new URL(raw);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http(s)');
    return parsed;
  } catch {
    throw new ConfigError(name, `must be an http(s) URL, got "${raw}"`);
  }
}

function list(env: Env, name: string, fallback: string[]): string[] {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/** Keycloak's `ssl-required` values. */
function sslRequired(env: Env): string {
  const value = text(env, 'IDP_SSL_REQUIRED', 'external');
  if (!['all', 'external', 'none'].includes(value)) {
    throw new ConfigError('IDP_SSL_REQUIRED', `must be all, external or none, got "${value}"`);
  }
  return value;
}

export function readGatewayConfig(env: Env = process.env): GatewayConfig {
  const port = integer(env, 'GATEWAY_PORT', 8080, 0, 65535);
  const publicUrl = url(env, 'GATEWAY_PUBLIC_URL', `http://localhost:${port}`).toString().replace(/\/$/, '');

  const schema = text(env, 'IDP_SCHEMA', 'http');
  if (schema !== 'http' && schema !== 'https')
    throw new ConfigError('IDP_SCHEMA', `must be http or https, got "${schema}"`);
  const idpHost = text(env, 'IDP_HOST', 'localhost');
  const idpPort = integer(env, 'IDP_PORT', 8081, 1, 65535);
  const realm = text(env, 'IDP_REALM', 'org');
  if (!/^[A-Za-z0-9._-]+$/.test(realm))
    throw new ConfigError('IDP_REALM', `must be a realm name, got "${realm}"`);
  const signingAlg = text(env, 'IDP_SIGNING_ALG', 'RS256');
  if (signingAlg !== 'RS256') {
    throw new ConfigError('IDP_SIGNING_ALG', `only RS256 is supported, got "${signingAlg}"`);
  }
  const idpBase = `${schema}://${idpHost}:${idpPort}`;
  const issuer = text(env, 'IDP_ISSUER', `${idpBase}/auth/realms/${realm}`).replace(/\/$/, '');
  const jwksUrl = url(env, 'IDP_JWKS_URL', `${idpBase}/auth/realms/${realm}/protocol/openid-connect/certs`);

  const legacyUrl = url(env, 'LEGACY_URL', 'http://127.0.0.1:8082');

  return {
    host: text(env, 'GATEWAY_HOST', '127.0.0.1'),
    port,
    publicUrl,
    legacy: {
      url: legacyUrl,
      connectTimeoutMs: integer(env, 'LEGACY_CONNECT_TIMEOUT_MS', 2_000, 1, 600_000),
      responseTimeoutMs: integer(env, 'LEGACY_TIMEOUT_MS', 10_000, 1, 600_000),
    },
    idp: {
      realm,
      issuer,
      jwksUrl,
      signingAlg,
      rbacEnabled: flag(env, 'IDP_RBAC_ENABLED', false),
      clockToleranceSeconds: integer(env, 'IDP_CLOCK_TOLERANCE_SECONDS', 30, 0, 300),
      jwksCooldownMs: integer(env, 'IDP_JWKS_COOLDOWN_MS', 30_000, 0, 3_600_000),
      authServerUrl: url(env, 'IDP_AUTH_SERVER_URL', `${idpBase}/auth/`).toString(),
      sslRequired: sslRequired(env),
      clientId: 'org-frontend',
    },
    maxBodyBytes: integer(env, 'GATEWAY_MAX_BODY_BYTES', 1024 * 1024, 1024, 100 * 1024 * 1024),
    removedVersions: list(env, 'GRAPHQL_REMOVED_VERSIONS', []),
    migrationGuideUrl: text(env, 'MIGRATION_GUIDE_URL', `${publicUrl}/docs/migration`),
    introspection: flag(env, 'GRAPHQL_INTROSPECTION', true),
    upstreamTrace: flag(env, 'GRAPHQL_UPSTREAM_TRACE', true),
    corsOrigins: list(env, 'CORS_ORIGINS', [publicUrl]),
    logLevel: text(env, 'LOG_LEVEL', 'info'),
  };
}
