/**
 * The subset of Keycloak's realm import format (`RealmRepresentation`) that the realm builder writes and
 * the development identity provider reads. Member names are Keycloak's, so the file imports unchanged.
 */

export interface CredentialRepresentation {
  type: string;
  value?: string;
  temporary?: boolean;
}

export interface UserRepresentation {
  id?: string;
  username: string;
  enabled?: boolean;
  email?: string;
  emailVerified?: boolean;
  firstName?: string;
  lastName?: string;
  attributes?: Record<string, string[]>;
  credentials?: CredentialRepresentation[];
  realmRoles?: string[];
  serviceAccountClientId?: string;
  requiredActions?: string[];
}

export interface ProtocolMapperRepresentation {
  name: string;
  protocol: 'openid-connect';
  protocolMapper: string;
  consentRequired?: boolean;
  config: Record<string, string>;
}

export interface ClientRepresentation {
  clientId: string;
  name?: string;
  description?: string;
  enabled?: boolean;
  protocol?: 'openid-connect';
  publicClient?: boolean;
  clientAuthenticatorType?: string;
  secret?: string;
  standardFlowEnabled?: boolean;
  implicitFlowEnabled?: boolean;
  directAccessGrantsEnabled?: boolean;
  serviceAccountsEnabled?: boolean;
  fullScopeAllowed?: boolean;
  rootUrl?: string;
  baseUrl?: string;
  redirectUris?: string[];
  webOrigins?: string[];
  attributes?: Record<string, string>;
  protocolMappers?: ProtocolMapperRepresentation[];
}

export interface RoleRepresentation {
  name: string;
  description?: string;
}

export interface ComponentRepresentation {
  providerId: string;
  subComponents?: Record<string, ComponentRepresentation[]>;
  config: Record<string, string[]>;
}

export interface RealmRepresentation {
  realm: string;
  displayName?: string;
  enabled?: boolean;
  sslRequired?: 'all' | 'external' | 'none';
  registrationAllowed?: boolean;
  loginWithEmailAllowed?: boolean;
  duplicateEmailsAllowed?: boolean;
  resetPasswordAllowed?: boolean;
  editUsernameAllowed?: boolean;
  accessTokenLifespan?: number;
  accessCodeLifespan?: number;
  ssoSessionIdleTimeout?: number;
  ssoSessionMaxLifespan?: number;
  revokeRefreshToken?: boolean;
  refreshTokenMaxReuse?: number;
  bruteForceProtected?: boolean;
  permanentLockout?: boolean;
  maxTemporaryLockouts?: number;
  bruteForceStrategy?: 'MULTIPLE' | 'LINEAR';
  failureFactor?: number;
  waitIncrementSeconds?: number;
  quickLoginCheckMilliSeconds?: number;
  minimumQuickLoginWaitSeconds?: number;
  maxFailureWaitSeconds?: number;
  maxDeltaTimeSeconds?: number;
  roles?: { realm?: RoleRepresentation[] };
  users?: UserRepresentation[];
  clients?: ClientRepresentation[];
  components?: Record<string, ComponentRepresentation[]>;
}

export const REALM_NAME = 'org';
export const FRONTEND_CLIENT_ID = 'org-frontend';
export const INTEGRATION_CLIENT_ID = 'integration';
/** A second confidential client, so per-client usage shows two integrations out of the box. */
export const PAYROLL_CLIENT_ID = 'payroll';
/**
 * The development tools' own confidential client (the comparison CLI): `npm start` names it in the gateway's
 * `USAGE_TOOL_CLIENTS`, so its reads are counted apart from every integration's and pass a switch-off.
 */
export const DEV_TOOLS_CLIENT_ID = 'dev-tools';
export const SERVICE_ACCOUNT_PREFIX = 'service-account-';
export const USER_PROFILE_PROVIDER = 'org.keycloak.userprofile.UserProfileProvider';
export const USER_ATTRIBUTE_MAPPER = 'oidc-usermodel-attribute-mapper';
