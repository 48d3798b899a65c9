import type { Client, Realm, UserAccount } from './realm.js';

type MapperTarget = 'accessToken' | 'idToken' | 'userinfo';

/** The `profile` and `email` scopes' claims, in Keycloak's order; absent values are left out. */
export function profileClaims(user: UserAccount): Record<string, unknown> {
  const claims: Record<string, unknown> = { email_verified: user.emailVerified };
  const name = [user.firstName, user.lastName].filter((part) => part !== undefined && part !== '').join(' ');
  if (name) claims['name'] = name;
  claims['preferred_username'] = user.username;
  if (user.firstName) claims['given_name'] = user.firstName;
  if (user.lastName) claims['family_name'] = user.lastName;
  if (user.email) claims['email'] = user.email;
  return claims;
}

/** Claims from the client's `oidc-usermodel-attribute-mapper`s (the employee `uuid`, when RBAC is on). */
export function mappedClaims(
  client: Client,
  user: UserAccount,
  target: MapperTarget,
): Record<string, unknown> {
  const claims: Record<string, unknown> = {};
  for (const mapper of client.attributeMappers) {
    if (!mapper[target]) continue;
    const values = user.attributes[mapper.userAttribute];
    if (!values || values.length === 0) continue;
    claims[mapper.claimName] = mapper.multivalued ? [...values] : values[0];
  }
  return claims;
}

/** `realm_access` exists only when the realm defines roles, which the realm builder does only with RBAC on. */
export function realmAccessClaim(realm: Realm, user: UserAccount): Record<string, unknown> {
  if (realm.roles.size === 0) return {};
  return { realm_access: { roles: user.realmRoles.filter((role) => realm.roles.has(role)) } };
}

export function allowedOriginsClaim(client: Client): Record<string, unknown> {
  return client.webOrigins.length === 0 ? {} : { 'allowed-origins': [...client.webOrigins] };
}
