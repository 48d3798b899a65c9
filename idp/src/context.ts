import type { AuthorizationCodes } from './authorization-codes.js';
import type { LoginThrottle } from './brute-force.js';
import type { Clock } from './clock.js';
import type { KeyStore } from './keys.js';
import type { Realm } from './realm.js';
import type { RevokedTokens } from './revoked-tokens.js';
import type { SessionStore } from './sessions.js';

/** Everything the endpoints share, created once per identity provider. */
export interface IdpContext {
  realm: Realm;
  /** `{auth_url}/auth/realms/{realm}`: the `iss` of every token. */
  issuer: string;
  /** The path of the realm's endpoints: `/auth/realms/{realm}`. */
  realmPath: string;
  keys: KeyStore;
  sessions: SessionStore;
  codes: AuthorizationCodes;
  /** Brute-force detection for password logins, as the realm file configures it. */
  throttle: LoginThrottle;
  /** Access tokens revoked through the revocation endpoint, until they expire. */
  revokedTokens: RevokedTokens;
  now: Clock;
  /** Whether cookies get the Secure flag: only when the public URL is https. */
  secureCookies: boolean;
}
