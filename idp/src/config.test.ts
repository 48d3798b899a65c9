import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultKeysDir, GENERATED_DIR, idpServerConfigFromEnv } from './config.js';
import { realmBuilderOptionsFromEnv } from './realm-env.js';

describe('identity provider configuration', () => {
  it('has development defaults: dev endpoints off, keys in the folder of this port', () => {
    expect(idpServerConfigFromEnv({})).toEqual({
      port: 8081,
      host: '127.0.0.1',
      keysDir: join(GENERATED_DIR, 'idp-8081', 'keys'),
      keyActivationDelaySeconds: 60,
      devEndpoints: false,
    });
    expect(GENERATED_DIR).toMatch(/idp[/\\]generated$/);
  });

  it('gives stacks on other ports their own keys folder, and keeps keys in memory on a random port', () => {
    expect(idpServerConfigFromEnv({ IDP_PORT: '9081' }).keysDir).toBe(
      join(GENERATED_DIR, 'idp-9081', 'keys'),
    );
    expect(defaultKeysDir(9081)).not.toBe(defaultKeysDir(8081));
    expect(idpServerConfigFromEnv({ IDP_PORT: '0' })).not.toHaveProperty('keysDir');
    expect(idpServerConfigFromEnv({ IDP_PORT: '0', IDP_KEYS_DIR: '/tmp/k' }).keysDir).toBe('/tmp/k');
  });

  it('turns the development endpoints on only when asked', () => {
    expect(idpServerConfigFromEnv({ IDP_DEV_ENDPOINTS: 'true' }).devEndpoints).toBe(true);
  });

  it('reads every variable', () => {
    expect(
      idpServerConfigFromEnv({
        IDP_PORT: '9000',
        IDP_LISTEN_HOST: '0.0.0.0',
        IDP_PUBLIC_URL: 'https://login.example/',
        IDP_REALM_FILE: '/tmp/realm.json',
        IDP_KEYS_DIR: '/tmp/keys',
        IDP_KEY_ACTIVATION_DELAY_SECONDS: '45',
        IDP_DEV_ENDPOINTS: 'false',
      }),
    ).toEqual({
      port: 9000,
      host: '0.0.0.0',
      publicUrl: 'https://login.example',
      realmFile: '/tmp/realm.json',
      keysDir: '/tmp/keys',
      keyActivationDelaySeconds: 45,
      devEndpoints: false,
    });
  });

  const refused: Array<[Record<string, string>, string]> = [
    [{ IDP_PORT: '80a' }, 'IDP_PORT must be a port number from 0 to 65535, got "80a"'],
    [{ IDP_PORT: '70000' }, 'IDP_PORT must be a port number'],
    [{ IDP_PUBLIC_URL: 'localhost:8081' }, 'IDP_PUBLIC_URL must be an absolute http(s) URL'],
    [
      { IDP_PUBLIC_URL: 'http://localhost:8081/auth' },
      "IDP_PUBLIC_URL must be the server's address without a path",
    ],
    [{ IDP_DEV_ENDPOINTS: 'yes' }, 'IDP_DEV_ENDPOINTS must be "true" or "false", got "yes"'],
    [
      { IDP_KEY_ACTIVATION_DELAY_SECONDS: '-1' },
      'IDP_KEY_ACTIVATION_DELAY_SECONDS must be a whole number of seconds from 0 to 86400, got "-1"',
    ],
  ];
  for (const [env, message] of refused) {
    it(`names the variable: ${Object.keys(env)[0]}=${Object.values(env)[0]}`, () => {
      expect(() => idpServerConfigFromEnv(env)).toThrow(message);
    });
  }
});

describe('realm builder configuration', () => {
  it('defaults to the development users, RBAC off, the development secret and gateway', () => {
    const options = realmBuilderOptionsFromEnv({});
    expect(options.users.map((user) => user.username)).toEqual(['alice', 'oscar', 'nora']);
    expect(options).toMatchObject({
      rbacEnabled: false,
      integrationClientSecret: 'integration-dev-secret',
      gatewayPublicUrl: 'http://localhost:8080',
    });
  });

  it('reads IDP_REALM_USERS, IDP_RBAC_ENABLED, the client secrets and GATEWAY_PUBLIC_URL', () => {
    const options = realmBuilderOptionsFromEnv({
      IDP_REALM_USERS: JSON.stringify([
        {
          username: 'zed',
          password: 'pw',
          firstname: 'Zed',
          lastname: 'Zulu',
          email: 'zed@example.org',
          uuid: '00000000-0000-4000-8000-000000000000',
          enabled: true,
        },
      ]),
      IDP_RBAC_ENABLED: 'TRUE',
      IDP_INTEGRATION_CLIENT_SECRET: 'other',
      IDP_PAYROLL_CLIENT_SECRET: 'other-payroll',
      IDP_DEV_TOOLS_CLIENT_SECRET: 'other-tools',
      GATEWAY_PUBLIC_URL: 'https://org.example/',
    });
    expect(options.users.map((user) => user.username)).toEqual(['zed']);
    expect(options).toMatchObject({
      rbacEnabled: true,
      integrationClientSecret: 'other',
      payrollClientSecret: 'other-payroll',
      devToolsClientSecret: 'other-tools',
      gatewayPublicUrl: 'https://org.example',
    });
  });

  it('refuses unusable values, naming the variable', () => {
    expect(() => realmBuilderOptionsFromEnv({ IDP_RBAC_ENABLED: '1' })).toThrow(
      'IDP_RBAC_ENABLED must be "true" or "false"',
    );
    expect(() => realmBuilderOptionsFromEnv({ IDP_INTEGRATION_CLIENT_SECRET: '' })).toThrow(
      'IDP_INTEGRATION_CLIENT_SECRET must not be empty',
    );
    expect(() => realmBuilderOptionsFromEnv({ IDP_PAYROLL_CLIENT_SECRET: '' })).toThrow(
      'IDP_PAYROLL_CLIENT_SECRET must not be empty',
    );
    expect(() => realmBuilderOptionsFromEnv({ IDP_DEV_TOOLS_CLIENT_SECRET: '' })).toThrow(
      'IDP_DEV_TOOLS_CLIENT_SECRET must not be empty',
    );
    expect(() => realmBuilderOptionsFromEnv({ GATEWAY_PUBLIC_URL: 'ftp://x' })).toThrow(
      'GATEWAY_PUBLIC_URL must be',
    );
    expect(() => realmBuilderOptionsFromEnv({ IDP_REALM_USERS: '{}' })).toThrow(
      'IDP_REALM_USERS must be a JSON list',
    );
  });
});
