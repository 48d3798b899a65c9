/** The gateway's configuration, read once from the environment and validated; a bad value names its variable. */

import { readFileSync } from 'node:fs';
import { contractOperations } from './contract/contract-operations.generated.js';
import type { CprReadPolicy } from './cpr/cpr-policy.js';
import { defaultMaxCprNumbers } from './cpr/cpr-search.js';
import {
  DeprecationFileError,
  noDeprecationFile,
  parseDeprecationFile,
  type DeprecationSettings,
} from './deprecation/deprecation-config.js';
import type { LegacyProbeConfig } from './health/legacy-probe.js';
import type { LegacyAuth } from './legacy/backend-credentials.js';
import { readUsageConfig, type UsageConfig } from './usage/usage-config.js';
import { readRateLimitConfig, type RateLimitConfig } from './rate-limits/rate-limit-config.js';
import { ConfigError } from './config-error.js';
import { logLevels, type LogLevel } from './observability/log-levels.js';
import type { TokenClaimRules } from './auth/token-verifier.js';

export { ConfigError };

export interface GatewayConfig {
  host: string;
  port: number;
  publicUrl: string;
  legacy: {
    url: URL;
    connectTimeoutMs: number;
    /** Time for the legacy service to send response headers, and then the whole body. */
    responseTimeoutMs: number;
    /** Keep-alive connections to the legacy service: how many legacy calls can be in flight at once. */
    connections: number;
    /** How the gateway authenticates to the legacy service (`LEGACY_CREDENTIALS`). */
    auth: LegacyAuth;
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
    /** Age after which cached JWKS keys are refreshed in the background (withdrawn keys stop verifying). */
    jwksMaxAgeMs: number;
    /** What `/idp.json` tells browsers. */
    authServerUrl: string;
    sslRequired: string;
    clientId: string;
    /** What an access token must say about who it is for (see `TokenClaimRules`). */
    tokenClaims: TokenClaimRules;
  };
  maxBodyBytes: number;
  /** Longest time a client may take to send a request body (`/service`); then 408. */
  bodyTimeoutMs: number;
  removedVersions: string[];
  migrationGuideUrl: string;
  introspection: boolean;
  /** Whether validation errors may say "Did you mean …?"; by default the same as `introspection`. */
  fieldSuggestions: boolean;
  /** Limits every GraphQL document must stay within; checked before anything executes. */
  graphqlLimits: GraphQLLimits;
  /**
   * The one cache of parsed documents all versions share (`GRAPHQL_DOCUMENT_CACHE_ENTRIES`, `…_BYTES`): their
   * validation results and compiled code live only as long as their parsed document does.
   */
  documentCache: { maxEntries: number; maxBytes: number };
  /** Whether `X-Upstream-Trace: 1` may add the legacy calls to a GraphQL response. */
  upstreamTrace: boolean;
  corsOrigins: string[];
  /** `GATEWAY_REFERENCE_UNITS`: the units the browser tools open with; empty means "found at the backend". */
  referenceUnits: string[];
  logLevel: LogLevel;
  operations: OperationsConfig;
  /** Shadow comparison of sampled `/service` reads with the equivalent GraphQL query; off at rate 0. */
  shadow: ShadowConfig;
  /** Deprecated endpoints and versions, their brownouts, and retired endpoints (`DEPRECATION_CONFIG`). */
  deprecation: DeprecationSettings;
  /** OpenTelemetry traces: exported over OTLP/HTTP when `OTEL_EXPORTER_OTLP_ENDPOINT` is set, else none made. */
  tracing: TracingConfig;
  /** Who calls what (`USAGE_*`): the clients named in usage and where the retirement report reads it. */
  usage: UsageConfig;
  /** Who is served CPR numbers (`CPR_READ_ROLES`, `CPR_READ_CLIENTS`); both unset: everyone, as OS2mo. */
  cprReads: CprReadPolicy;
  /**
   * The gateway's own state in Postgres (`DATABASE_URL`, `DATABASE_POOL_SIZE`): OS2mo's event system. Unset:
   * no database, and the event API answers that it is not configured; nothing else changes.
   */
  database: DatabaseConfig | undefined;
  /** OS2mo's event system (`EVENT_RETRY_MIN_SECONDS`). */
  events: { retryMinSeconds: number };
  /** Per-client rate limits (`RATE_LIMIT_*`); undefined when none is set. */
  rateLimits: RateLimitConfig | undefined;
  /** The sweep that keeps the record of the backend current (`BACKEND_SWEEP_*`); it runs only with a database. */
  backendSweep: BackendSweepConfig;
}

export interface BackendSweepConfig {
  /** `BACKEND_SWEEP_ENABLED` (default true): whether this replica competes to run the sweep. */
  enabled: boolean;
  /** `BACKEND_SWEEP_CALLS_PER_MINUTE`: the most legacy calls the sweep makes a minute. */
  callsPerMinute: number;
  /** `BACKEND_SWEEP_INTERVAL_SECONDS`: the pause between two rounds. */
  intervalMs: number;
  /**
   * The credential the sweep reads the backend with: the gateway's own (`LEGACY_CREDENTIALS`) unless that relays
   * callers' tokens, then `BACKEND_SWEEP_CLIENT_ID`/`_SECRET`. Undefined: none to read with, so no sweep.
   */
  auth: 'gateway' | LegacyAuth | undefined;
}

export interface DatabaseConfig {
  /** `postgres://user:password@host:port/database`; never logged or echoed (it may hold a password). */
  url: string;
  /** Connections each replica keeps at most; 1 for the embedded database of `npm start` (one backend). */
  poolSize: number;
}

export interface TracingConfig {
  /** The OTLP/HTTP base URL; spans go to `{endpoint}/v1/traces`. Unset: no tracing at all. */
  endpoint: URL | undefined;
  /** `service.name` of the spans (`OTEL_SERVICE_NAME`). */
  serviceName: string;
}

/** The clients the realm builder writes: the browser client, the two integration clients, the development tools'. */
const realmClients = ['org-frontend', 'integration', 'payroll', 'dev-tools'];

function tokenClaimRules(env: Env): TokenClaimRules {
  const clients = list(env, 'IDP_ALLOWED_CLIENTS', realmClients);
  if (clients.includes('*') && clients.length > 1) {
    throw new ConfigError('IDP_ALLOWED_CLIENTS', 'must be "*" alone or a list of client ids');
  }
  return {
    audiences: list(env, 'IDP_AUDIENCE', []),
    allowedClients: clients.includes('*') ? 'any' : clients,
    maxLifetimeSeconds: integer(env, 'IDP_MAX_TOKEN_LIFETIME_SECONDS', 86_400, 60, 31_536_000),
  };
}

export interface ShadowConfig {
  /** Share of supported reads compared, 0 (off) to 1 (every one). */
  sampleRate: number;
  /** Mismatches (and errors) kept for the workbench, newest first. */
  keep: number;
  /** Compared reads that may wait for a free slot; one more is dropped and counted. */
  queueSize: number;
  /** Comparisons running at once. */
  concurrency: number;
  /** Bodies larger than this are not compared (nothing larger is ever held in memory). */
  maxBodyBytes: number;
  /** Longest time one comparison's GraphQL query may take. */
  timeoutMs: number;
}

/** Metrics, readiness and shutdown. */
export interface OperationsConfig {
  /** The bearer token `/metrics` requires; unset, `/metrics` answers 404. */
  metricsToken: string | undefined;
  /** Longest wait for each readiness check (the legacy probe, the JWKS). */
  readinessTimeoutMs: number;
  /** What readiness asks the legacy backend (`LEGACY_READINESS_METHOD`, `_PATH`, `_STATUSES`). */
  legacyProbe: LegacyProbeConfig;
  /** After SIGTERM, how long in-flight requests may take before their connections are cut. */
  shutdownGraceMs: number;
}

export interface GraphQLLimits {
  /** Deepest selection nesting (the reference query has 7 levels). */
  maxDepth: number;
  /** Most aliases in one operation. */
  maxAliases: number;
  /** Most lexical tokens in one document (the reference query has 42). */
  maxTokens: number;
  /** Highest static cost, as GraphQL Armor weighs it (the reference query costs about 72). */
  maxCost: number;
  /** Most directives in one operation. */
  maxDirectives: number;
  /** Most legacy calls one GraphQL request may make while it executes (the reference query makes 6). */
  maxLegacyCalls: number;
  /** Largest variables of one request, about the length of their JSON text. */
  maxVariablesBytes: number;
  /** Deepest nesting of objects and lists in one request's variables. */
  maxVariablesDepth: number;
  /** Most items in any one list of a request's variables. */
  maxVariablesListLength: number;
  /**
   * Most objects one answer may hold, counted while it is built (each object a resolver gives, each item of a
   * list it gives): a request's share of the gateway's memory.
   */
  maxAnswerObjects: number;
}

type Env = Record<string, string | undefined>;

function logLevel(env: Env): LogLevel {
  const value = text(env, 'LOG_LEVEL', 'info');
  if (!(logLevels as readonly string[]).includes(value)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${logLevels.join(', ')}, got "${value}"`);
  }
  return value as LogLevel;
}

/** A host name or IP address to listen on or connect to. */
function host(env: Env, name: string, fallback: string): string {
  const value = text(env, name, fallback);
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(value)) {
    throw new ConfigError(name, `must be a host name or IP address, got "${value}"`);
  }
  return value;
}

/** Browser origins (`https://app.example.org`, no path), or `*`. */
function origins(env: Env, fallback: string[]): string[] {
  const values = list(env, 'CORS_ORIGINS', fallback);
  for (const value of values) {
    if (value !== '*' && (!URL.canParse(value) || new URL(value).origin !== value)) {
      throw new ConfigError(
        'CORS_ORIGINS',
        `must be origins such as https://app.example.org, got "${value}"`,
      );
    }
  }
  return values;
}

/** Versions such as `v0`. */
function versionNames(env: Env, name: string): string[] {
  const values = list(env, name, []);
  const bad = values.find((value) => !/^v\d+$/.test(value));
  if (bad !== undefined) throw new ConfigError(name, `must list versions such as v0,v1, got "${bad}"`);
  return values;
}

/** A shared secret: long enough not to be guessed, no spaces (it travels in a header). */
function optionalSecret(env: Env, name: string): string | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  if (value.length < 16 || !/^[\x21-\x7e]+$/.test(value)) {
    throw new ConfigError(name, 'must be at least 16 printable characters without spaces');
  }
  return value;
}

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

/** A number from 0 to 1, such as a sample rate. */
function fraction(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\s*[0-9.]+\s*$/.test(raw) || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new ConfigError(name, `must be a number from 0 to 1 such as 0.05, got "${raw}"`);
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

/**
 * An optional list of role or client names: unset means no restriction, so a variable that is set must name
 * at least one, each a plain name (a typo such as an empty list or `admin;owner` must not quietly mean
 * "no one" or "everyone").
 */
function optionalNames(env: Env, name: string): string[] | undefined {
  const raw = env[name];
  if (raw === undefined) return undefined;
  const names = raw.split(',').map((item) => item.trim());
  const bad = names.find((item) => !/^[A-Za-z0-9][\w.:@-]*$/.test(item));
  if (bad !== undefined) {
    throw new ConfigError(
      name,
      `must be a comma-separated list of names such as admin,cpr-reader, got "${raw}"`,
    );
  }
  return names;
}

function referenceUnits(env: Env): string[] {
  const units = list(env, 'GATEWAY_REFERENCE_UNITS', []).map((item) => item.toLowerCase());
  const bad = units.find(
    (item) => !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(item),
  );
  if (bad !== undefined) throw new ConfigError('GATEWAY_REFERENCE_UNITS', `must be unit UUIDs, got "${bad}"`);
  return units;
}

/** Keycloak's `ssl-required` values. */
function sslRequired(env: Env): string {
  const value = text(env, 'IDP_SSL_REQUIRED', 'external');
  if (!['all', 'external', 'none'].includes(value)) {
    throw new ConfigError('IDP_SSL_REQUIRED', `must be all, external or none, got "${value}"`);
  }
  return value;
}

/** `LEGACY_READINESS_*`: by default a call OS2mo 2.4.0 and the stand-in both answer without a token. */
function legacyProbeConfig(env: Env): LegacyProbeConfig {
  const method = text(env, 'LEGACY_READINESS_METHOD', 'GET');
  if (method !== 'GET' && method !== 'HEAD') {
    throw new ConfigError('LEGACY_READINESS_METHOD', `must be GET or HEAD, got "${method}"`);
  }
  const path = text(env, 'LEGACY_READINESS_PATH', '/service/o/');
  if (!/^\/[\x21-\x7e]*$/.test(path) || path.startsWith('//')) {
    throw new ConfigError('LEGACY_READINESS_PATH', `must be a path such as /service/o/, got "${path}"`);
  }
  const statuses = list(env, 'LEGACY_READINESS_STATUSES', ['200', '401']);
  const bad = statuses.find((status) => !/^[1-5]\d\d$/.test(status));
  if (bad !== undefined) {
    throw new ConfigError(
      'LEGACY_READINESS_STATUSES',
      `must list HTTP statuses such as 200,401, got "${bad}"`,
    );
  }
  return { method, path, upStatuses: statuses.map(Number) };
}

const legacyAuthModes = ['relay', 'client-credentials', 'none'] as const;

/** `LEGACY_CREDENTIALS` and, for `client-credentials`, the gateway's own client at the identity provider. */
function legacyAuth(env: Env, issuer: string): LegacyAuth {
  const mode = text(env, 'LEGACY_CREDENTIALS', 'relay');
  if (!(legacyAuthModes as readonly string[]).includes(mode)) {
    throw new ConfigError(
      'LEGACY_CREDENTIALS',
      `must be one of ${legacyAuthModes.join(', ')}, got "${mode}"`,
    );
  }
  if (mode !== 'client-credentials') return { mode: mode as 'relay' | 'none' };
  const clientId = env.LEGACY_CLIENT_ID ?? '';
  if (!/^[\x21-\x7e]+$/.test(clientId)) {
    throw new ConfigError(
      'LEGACY_CLIENT_ID',
      "must name the gateway's client when LEGACY_CREDENTIALS=client-credentials",
    );
  }
  const clientSecret = env.LEGACY_CLIENT_SECRET ?? '';
  if (clientSecret === '') {
    // Never echo the value: it is a secret.
    throw new ConfigError('LEGACY_CLIENT_SECRET', 'must be set when LEGACY_CREDENTIALS=client-credentials');
  }
  return {
    mode: 'client-credentials',
    tokenUrl: url(env, 'LEGACY_TOKEN_URL', `${issuer}/protocol/openid-connect/token`),
    clientId,
    clientSecret,
  };
}

/** `DEPRECATION_CONFIG`: a YAML or JSON file, checked whole (its endpoints against the contract) at start. */
function deprecationSettings(env: Env): DeprecationSettings {
  const file = env.DEPRECATION_CONFIG;
  if (file === undefined || file === '') return noDeprecationFile;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new ConfigError('DEPRECATION_CONFIG', `cannot read the file "${file}"`);
  }
  try {
    return parseDeprecationFile(text, contractOperations);
  } catch (error) {
    if (error instanceof DeprecationFileError) {
      throw new ConfigError('DEPRECATION_CONFIG', `${file}: ${error.message}`);
    }
    throw error;
  }
}

/** `DATABASE_URL`: a Postgres URL, checked for its form only (the database is asked on first use). */
function databaseConfig(env: Env): DatabaseConfig | undefined {
  const raw = env.DATABASE_URL;
  if (raw === undefined || raw === '') return undefined;
  // Never echo the value: it may hold a password.
  if (!URL.canParse(raw) || !['postgres:', 'postgresql:'].includes(new URL(raw).protocol)) {
    throw new ConfigError(
      'DATABASE_URL',
      'must be a Postgres URL such as postgres://gateway:secret@db.example.org:5432/gateway',
    );
  }
  if (new URL(raw).hostname === '') {
    throw new ConfigError(
      'DATABASE_URL',
      'must name the database server, such as postgres://db.example.org/gateway',
    );
  }
  return { url: raw, poolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 1_000) };
}

function tracingConfig(env: Env): TracingConfig {
  const raw = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return {
    endpoint: raw === undefined || raw === '' ? undefined : url(env, 'OTEL_EXPORTER_OTLP_ENDPOINT', raw),
    serviceName: text(env, 'OTEL_SERVICE_NAME', 'org-gateway'),
  };
}

export function readGatewayConfig(env: Env = process.env): GatewayConfig {
  const port = integer(env, 'GATEWAY_PORT', 8080, 0, 65535);
  const publicUrl = url(env, 'GATEWAY_PUBLIC_URL', `http://localhost:${port}`).toString().replace(/\/$/, '');

  const schema = text(env, 'IDP_SCHEMA', 'http');
  if (schema !== 'http' && schema !== 'https')
    throw new ConfigError('IDP_SCHEMA', `must be http or https, got "${schema}"`);
  const idpHost = host(env, 'IDP_HOST', 'localhost');
  const idpPort = integer(env, 'IDP_PORT', 8081, 1, 65535);
  const realm = text(env, 'IDP_REALM', 'org');
  if (!/^[A-Za-z0-9._-]+$/.test(realm))
    throw new ConfigError('IDP_REALM', `must be a realm name, got "${realm}"`);
  const signingAlg = text(env, 'IDP_SIGNING_ALG', 'RS256');
  if (signingAlg !== 'RS256') {
    throw new ConfigError('IDP_SIGNING_ALG', `only RS256 is supported, got "${signingAlg}"`);
  }
  const idpBase = `${schema}://${idpHost}:${idpPort}`;
  // Validated as a URL, kept as written: tokens must carry exactly this issuer.
  url(env, 'IDP_ISSUER', `${idpBase}/auth/realms/${realm}`);
  const issuer = text(env, 'IDP_ISSUER', `${idpBase}/auth/realms/${realm}`).replace(/\/$/, '');
  const jwksUrl = url(env, 'IDP_JWKS_URL', `${idpBase}/auth/realms/${realm}/protocol/openid-connect/certs`);

  const legacyUrl = url(env, 'LEGACY_URL', 'http://127.0.0.1:8082');

  return {
    host: host(env, 'GATEWAY_HOST', '127.0.0.1'),
    port,
    publicUrl,
    legacy: {
      url: legacyUrl,
      connectTimeoutMs: integer(env, 'LEGACY_CONNECT_TIMEOUT_MS', 2_000, 1, 600_000),
      responseTimeoutMs: integer(env, 'LEGACY_TIMEOUT_MS', 10_000, 1, 600_000),
      connections: integer(env, 'LEGACY_CONNECTIONS', 128, 1, 4_096),
      auth: legacyAuth(env, issuer),
    },
    idp: {
      realm,
      issuer,
      jwksUrl,
      signingAlg,
      rbacEnabled: flag(env, 'IDP_RBAC_ENABLED', false),
      clockToleranceSeconds: integer(env, 'IDP_CLOCK_TOLERANCE_SECONDS', 30, 0, 300),
      jwksCooldownMs: integer(env, 'IDP_JWKS_COOLDOWN_MS', 30_000, 0, 3_600_000),
      jwksMaxAgeMs: integer(env, 'IDP_JWKS_MAX_AGE_MS', 600_000, 1_000, 86_400_000),
      authServerUrl: url(env, 'IDP_AUTH_SERVER_URL', `${idpBase}/auth/`).toString(),
      sslRequired: sslRequired(env),
      clientId: 'org-frontend',
      tokenClaims: tokenClaimRules(env),
    },
    maxBodyBytes: integer(env, 'GATEWAY_MAX_BODY_BYTES', 1024 * 1024, 1024, 100 * 1024 * 1024),
    bodyTimeoutMs: integer(env, 'GATEWAY_BODY_TIMEOUT_MS', 10_000, 1, 600_000),
    removedVersions: versionNames(env, 'GRAPHQL_REMOVED_VERSIONS'),
    migrationGuideUrl: url(env, 'MIGRATION_GUIDE_URL', `${publicUrl}/docs/migration`).href,
    introspection: flag(env, 'GRAPHQL_INTROSPECTION', true),
    // Suggestions reveal field names bit by bit: hidden exactly when introspection is, unless told otherwise.
    fieldSuggestions: flag(env, 'GRAPHQL_FIELD_SUGGESTIONS', flag(env, 'GRAPHQL_INTROSPECTION', true)),
    documentCache: {
      maxEntries: integer(env, 'GRAPHQL_DOCUMENT_CACHE_ENTRIES', 2_000, 1, 1_000_000),
      maxBytes: integer(env, 'GRAPHQL_DOCUMENT_CACHE_BYTES', 8 * 1024 * 1024, 1_024, 1024 * 1024 * 1024),
    },
    graphqlLimits: {
      maxDepth: integer(env, 'GRAPHQL_MAX_DEPTH', 20, 1, 1_000),
      maxAliases: integer(env, 'GRAPHQL_MAX_ALIASES', 30, 0, 100_000),
      maxTokens: integer(env, 'GRAPHQL_MAX_TOKENS', 2_000, 100, 1_000_000),
      maxCost: integer(env, 'GRAPHQL_MAX_COST', 20_000, 1, 100_000_000),
      maxDirectives: integer(env, 'GRAPHQL_MAX_DIRECTIVES', 20, 0, 100_000),
      maxLegacyCalls: integer(env, 'GRAPHQL_MAX_LEGACY_CALLS', 1_000, 1, 1_000_000),
      maxVariablesBytes: integer(env, 'GRAPHQL_MAX_VARIABLES_BYTES', 256 * 1024, 1_024, 100 * 1024 * 1024),
      maxVariablesDepth: integer(env, 'GRAPHQL_MAX_VARIABLES_DEPTH', 32, 2, 1_000),
      maxVariablesListLength: integer(env, 'GRAPHQL_MAX_VARIABLES_LIST_LENGTH', 1_000, 1, 1_000_000),
      maxAnswerObjects: integer(env, 'GRAPHQL_MAX_ANSWER_OBJECTS', 20_000, 1, 100_000_000),
    },
    upstreamTrace: flag(env, 'GRAPHQL_UPSTREAM_TRACE', true),
    corsOrigins: origins(env, [publicUrl]),
    referenceUnits: referenceUnits(env),
    logLevel: logLevel(env),
    operations: {
      metricsToken: optionalSecret(env, 'METRICS_TOKEN'),
      readinessTimeoutMs: integer(env, 'READINESS_TIMEOUT_MS', 2_000, 100, 60_000),
      legacyProbe: legacyProbeConfig(env),
      shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    },
    shadow: {
      sampleRate: fraction(env, 'SHADOW_SAMPLE_RATE', 0),
      keep: integer(env, 'SHADOW_KEEP', 50, 0, 10_000),
      queueSize: integer(env, 'SHADOW_QUEUE_SIZE', 100, 0, 100_000),
      concurrency: integer(env, 'SHADOW_CONCURRENCY', 2, 1, 64),
      maxBodyBytes: integer(env, 'SHADOW_MAX_BODY_BYTES', 1024 * 1024, 1024, 100 * 1024 * 1024),
      timeoutMs: integer(env, 'SHADOW_TIMEOUT_MS', 10_000, 1, 600_000),
    },
    deprecation: deprecationSettings(env),
    tracing: tracingConfig(env),
    usage: readUsageConfig(env, tokenClaimRules(env).allowedClients),
    cprReads: {
      roles: optionalNames(env, 'CPR_READ_ROLES'),
      clients: optionalNames(env, 'CPR_READ_CLIENTS'),
      maxNumbersPerRequest: integer(env, 'CPR_MAX_NUMBERS_PER_REQUEST', defaultMaxCprNumbers, 1, 100_000),
    },
    database: databaseConfig(env),
    // OS2mo's least wait before an unacknowledged event comes again: 3 minutes (`event_resolver`).
    events: { retryMinSeconds: integer(env, 'EVENT_RETRY_MIN_SECONDS', 180, 0, 86_400) },
    rateLimits: readRateLimitConfig(env),
    backendSweep: backendSweepConfig(env, issuer),
  };
}

/**
 * `BACKEND_SWEEP_*`. The sweep has no caller whose token it could relay: with `LEGACY_CREDENTIALS=relay` it
 * reads with a client of its own (`BACKEND_SWEEP_CLIENT_ID`, `BACKEND_SWEEP_CLIENT_SECRET`), or not at all.
 */
function backendSweepConfig(env: Env, issuer: string): BackendSweepConfig {
  const gateway = legacyAuth(env, issuer);
  const clientId = env.BACKEND_SWEEP_CLIENT_ID ?? '';
  const clientSecret = env.BACKEND_SWEEP_CLIENT_SECRET ?? '';
  if (clientId !== '' && clientSecret === '') {
    // Never echo the value: it is a secret.
    throw new ConfigError('BACKEND_SWEEP_CLIENT_SECRET', 'must be set with BACKEND_SWEEP_CLIENT_ID');
  }
  const own: LegacyAuth | undefined =
    clientId === ''
      ? undefined
      : {
          mode: 'client-credentials',
          tokenUrl: url(env, 'LEGACY_TOKEN_URL', `${issuer}/protocol/openid-connect/token`),
          clientId,
          clientSecret,
        };
  return {
    enabled: flag(env, 'BACKEND_SWEEP_ENABLED', true),
    callsPerMinute: integer(env, 'BACKEND_SWEEP_CALLS_PER_MINUTE', 600, 1, 1_000_000),
    intervalMs: integer(env, 'BACKEND_SWEEP_INTERVAL_SECONDS', 30, 1, 86_400) * 1000,
    auth: own ?? (gateway.mode === 'relay' ? undefined : 'gateway'),
  };
}
