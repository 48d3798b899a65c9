import { KEYCLOAK_BRUTE_FORCE_DEFAULTS, type BruteForceSettings } from './brute-force.js';
import { SERVICE_ACCOUNT_PREFIX, USER_ATTRIBUTE_MAPPER } from './realm-representation.js';
import { stableUuid } from './stable-uuid.js';

/** A user as the identity provider needs it, read from a realm import file. */
export interface UserAccount {
  id: string;
  username: string;
  enabled: boolean;
  email?: string;
  emailVerified: boolean;
  firstName?: string;
  lastName?: string;
  attributes: Readonly<Record<string, readonly string[]>>;
  /** Absent when the file holds no plain password: such a user cannot log in here. */
  password?: string;
  realmRoles: readonly string[];
  serviceAccountClientId?: string;
}

/** An `oidc-usermodel-attribute-mapper`: copies a user attribute into a claim. */
export interface AttributeClaimMapper {
  userAttribute: string;
  claimName: string;
  accessToken: boolean;
  idToken: boolean;
  userinfo: boolean;
  multivalued: boolean;
}

export interface Client {
  clientId: string;
  enabled: boolean;
  publicClient: boolean;
  secret?: string;
  standardFlowEnabled: boolean;
  directAccessGrantsEnabled: boolean;
  serviceAccountsEnabled: boolean;
  redirectUris: readonly string[];
  /** Resolved: "+" already replaced by the redirect URIs' origins; may hold "*". */
  webOrigins: readonly string[];
  postLogoutRedirectUris: readonly string[];
  /** The PKCE method the client must use (`pkce.code.challenge.method`), if it is enforced. */
  pkceMethod?: string;
  attributeMappers: readonly AttributeClaimMapper[];
}

export interface Realm {
  name: string;
  enabled: boolean;
  accessTokenLifespan: number;
  accessCodeLifespan: number;
  ssoSessionIdleTimeout: number;
  ssoSessionMaxLifespan: number;
  revokeRefreshToken: boolean;
  refreshTokenMaxReuse: number;
  /** Keycloak's brute-force detection members; detection is off unless `bruteForceProtected`. */
  bruteForce: BruteForceSettings;
  /** Realm roles; empty when RBAC is off, and then tokens carry no `realm_access`. */
  roles: ReadonlySet<string>;
  users: readonly UserAccount[];
  clients: readonly Client[];
  findClient(clientId: string): Client | undefined;
  findUserById(id: string): UserAccount | undefined;
  /** By username or email, case-insensitive, as Keycloak's login does. */
  findUserForLogin(usernameOrEmail: string): UserAccount | undefined;
  serviceAccountOf(clientId: string): UserAccount | undefined;
}

/** A realm file the identity provider cannot use; the message names the member. */
export class RealmFileError extends Error {
  override name = 'RealmFileError';
}

// Keycloak's defaults for members a realm file leaves out.
const DEFAULTS = {
  accessTokenLifespan: 300,
  accessCodeLifespan: 60,
  ssoSessionIdleTimeout: 1800,
  ssoSessionMaxLifespan: 36_000,
};

/** Reads a Keycloak realm import file (the realm builder's output, or a hand-written one). */
export function loadRealm(json: unknown): Realm {
  const root = object(json, 'realm file');
  const name = string(root['realm'], 'realm');
  const realm = {
    name,
    enabled: optionalBoolean(root['enabled'], 'enabled') ?? true,
    accessTokenLifespan: positiveInteger(
      root['accessTokenLifespan'],
      'accessTokenLifespan',
      DEFAULTS.accessTokenLifespan,
    ),
    accessCodeLifespan: positiveInteger(
      root['accessCodeLifespan'],
      'accessCodeLifespan',
      DEFAULTS.accessCodeLifespan,
    ),
    ssoSessionIdleTimeout: positiveInteger(
      root['ssoSessionIdleTimeout'],
      'ssoSessionIdleTimeout',
      DEFAULTS.ssoSessionIdleTimeout,
    ),
    ssoSessionMaxLifespan: positiveInteger(
      root['ssoSessionMaxLifespan'],
      'ssoSessionMaxLifespan',
      DEFAULTS.ssoSessionMaxLifespan,
    ),
    revokeRefreshToken: optionalBoolean(root['revokeRefreshToken'], 'revokeRefreshToken') ?? false,
    refreshTokenMaxReuse: nonNegativeInteger(root['refreshTokenMaxReuse'], 'refreshTokenMaxReuse', 0),
    bruteForce: readBruteForce(root),
    roles: readRoles(root['roles']),
    users: [] as UserAccount[],
    clients: [] as Client[],
  };
  realm.clients = list(root['clients'], 'clients').map((entry, index) =>
    readClient(entry, `clients[${index}]`),
  );
  realm.users = list(root['users'], 'users').map((entry, index) =>
    readUser(entry, `users[${index}]`, realm.roles),
  );
  // Keycloak's import creates the service account user a client lacks; so does the loader.
  for (const client of realm.clients) {
    if (!client.serviceAccountsEnabled) continue;
    if (realm.users.some((user) => user.serviceAccountClientId === client.clientId)) continue;
    realm.users.push({
      id: stableUuid(`service-account:${client.clientId}`),
      username: `${SERVICE_ACCOUNT_PREFIX}${client.clientId}`,
      enabled: true,
      emailVerified: false,
      attributes: {},
      realmRoles: [],
      serviceAccountClientId: client.clientId,
    });
  }

  const clientsById = uniqueIndex(realm.clients, (client) => client.clientId, 'clients', 'clientId');
  const usersByName = uniqueIndex(realm.users, (user) => user.username, 'users', 'username');
  const usersById = uniqueIndex(realm.users, (user) => user.id, 'users', 'id');
  const usersByEmail = new Map<string, UserAccount>();
  for (const user of realm.users) {
    if (user.email) usersByEmail.set(user.email.toLowerCase(), user);
  }
  const serviceAccounts = new Map<string, UserAccount>();
  for (const user of realm.users) {
    if (user.serviceAccountClientId === undefined) continue;
    if (!clientsById.has(user.serviceAccountClientId)) {
      throw new RealmFileError(
        `realm file: user ${JSON.stringify(user.username)} is the service account of the unknown client ${JSON.stringify(user.serviceAccountClientId)}`,
      );
    }
    serviceAccounts.set(user.serviceAccountClientId, user);
  }

  return {
    ...realm,
    findClient: (clientId) => clientsById.get(clientId),
    findUserById: (id) => usersById.get(id),
    findUserForLogin: (usernameOrEmail) => {
      const key = usernameOrEmail.trim().toLowerCase();
      return usersByName.get(key) ?? usersByEmail.get(key);
    },
    serviceAccountOf: (clientId) => serviceAccounts.get(clientId),
  };
}

function readBruteForce(root: Record<string, unknown>): BruteForceSettings {
  const defaults = KEYCLOAK_BRUTE_FORCE_DEFAULTS;
  const strategy = root['bruteForceStrategy'] ?? defaults.bruteForceStrategy;
  if (strategy !== 'MULTIPLE' && strategy !== 'LINEAR')
    fail('bruteForceStrategy', '"MULTIPLE" or "LINEAR"', strategy);
  const count = (name: keyof BruteForceSettings & string) =>
    positiveInteger(root[name], name, defaults[name] as number);
  return {
    bruteForceProtected: optionalBoolean(root['bruteForceProtected'], 'bruteForceProtected') ?? false,
    permanentLockout: optionalBoolean(root['permanentLockout'], 'permanentLockout') ?? false,
    failureFactor: count('failureFactor'),
    bruteForceStrategy: strategy as BruteForceSettings['bruteForceStrategy'],
    waitIncrementSeconds: count('waitIncrementSeconds'),
    quickLoginCheckMilliSeconds: nonNegativeInteger(
      root['quickLoginCheckMilliSeconds'],
      'quickLoginCheckMilliSeconds',
      defaults.quickLoginCheckMilliSeconds,
    ),
    minimumQuickLoginWaitSeconds: count('minimumQuickLoginWaitSeconds'),
    maxFailureWaitSeconds: count('maxFailureWaitSeconds'),
    maxDeltaTimeSeconds: count('maxDeltaTimeSeconds'),
  };
}

function readRoles(value: unknown): ReadonlySet<string> {
  if (value === undefined) return new Set();
  const roles = object(value, 'roles');
  return new Set(
    list(roles['realm'], 'roles.realm').map((role, index) =>
      string(object(role, `roles.realm[${index}]`)['name'], `roles.realm[${index}].name`),
    ),
  );
}

function readUser(value: unknown, at: string, roles: ReadonlySet<string>): UserAccount {
  const entry = object(value, at);
  // Keycloak stores usernames in lower case, whatever the file says.
  const username = string(entry['username'], `${at}.username`).toLowerCase();
  const label = `${at} (${JSON.stringify(username)})`;
  const attributes: Record<string, string[]> = {};
  if (entry['attributes'] !== undefined) {
    for (const [key, values] of Object.entries(object(entry['attributes'], `${label}.attributes`))) {
      attributes[key] = stringList(values, `${label}.attributes.${key}`);
    }
  }
  let password: string | undefined;
  list(entry['credentials'], `${label}.credentials`).forEach((credential, index) => {
    const record = object(credential, `${label}.credentials[${index}]`);
    if (record['type'] !== 'password') return;
    if (record['temporary'] === true) {
      throw new RealmFileError(
        `realm file: ${label}.credentials[${index}] is a temporary password; the development identity provider cannot ask for a new one`,
      );
    }
    if (typeof record['value'] === 'string') password = record['value'];
  });
  const realmRoles = stringList(entry['realmRoles'] ?? [], `${label}.realmRoles`);
  for (const role of realmRoles) {
    if (!roles.has(role)) {
      throw new RealmFileError(
        `realm file: ${label}.realmRoles names the role ${JSON.stringify(role)}, which the realm does not define`,
      );
    }
  }
  const user: UserAccount = {
    id: optionalString(entry['id'], `${label}.id`) ?? stableUuid(`user:${username}`),
    username,
    enabled: optionalBoolean(entry['enabled'], `${label}.enabled`) ?? false,
    emailVerified: optionalBoolean(entry['emailVerified'], `${label}.emailVerified`) ?? false,
    attributes,
    realmRoles,
  };
  const email = optionalString(entry['email'], `${label}.email`);
  if (email !== undefined) user.email = email.toLowerCase();
  const firstName = optionalString(entry['firstName'], `${label}.firstName`);
  if (firstName !== undefined) user.firstName = firstName;
  const lastName = optionalString(entry['lastName'], `${label}.lastName`);
  if (lastName !== undefined) user.lastName = lastName;
  if (password !== undefined) user.password = password;
  const serviceAccountClientId = optionalString(
    entry['serviceAccountClientId'],
    `${label}.serviceAccountClientId`,
  );
  if (serviceAccountClientId !== undefined) user.serviceAccountClientId = serviceAccountClientId;
  return user;
}

function readClient(value: unknown, at: string): Client {
  const entry = object(value, at);
  const clientId = string(entry['clientId'], `${at}.clientId`);
  const label = `${at} (${JSON.stringify(clientId)})`;
  const attributes: Record<string, string> = {};
  if (entry['attributes'] !== undefined) {
    for (const [key, attribute] of Object.entries(object(entry['attributes'], `${label}.attributes`))) {
      attributes[key] = string(attribute, `${label}.attributes.${key}`, true);
    }
  }
  const redirectUris = stringList(entry['redirectUris'] ?? [], `${label}.redirectUris`);
  for (const uri of redirectUris) {
    if (!isAbsoluteUrlPattern(uri)) {
      throw new RealmFileError(
        `realm file: ${label}.redirectUris holds ${JSON.stringify(uri)}; the development identity provider needs absolute URIs`,
      );
    }
  }
  const client: Client = {
    clientId,
    enabled: optionalBoolean(entry['enabled'], `${label}.enabled`) ?? true,
    publicClient: optionalBoolean(entry['publicClient'], `${label}.publicClient`) ?? false,
    standardFlowEnabled:
      optionalBoolean(entry['standardFlowEnabled'], `${label}.standardFlowEnabled`) ?? true,
    directAccessGrantsEnabled:
      optionalBoolean(entry['directAccessGrantsEnabled'], `${label}.directAccessGrantsEnabled`) ?? false,
    serviceAccountsEnabled:
      optionalBoolean(entry['serviceAccountsEnabled'], `${label}.serviceAccountsEnabled`) ?? false,
    redirectUris,
    webOrigins: resolveWebOrigins(stringList(entry['webOrigins'] ?? [], `${label}.webOrigins`), redirectUris),
    postLogoutRedirectUris: resolvePostLogoutUris(attributes['post.logout.redirect.uris'], redirectUris),
    attributeMappers: list(entry['protocolMappers'], `${label}.protocolMappers`).flatMap((mapper, index) =>
      readMapper(mapper, `${label}.protocolMappers[${index}]`),
    ),
  };
  const secret = optionalString(entry['secret'], `${label}.secret`);
  if (secret !== undefined) client.secret = secret;
  const pkceMethod = attributes['pkce.code.challenge.method'];
  if (pkceMethod) client.pkceMethod = pkceMethod;
  if (!client.publicClient && client.secret === undefined) {
    throw new RealmFileError(
      `realm file: ${label} is confidential (publicClient is not true) but has no secret`,
    );
  }
  return client;
}

function readMapper(value: unknown, at: string): AttributeClaimMapper[] {
  const entry = object(value, at);
  // Other mapper types change nothing the development identity provider issues.
  if (entry['protocolMapper'] !== USER_ATTRIBUTE_MAPPER) return [];
  const config = object(entry['config'], `${at}.config`);
  const flag = (key: string, fallback: boolean) => {
    const setting = config[key];
    return setting === undefined ? fallback : setting === 'true' || setting === true;
  };
  return [
    {
      userAttribute: string(config['user.attribute'], `${at}.config["user.attribute"]`),
      claimName: string(config['claim.name'], `${at}.config["claim.name"]`),
      accessToken: flag('access.token.claim', true),
      idToken: flag('id.token.claim', true),
      userinfo: flag('userinfo.token.claim', true),
      multivalued: flag('multivalued', false),
    },
  ];
}

function resolveWebOrigins(webOrigins: string[], redirectUris: string[]): string[] {
  const origins = new Set<string>();
  for (const origin of webOrigins) {
    if (origin !== '+') {
      origins.add(origin);
      continue;
    }
    for (const uri of redirectUris) {
      const parsed = URL.canParse(uri.replace(/\*$/, '')) ? new URL(uri.replace(/\*$/, '')) : undefined;
      if (parsed) origins.add(parsed.origin);
    }
  }
  return [...origins];
}

function resolvePostLogoutUris(setting: string | undefined, redirectUris: string[]): string[] {
  if (!setting) return [];
  return setting
    .split('##')
    .filter((uri) => uri.length > 0)
    .flatMap((uri) => (uri === '+' ? redirectUris : [uri]));
}

function isAbsoluteUrlPattern(uri: string): boolean {
  const withoutWildcard = uri.endsWith('*') ? uri.slice(0, -1) : uri;
  return URL.canParse(withoutWildcard) && /^https?:\/\//.test(withoutWildcard);
}

function uniqueIndex<T>(
  items: readonly T[],
  key: (item: T) => string,
  what: string,
  member: string,
): Map<string, T> {
  const index = new Map<string, T>();
  for (const item of items) {
    if (index.has(key(item))) {
      throw new RealmFileError(`realm file: two ${what} have the ${member} ${JSON.stringify(key(item))}`);
    }
    index.set(key(item), item);
  }
  return index;
}

function fail(at: string, expected: string, value: unknown): never {
  const got = value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value;
  throw new RealmFileError(`realm file: ${at} must be ${expected}, got ${got}`);
}

function object(value: unknown, at: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(at, 'an object', value);
  return value as Record<string, unknown>;
}

function list(value: unknown, at: string): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(at, 'a list', value);
  return value as unknown[];
}

function string(value: unknown, at: string, allowEmpty = false): string {
  if (typeof value !== 'string' || (!allowEmpty && value.length === 0)) fail(at, 'a non-empty string', value);
  return value as string;
}

function optionalString(value: unknown, at: string): string | undefined {
  return value === undefined || value === null ? undefined : string(value, at, true);
}

function stringList(value: unknown, at: string): string[] {
  return list(value, at).map((item, index) => string(item, `${at}[${index}]`, true));
}

function optionalBoolean(value: unknown, at: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') fail(at, 'true or false', value);
  return value as boolean;
}

function positiveInteger(value: unknown, at: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0)
    fail(at, 'a positive integer', value);
  return value as number;
}

function nonNegativeInteger(value: unknown, at: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) fail(at, 'a whole number', value);
  return value as number;
}
