import {
  DEV_TOOLS_CLIENT_ID,
  FRONTEND_CLIENT_ID,
  INTEGRATION_CLIENT_ID,
  PAYROLL_CLIENT_ID,
  REALM_NAME,
  SERVICE_ACCOUNT_PREFIX,
  USER_ATTRIBUTE_MAPPER,
  USER_PROFILE_PROVIDER,
  type ClientRepresentation,
  type ProtocolMapperRepresentation,
  type RealmRepresentation,
  type UserRepresentation,
} from './realm-representation.js';
import { REALM_ROLES, type RealmUser } from './realm-users.js';
import { stableUuid } from './stable-uuid.js';

export const DEFAULT_INTEGRATION_CLIENT_SECRET = 'integration-dev-secret';
export const DEFAULT_PAYROLL_CLIENT_SECRET = 'payroll-dev-secret';
export const DEFAULT_DEV_TOOLS_CLIENT_SECRET = 'dev-tools-dev-secret';
export const DEFAULT_GATEWAY_PUBLIC_URL = 'http://localhost:8080';
export const ACCESS_TOKEN_LIFESPAN = 300;
export const SSO_SESSION_IDLE_TIMEOUT = 1800;
// Keycloak's default; a refresh token never outlives the session's maximum lifespan.
export const SSO_SESSION_MAX_LIFESPAN = 36_000;
export const ACCESS_CODE_LIFESPAN = 60;

/**
 * Keycloak's brute-force detection, on: a temporary lockout of 60 s after 5 failures (and again at every
 * 5 more, 60 s longer each time, at most 15 min), and of 60 s after two failures within a second. Keycloak's
 * own defaults except the failure factor, which is 30 there: 5 keeps an online guesser to a handful of
 * tries a minute per account.
 */
export const BRUTE_FORCE_DETECTION = {
  bruteForceProtected: true,
  permanentLockout: false,
  maxTemporaryLockouts: 0,
  bruteForceStrategy: 'MULTIPLE',
  failureFactor: 5,
  waitIncrementSeconds: 60,
  quickLoginCheckMilliSeconds: 1000,
  minimumQuickLoginWaitSeconds: 60,
  maxFailureWaitSeconds: 900,
  maxDeltaTimeSeconds: 43_200,
} as const satisfies Partial<RealmRepresentation>;

export interface RealmBuilderOptions {
  users: readonly RealmUser[];
  rbacEnabled: boolean;
  integrationClientSecret: string;
  /** The second confidential client's (`payroll`) secret. */
  payrollClientSecret: string;
  /** The development tools' client's (`dev-tools`) secret. */
  devToolsClientSecret: string;
  /** The gateway's address as browsers see it: the frontend client's redirect URIs and web origin. */
  gatewayPublicUrl: string;
}

/**
 * Builds the Keycloak realm import file (`kc.sh import --file`, or the admin console's "Create realm")
 * for the development realm `org`. Pure: the same options always give the same JSON.
 */
export function buildRealm(options: RealmBuilderOptions): RealmRepresentation {
  const gateway = gatewayAddress(options.gatewayPublicUrl);
  if (options.integrationClientSecret.length === 0) {
    throw new Error('The integration client secret must not be empty');
  }
  if (options.payrollClientSecret.length === 0) {
    throw new Error('The payroll client secret must not be empty');
  }
  if (options.devToolsClientSecret.length === 0) {
    throw new Error('The dev-tools client secret must not be empty');
  }
  const realm: RealmRepresentation = {
    realm: REALM_NAME,
    displayName: 'Organisation data (development)',
    enabled: true,
    sslRequired: 'external',
    registrationAllowed: false,
    loginWithEmailAllowed: true,
    duplicateEmailsAllowed: false,
    resetPasswordAllowed: false,
    editUsernameAllowed: false,
    accessTokenLifespan: ACCESS_TOKEN_LIFESPAN,
    accessCodeLifespan: ACCESS_CODE_LIFESPAN,
    ssoSessionIdleTimeout: SSO_SESSION_IDLE_TIMEOUT,
    ssoSessionMaxLifespan: SSO_SESSION_MAX_LIFESPAN,
    // A refresh token works once; reusing it is refused, as the token tests and the gateway expect.
    revokeRefreshToken: true,
    refreshTokenMaxReuse: 0,
    ...BRUTE_FORCE_DETECTION,
  };
  if (options.rbacEnabled) {
    realm.roles = {
      realm: [
        { name: 'admin', description: 'Writes everything in the organisation' },
        { name: 'owner', description: 'Writes the organisation units the user owns, and their descendants' },
        ...otherRoles(options.users).map((name) => ({
          name,
          description:
            "Given through IDP_REALM_USERS for another client of the realm; the gateway's RBAC does not read it",
        })),
      ],
    };
  }
  realm.users = [
    ...options.users.map((user) => userRepresentation(user, options.rbacEnabled)),
    serviceAccountUser(INTEGRATION_CLIENT_ID, options.rbacEnabled),
    serviceAccountUser(PAYROLL_CLIENT_ID, options.rbacEnabled),
    serviceAccountUser(DEV_TOOLS_CLIENT_ID, options.rbacEnabled),
  ];
  const mappers = options.rbacEnabled ? [uuidClaimMapper()] : [];
  realm.clients = [
    frontendClient(gateway, mappers),
    confidentialClient(
      {
        clientId: INTEGRATION_CLIENT_ID,
        name: 'Back-end integrations',
        secret: options.integrationClientSecret,
      },
      mappers,
    ),
    confidentialClient(
      { clientId: PAYROLL_CLIENT_ID, name: 'Payroll integration', secret: options.payrollClientSecret },
      mappers,
    ),
    confidentialClient(
      {
        clientId: DEV_TOOLS_CLIENT_ID,
        name: 'Development tools (the comparison CLI)',
        secret: options.devToolsClientSecret,
      },
      mappers,
    ),
  ];
  realm.components = {
    [USER_PROFILE_PROVIDER]: [
      {
        providerId: 'declarative-user-profile',
        subComponents: {},
        config: { 'kc.user.profile.config': [JSON.stringify(userProfile())] },
      },
    ],
  };
  return realm;
}

/** The roles users are given beyond RBAC's (say `class_admin`, which OS2mo's UI reads), in first-seen order. */
function otherRoles(users: readonly RealmUser[]): string[] {
  const rbacRoles: readonly string[] = REALM_ROLES;
  return [...new Set(users.flatMap((user) => user.roles))].filter((role) => !rbacRoles.includes(role));
}

function gatewayAddress(value: string): { base: string; origin: string } {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new Error(`The gateway's public URL must be an absolute http(s) URL, got ${JSON.stringify(value)}`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new Error(
      `The gateway's public URL must be an http(s) URL without query, fragment or credentials, got ${JSON.stringify(value)}`,
    );
  }
  return { base: `${url.origin}${url.pathname.replace(/\/+$/, '')}`, origin: url.origin };
}

function userRepresentation(user: RealmUser, rbacEnabled: boolean): UserRepresentation {
  const representation: UserRepresentation = {
    id: stableUuid(`user:${user.username}`),
    username: user.username,
    enabled: user.enabled,
    email: user.email,
    emailVerified: true,
    firstName: user.firstname,
    lastName: user.lastname,
    attributes: { uuid: [user.uuid] },
    credentials: [{ type: 'password', value: user.password, temporary: false }],
    requiredActions: [],
  };
  // Without RBAC the roles do not exist in the realm, and Keycloak refuses a user mapped to a missing role.
  if (rbacEnabled) representation.realmRoles = [...user.roles];
  return representation;
}

function serviceAccountUser(clientId: string, rbacEnabled: boolean): UserRepresentation {
  const user: UserRepresentation = {
    id: stableUuid(`service-account:${clientId}`),
    username: `${SERVICE_ACCOUNT_PREFIX}${clientId}`,
    enabled: true,
    serviceAccountClientId: clientId,
  };
  // Back-end integrations write, so under RBAC the integration's service account is an admin; payroll reads. The
  // migration tools' reports (`/migration/usage`, `/migration/coverage`) are for admins: so is their client.
  if (rbacEnabled) {
    user.realmRoles = clientId === INTEGRATION_CLIENT_ID || clientId === DEV_TOOLS_CLIENT_ID ? ['admin'] : [];
  }
  return user;
}

function frontendClient(
  gateway: { base: string; origin: string },
  protocolMappers: ProtocolMapperRepresentation[],
): ClientRepresentation {
  return {
    clientId: FRONTEND_CLIENT_ID,
    name: 'Organisation gateway frontend',
    description: 'Browser login (keycloak-js) and password grant for developers',
    enabled: true,
    protocol: 'openid-connect',
    publicClient: true,
    standardFlowEnabled: true,
    implicitFlowEnabled: false,
    directAccessGrantsEnabled: true,
    serviceAccountsEnabled: false,
    fullScopeAllowed: true,
    rootUrl: gateway.base,
    baseUrl: `${gateway.base}/`,
    redirectUris: [`${gateway.base}/*`],
    webOrigins: [gateway.origin],
    attributes: {
      'pkce.code.challenge.method': 'S256',
      // "+" means: the same URIs as the redirect URIs.
      'post.logout.redirect.uris': '+',
    },
    protocolMappers,
  };
}

function confidentialClient(
  { clientId, name, secret }: { clientId: string; name: string; secret: string },
  protocolMappers: ProtocolMapperRepresentation[],
): ClientRepresentation {
  return {
    clientId,
    name,
    description: 'Client credentials grant for system-to-system calls',
    enabled: true,
    protocol: 'openid-connect',
    publicClient: false,
    clientAuthenticatorType: 'client-secret',
    secret,
    standardFlowEnabled: false,
    implicitFlowEnabled: false,
    directAccessGrantsEnabled: false,
    serviceAccountsEnabled: true,
    fullScopeAllowed: true,
    redirectUris: [],
    webOrigins: [],
    attributes: { 'client_credentials.use_refresh_token': 'false' },
    protocolMappers,
  };
}

function uuidClaimMapper(): ProtocolMapperRepresentation {
  return {
    name: 'employee uuid',
    protocol: 'openid-connect',
    protocolMapper: USER_ATTRIBUTE_MAPPER,
    consentRequired: false,
    config: {
      'user.attribute': 'uuid',
      'claim.name': 'uuid',
      'jsonType.label': 'String',
      'access.token.claim': 'true',
      'id.token.claim': 'true',
      'userinfo.token.claim': 'true',
      'introspection.token.claim': 'true',
      multivalued: 'false',
      'aggregate.attrs': 'false',
    },
  };
}

/**
 * Keycloak 24+ keeps only attributes its user profile declares. `uuid` is declared (rather than turning on
 * unmanaged attributes) so that only administrators can see or change it: it decides what an owner may write.
 */
function userProfile(): unknown {
  const everyone = { view: ['admin', 'user'], edit: ['admin', 'user'] };
  return {
    attributes: [
      {
        name: 'username',
        displayName: '${username}',
        validations: {
          length: { min: 3, max: 255 },
          'username-prohibited-characters': {},
          'up-username-not-idn-homograph': {},
        },
        permissions: everyone,
        multivalued: false,
      },
      {
        name: 'email',
        displayName: '${email}',
        validations: { email: {}, length: { max: 255 } },
        required: { roles: ['user'] },
        permissions: everyone,
        multivalued: false,
      },
      {
        name: 'firstName',
        displayName: '${firstName}',
        validations: { length: { max: 255 }, 'person-name-prohibited-characters': {} },
        required: { roles: ['user'] },
        permissions: everyone,
        multivalued: false,
      },
      {
        name: 'lastName',
        displayName: '${lastName}',
        validations: { length: { max: 255 }, 'person-name-prohibited-characters': {} },
        required: { roles: ['user'] },
        permissions: everyone,
        multivalued: false,
      },
      {
        name: 'uuid',
        displayName: 'Employee UUID',
        validations: {
          pattern: {
            pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
            'error-message': 'The employee UUID must be a UUID',
          },
        },
        permissions: { view: ['admin'], edit: ['admin'] },
        multivalued: false,
      },
    ],
    groups: [
      {
        name: 'user-metadata',
        displayHeader: 'User metadata',
        displayDescription: 'Attributes, which refer to user metadata',
      },
    ],
  };
}
