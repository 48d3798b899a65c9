import { describe, expect, it } from 'vitest';
import { ConfigError, readGatewayConfig } from './config.js';

describe('readGatewayConfig: operations', () => {
  it('defaults: no metrics token (so no /metrics), 2 s readiness checks, 10 s shutdown grace, info logs', () => {
    const config = readGatewayConfig({});
    expect(config.operations).toEqual({
      metricsToken: undefined,
      readinessTimeoutMs: 2_000,
      legacyProbe: { method: 'GET', path: '/service/o/', upStatuses: [200, 401] },
      shutdownGraceMs: 10_000,
    });
    expect(config.logLevel).toBe('info');
  });

  it('reads the operations variables', () => {
    const config = readGatewayConfig({
      METRICS_TOKEN: 'a-long-scrape-token',
      READINESS_TIMEOUT_MS: '500',
      SHUTDOWN_GRACE_MS: '0',
      LOG_LEVEL: 'debug',
      LEGACY_READINESS_METHOD: 'HEAD',
      LEGACY_READINESS_PATH: '/health/?probe=1',
      LEGACY_READINESS_STATUSES: '200, 204',
    });
    expect(config.operations).toEqual({
      metricsToken: 'a-long-scrape-token',
      readinessTimeoutMs: 500,
      legacyProbe: { method: 'HEAD', path: '/health/?probe=1', upStatuses: [200, 204] },
      shutdownGraceMs: 0,
    });
    expect(config.logLevel).toBe('debug');
  });

  it.each([
    ['LOG_LEVEL', 'verbose'],
    ['METRICS_TOKEN', 'short'],
    ['METRICS_TOKEN', 'has spaces in it, sixteen+'],
    ['READINESS_TIMEOUT_MS', '10'],
    ['SHUTDOWN_GRACE_MS', '-1'],
    ['SHUTDOWN_GRACE_MS', '5s'],
    ['LEGACY_READINESS_METHOD', 'POST'],
    ['LEGACY_READINESS_PATH', 'health'],
    ['LEGACY_READINESS_PATH', '//elsewhere.example.org/'],
    ['LEGACY_READINESS_STATUSES', '200,ok'],
    ['GATEWAY_HOST', 'not a host'],
    ['IDP_HOST', 'keycloak/auth'],
    ['IDP_ISSUER', 'keycloak'],
    ['MIGRATION_GUIDE_URL', '/docs/migration'],
    ['CORS_ORIGINS', 'https://app.example.org/'],
    ['GRAPHQL_REMOVED_VERSIONS', 'v0,beta'],
    ['GATEWAY_REFERENCE_UNITS', 'f41291dc-2a78-5663-957a-efb8d5ed9a0e,unit-2'],
  ])('refuses %s=%j with a message naming it', (name, value) => {
    expect(() => readGatewayConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => readGatewayConfig({ [name]: value })).toThrow(new RegExp(`^${name}: `));
  });

  it('accepts the values a container deployment uses', () => {
    const config = readGatewayConfig({
      GATEWAY_HOST: '0.0.0.0',
      IDP_HOST: 'keycloak',
      IDP_PORT: '8080',
      IDP_ISSUER: 'http://localhost:8081/auth/realms/org',
      CORS_ORIGINS: 'http://localhost:8080,https://app.example.org',
      GRAPHQL_REMOVED_VERSIONS: 'v0',
    });
    expect(config.host).toBe('0.0.0.0');
    expect(config.idp.issuer).toBe('http://localhost:8081/auth/realms/org');
    expect(config.idp.jwksUrl.href).toBe(
      'http://keycloak:8080/auth/realms/org/protocol/openid-connect/certs',
    );
  });
});

describe('readGatewayConfig: legacy access', () => {
  it('defaults: relay the caller’s token, 1000 legacy calls per GraphQL request, 10 s to send a body', () => {
    const config = readGatewayConfig({});
    expect(config.legacy.auth).toEqual({ mode: 'relay' });
    expect(config.graphqlLimits.maxLegacyCalls).toBe(1_000);
    expect(config.bodyTimeoutMs).toBe(10_000);
  });

  it("bounds a request's variables and answer by default, each limit its own variable (issue 35)", () => {
    const { graphqlLimits } = readGatewayConfig({});
    expect(graphqlLimits).toMatchObject({
      maxVariablesBytes: 262_144,
      maxVariablesDepth: 32,
      maxVariablesListLength: 1_000,
      maxAnswerObjects: 20_000,
    });
    const set = readGatewayConfig({
      GRAPHQL_MAX_VARIABLES_BYTES: '2048',
      GRAPHQL_MAX_VARIABLES_DEPTH: '8',
      GRAPHQL_MAX_VARIABLES_LIST_LENGTH: '50',
      GRAPHQL_MAX_ANSWER_OBJECTS: '500',
    }).graphqlLimits;
    expect(set).toMatchObject({
      maxVariablesBytes: 2048,
      maxVariablesDepth: 8,
      maxVariablesListLength: 50,
      maxAnswerObjects: 500,
    });
    expect(() => readGatewayConfig({ GRAPHQL_MAX_VARIABLES_DEPTH: '0' })).toThrow(
      /GRAPHQL_MAX_VARIABLES_DEPTH/,
    );
  });

  it('client-credentials takes the client and its secret, and the token endpoint from the issuer', () => {
    const config = readGatewayConfig({
      LEGACY_CREDENTIALS: 'client-credentials',
      LEGACY_CLIENT_ID: 'gateway',
      LEGACY_CLIENT_SECRET: 'a secret with spaces',
    });
    expect(config.legacy.auth).toEqual({
      mode: 'client-credentials',
      clientId: 'gateway',
      clientSecret: 'a secret with spaces',
      tokenUrl: new URL('http://localhost:8081/auth/realms/org/protocol/openid-connect/token'),
    });
  });

  it('names the variable, never the secret, when client-credentials is incomplete', () => {
    expect(() => readGatewayConfig({ LEGACY_CREDENTIALS: 'mtls' })).toThrow(
      /^LEGACY_CREDENTIALS: must be one of relay/,
    );
    expect(() =>
      readGatewayConfig({ LEGACY_CREDENTIALS: 'client-credentials', LEGACY_CLIENT_SECRET: 'x' }),
    ).toThrow(/^LEGACY_CLIENT_ID:/);
    expect(() =>
      readGatewayConfig({ LEGACY_CREDENTIALS: 'client-credentials', LEGACY_CLIENT_ID: 'gateway' }),
    ).toThrow(/^LEGACY_CLIENT_SECRET: must be set/);
    expect(() => readGatewayConfig({ GRAPHQL_MAX_LEGACY_CALLS: '0' })).toThrow(ConfigError);
    expect(() => readGatewayConfig({ GATEWAY_BODY_TIMEOUT_MS: '10s' })).toThrow(ConfigError);
  });
});

describe('readGatewayConfig: CPR numbers', () => {
  it('serves them to everyone when neither variable is set, as OS2mo does', () => {
    expect(readGatewayConfig({}).cprReads).toEqual({
      roles: undefined,
      clients: undefined,
      maxNumbersPerRequest: 100,
    });
  });

  it('reads the roles and clients that are served them', () => {
    const config = readGatewayConfig({
      CPR_READ_ROLES: 'admin, cpr-reader',
      CPR_READ_CLIENTS: 'payroll',
      CPR_MAX_NUMBERS_PER_REQUEST: '25',
    });
    expect(config.cprReads).toEqual({
      roles: ['admin', 'cpr-reader'],
      clients: ['payroll'],
      maxNumbersPerRequest: 25,
    });
  });

  it('refuses a value that would quietly mean no one or everyone', () => {
    for (const value of ['', ' ', 'admin,', 'admin;owner', '*']) {
      expect(() => readGatewayConfig({ CPR_READ_ROLES: value })).toThrow(/^CPR_READ_ROLES: must be/);
    }
    expect(() => readGatewayConfig({ CPR_READ_CLIENTS: 'a b' })).toThrow(/^CPR_READ_CLIENTS: must be/);
  });
});

describe('readGatewayConfig: the database', () => {
  it('has none unless DATABASE_URL is set', () => {
    expect(readGatewayConfig({}).database).toBeUndefined();
    expect(readGatewayConfig({ DATABASE_URL: '' }).database).toBeUndefined();
  });

  it('reads the URL and the pool size (10 by default)', () => {
    const url = 'postgres://gateway:secret@db.example.org:5432/gateway';
    expect(readGatewayConfig({ DATABASE_URL: url }).database).toEqual({ url, poolSize: 10 });
    expect(
      readGatewayConfig({ DATABASE_URL: 'postgresql://db/gateway', DATABASE_POOL_SIZE: '1' }).database,
    ).toEqual({ url: 'postgresql://db/gateway', poolSize: 1 });
  });

  it('refuses what is not a Postgres URL, without echoing the value (it may hold a password)', () => {
    for (const value of ['http://gateway:hunter2@db/gateway', 'gateway:hunter2@db', 'postgres:///gateway']) {
      let message = '';
      try {
        readGatewayConfig({ DATABASE_URL: value });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/^DATABASE_URL: must /);
      expect(message).not.toContain('hunter2');
    }
    expect(() =>
      readGatewayConfig({ DATABASE_URL: 'postgres://db/gateway', DATABASE_POOL_SIZE: '0' }),
    ).toThrow(/^DATABASE_POOL_SIZE:/);
  });
});
