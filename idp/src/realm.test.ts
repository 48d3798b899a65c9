import { describe, expect, it } from 'vitest';
import { loadRealm, RealmFileError } from './realm.js';
import { buildRealm } from './realm-builder.js';
import { devUsers } from './test-support.js';

const built = (rbacEnabled: boolean) =>
  buildRealm({
    users: devUsers(),
    rbacEnabled,
    integrationClientSecret: 'integration-dev-secret',
    payrollClientSecret: 'payroll-dev-secret',
    devToolsClientSecret: 'dev-tools-dev-secret',
    gatewayPublicUrl: 'http://localhost:8080',
  });

describe('loading a realm file', () => {
  it("reads the realm builder's output: users, clients, roles, lifespans, mappers", () => {
    const realm = loadRealm(JSON.parse(JSON.stringify(built(true))));
    expect(realm).toMatchObject({
      name: 'org',
      enabled: true,
      accessTokenLifespan: 300,
      ssoSessionIdleTimeout: 1800,
      revokeRefreshToken: true,
    });
    expect([...realm.roles]).toEqual(['admin', 'owner', 'class_admin']);
    expect(realm.findUserForLogin('ALICE')).toMatchObject({
      username: 'alice',
      password: 'alice',
      realmRoles: ['admin', 'class_admin'],
      attributes: { uuid: ['c1475b31-0b51-4ff6-8467-84576bdb9462'] },
    });
    expect(realm.findUserForLogin('oscar@example.org')?.username).toBe('oscar');
    expect(realm.findClient('org-frontend')).toMatchObject({
      publicClient: true,
      pkceMethod: 'S256',
      webOrigins: ['http://localhost:8080'],
      postLogoutRedirectUris: ['http://localhost:8080/*'],
      attributeMappers: [
        { userAttribute: 'uuid', claimName: 'uuid', accessToken: true, idToken: true, userinfo: true },
      ],
    });
    expect(realm.serviceAccountOf('integration')?.realmRoles).toEqual(['admin']);
  });

  it('reads a realm without RBAC: no roles, no mappers', () => {
    const realm = loadRealm(built(false));
    expect(realm.roles.size).toBe(0);
    expect(realm.findClient('integration')?.attributeMappers).toEqual([]);
  });

  it("applies Keycloak's defaults and creates a missing service account user", () => {
    const realm = loadRealm({
      realm: 'small',
      clients: [
        {
          clientId: 'robot',
          secret: 'x',
          serviceAccountsEnabled: true,
          webOrigins: ['+'],
          redirectUris: ['https://a.example/cb'],
        },
      ],
    });
    expect(realm).toMatchObject({
      accessTokenLifespan: 300,
      ssoSessionIdleTimeout: 1800,
      revokeRefreshToken: false,
    });
    expect(realm.serviceAccountOf('robot')).toMatchObject({
      username: 'service-account-robot',
      enabled: true,
    });
    expect(realm.findClient('robot')?.webOrigins).toEqual(['https://a.example']);
  });

  const broken: Array<[string, unknown, string]> = [
    ['not an object', [], 'realm file must be an object, got a list'],
    ['no realm name', { users: [] }, 'realm file: realm must be a non-empty string, got undefined'],
    [
      'a role the realm lacks',
      { realm: 'r', users: [{ username: 'a', realmRoles: ['admin'] }] },
      'realm file: users[0] ("a").realmRoles names the role "admin", which the realm does not define',
    ],
    [
      'a confidential client without secret',
      { realm: 'r', clients: [{ clientId: 'c' }] },
      'realm file: clients[0] ("c") is confidential (publicClient is not true) but has no secret',
    ],
    [
      'a relative redirect URI',
      { realm: 'r', clients: [{ clientId: 'c', publicClient: true, redirectUris: ['/app/*'] }] },
      'needs absolute URIs',
    ],
    [
      'a temporary password',
      {
        realm: 'r',
        users: [{ username: 'a', credentials: [{ type: 'password', value: 'x', temporary: true }] }],
      },
      'is a temporary password',
    ],
    [
      'a negative lifespan',
      { realm: 'r', accessTokenLifespan: -5 },
      'realm file: accessTokenLifespan must be a positive integer',
    ],
  ];
  for (const [name, json, message] of broken) {
    it(`refuses ${name}, naming the member`, () => {
      expect(() => loadRealm(json)).toThrow(RealmFileError);
      expect(() => loadRealm(json)).toThrow(message);
    });
  }
});
