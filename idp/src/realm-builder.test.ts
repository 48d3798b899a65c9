import { describe, expect, it } from 'vitest';
import type { RealmRepresentation, UserRepresentation } from './realm-representation.js';
import { buildRealm, type RealmBuilderOptions } from './realm-builder.js';
import { devUsers } from './test-support.js';

function build(overrides: Partial<RealmBuilderOptions> = {}): RealmRepresentation {
  return buildRealm({
    users: devUsers(),
    rbacEnabled: false,
    integrationClientSecret: 'integration-dev-secret',
    payrollClientSecret: 'payroll-dev-secret',
    devToolsClientSecret: 'dev-tools-dev-secret',
    gatewayPublicUrl: 'http://localhost:8080',
    ...overrides,
  });
}

function user(realm: RealmRepresentation, username: string): UserRepresentation {
  const found = realm.users?.find((candidate) => candidate.username === username);
  if (!found) throw new Error(`no user ${username}`);
  return found;
}

function userProfileConfig(realm: RealmRepresentation): { attributes: Array<Record<string, unknown>> } {
  const [component] = realm.components?.['org.keycloak.userprofile.UserProfileProvider'] ?? [];
  expect(component?.providerId).toBe('declarative-user-profile');
  return JSON.parse(component!.config['kc.user.profile.config']![0]!) as {
    attributes: Array<Record<string, unknown>>;
  };
}

describe('realm builder', () => {
  it('writes the realm, enabled, with lifespans 300 / 1800 and single-use refresh tokens', () => {
    const realm = build();
    expect(realm).toMatchObject({
      realm: 'org',
      enabled: true,
      accessTokenLifespan: 300,
      ssoSessionIdleTimeout: 1800,
      revokeRefreshToken: true,
      refreshTokenMaxReuse: 0,
    });
  });

  it('writes users that a current Keycloak imports: password credential, names, email, uuid attribute', () => {
    const alice = user(build(), 'alice');
    expect(alice).toMatchObject({
      username: 'alice',
      enabled: true,
      email: 'alice@example.org',
      emailVerified: true,
      firstName: 'Alice',
      lastName: 'Andersen',
      attributes: { uuid: ['c1475b31-0b51-4ff6-8467-84576bdb9462'] },
      credentials: [{ type: 'password', value: 'alice', temporary: false }],
    });
    expect(alice.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('declares the uuid attribute in the user profile, editable by administrators only', () => {
    const profile = userProfileConfig(build());
    expect(profile.attributes.map((attribute) => attribute['name'])).toEqual([
      'username',
      'email',
      'firstName',
      'lastName',
      'uuid',
    ]);
    expect(profile.attributes.find((attribute) => attribute['name'] === 'uuid')).toMatchObject({
      permissions: { view: ['admin'], edit: ['admin'] },
    });
    expect(profile).not.toHaveProperty('unmanagedAttributePolicy');
  });

  it('writes the public frontend client with PKCE S256 and the gateway as redirect URI and web origin', () => {
    const frontend = build({ gatewayPublicUrl: 'https://org.example/gateway/' }).clients?.find(
      (client) => client.clientId === 'org-frontend',
    );
    expect(frontend).toMatchObject({
      enabled: true,
      protocol: 'openid-connect',
      publicClient: true,
      standardFlowEnabled: true,
      directAccessGrantsEnabled: true,
      implicitFlowEnabled: false,
      serviceAccountsEnabled: false,
      redirectUris: ['https://org.example/gateway/*'],
      webOrigins: ['https://org.example'],
      attributes: { 'pkce.code.challenge.method': 'S256', 'post.logout.redirect.uris': '+' },
    });
  });

  it('writes the confidential integration client with its secret and a service account', () => {
    const realm = build({ integrationClientSecret: 's3cret' });
    expect(realm.clients?.find((client) => client.clientId === 'integration')).toMatchObject({
      publicClient: false,
      clientAuthenticatorType: 'client-secret',
      secret: 's3cret',
      serviceAccountsEnabled: true,
      standardFlowEnabled: false,
      directAccessGrantsEnabled: false,
    });
    expect(user(realm, 'service-account-integration')).toMatchObject({
      enabled: true,
      serviceAccountClientId: 'integration',
    });
  });

  it('writes a second confidential client, payroll, with its own secret and service account', () => {
    const realm = build({ payrollClientSecret: 'p4yroll' });
    expect(realm.clients?.map((client) => client.clientId)).toEqual([
      'org-frontend',
      'integration',
      'payroll',
      'dev-tools',
    ]);
    expect(realm.clients?.find((client) => client.clientId === 'payroll')).toMatchObject({
      publicClient: false,
      clientAuthenticatorType: 'client-secret',
      secret: 'p4yroll',
      serviceAccountsEnabled: true,
      standardFlowEnabled: false,
      directAccessGrantsEnabled: false,
    });
    expect(user(realm, 'service-account-payroll')).toMatchObject({
      enabled: true,
      serviceAccountClientId: 'payroll',
    });
    expect(() => build({ payrollClientSecret: '' })).toThrow('The payroll client secret must not be empty');
  });

  it("writes the development tools their own confidential client, dev-tools, an admin as the reports' reader", () => {
    const realm = build({ devToolsClientSecret: 't00ls', rbacEnabled: true });
    expect(realm.clients?.find((client) => client.clientId === 'dev-tools')).toMatchObject({
      publicClient: false,
      clientAuthenticatorType: 'client-secret',
      secret: 't00ls',
      serviceAccountsEnabled: true,
      standardFlowEnabled: false,
      directAccessGrantsEnabled: false,
    });
    expect(user(realm, 'service-account-dev-tools')).toMatchObject({
      enabled: true,
      serviceAccountClientId: 'dev-tools',
      // GET /migration/usage, which `npm run compare -- --usage` reads, is for the role admin.
      realmRoles: ['admin'],
    });
    expect(() => build({ devToolsClientSecret: '' })).toThrow(
      'The dev-tools client secret must not be empty',
    );
  });

  it('without RBAC: no roles, no role mappings, no uuid claim mapper', () => {
    const realm = build({ rbacEnabled: false });
    expect(realm).not.toHaveProperty('roles');
    for (const account of realm.users ?? []) expect(account).not.toHaveProperty('realmRoles');
    for (const client of realm.clients ?? []) expect(client.protocolMappers).toEqual([]);
  });

  it('with RBAC: roles admin and owner, users mapped to them, the integration an admin, uuid in the access token', () => {
    const realm = build({ rbacEnabled: true });
    expect(realm.roles?.realm?.map((role) => role.name)).toEqual(['admin', 'owner', 'class_admin']);
    expect(user(realm, 'alice').realmRoles).toEqual(['admin', 'class_admin']);
    expect(user(realm, 'oscar').realmRoles).toEqual(['owner']);
    expect(user(realm, 'nora').realmRoles).toEqual([]);
    expect(user(realm, 'service-account-integration').realmRoles).toEqual(['admin']);
    // The payroll integration only reads.
    expect(user(realm, 'service-account-payroll').realmRoles).toEqual([]);
    for (const client of realm.clients ?? []) {
      expect(client.protocolMappers).toEqual([
        expect.objectContaining({
          protocol: 'openid-connect',
          protocolMapper: 'oidc-usermodel-attribute-mapper',
          config: expect.objectContaining({
            'user.attribute': 'uuid',
            'claim.name': 'uuid',
            'jsonType.label': 'String',
            'access.token.claim': 'true',
          }),
        }),
      ]);
    }
  });

  it('with RBAC: defines every role users are given beyond admin and owner, once, and maps them', () => {
    const users = devUsers().map((each) =>
      each.username === 'nora' ? { ...each, roles: ['ui_reader', 'class_admin'] } : each,
    );
    const realm = build({ rbacEnabled: true, users });
    expect(realm.roles?.realm?.map((role) => role.name)).toEqual([
      'admin',
      'owner',
      'class_admin',
      'ui_reader',
    ]);
    expect(realm.roles?.realm?.[2]?.description).toMatch(/IDP_REALM_USERS .*RBAC does not read it/);
    expect(user(realm, 'nora').realmRoles).toEqual(['ui_reader', 'class_admin']);
  });

  it('without RBAC: roles beyond admin and owner are left out with them', () => {
    const realm = build({ rbacEnabled: false });
    expect(devUsers().find((each) => each.username === 'alice')?.roles).toContain('class_admin');
    expect(realm).not.toHaveProperty('roles');
    expect(user(realm, 'alice')).not.toHaveProperty('realmRoles');
  });

  it('is deterministic', () => {
    expect(JSON.stringify(build({ rbacEnabled: true }))).toBe(JSON.stringify(build({ rbacEnabled: true })));
  });

  it('refuses a gateway URL that is not a plain http(s) address', () => {
    expect(() => build({ gatewayPublicUrl: 'localhost:8080' })).toThrow(/absolute http\(s\) URL/);
    expect(() => build({ gatewayPublicUrl: 'http://localhost:8080/?x=1' })).toThrow(/without query/);
  });
});
