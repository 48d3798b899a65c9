import { readFileSync } from 'node:fs';
import { loadRealm, type Realm } from './realm.js';
import {
  buildRealm,
  DEFAULT_DEV_TOOLS_CLIENT_SECRET,
  DEFAULT_GATEWAY_PUBLIC_URL,
  DEFAULT_INTEGRATION_CLIENT_SECRET,
  DEFAULT_PAYROLL_CLIENT_SECRET,
  type RealmBuilderOptions,
} from './realm-builder.js';
import { DEV_REALM_USERS_FILE } from './realm-env.js';
import { parseRealmUsers } from './realm-users.js';

/**
 * The development realm `org` as the identity provider loads it: by default the users of
 * idp/dev-realm-users.json, RBAC off, the development secrets and gateway address.
 */
export function developmentRealm(overrides: Partial<RealmBuilderOptions> = {}): Realm {
  return loadRealm(
    buildRealm({
      users:
        overrides.users ?? parseRealmUsers(readFileSync(DEV_REALM_USERS_FILE, 'utf8'), DEV_REALM_USERS_FILE),
      rbacEnabled: overrides.rbacEnabled ?? false,
      integrationClientSecret: overrides.integrationClientSecret ?? DEFAULT_INTEGRATION_CLIENT_SECRET,
      payrollClientSecret: overrides.payrollClientSecret ?? DEFAULT_PAYROLL_CLIENT_SECRET,
      devToolsClientSecret: overrides.devToolsClientSecret ?? DEFAULT_DEV_TOOLS_CLIENT_SECRET,
      gatewayPublicUrl: overrides.gatewayPublicUrl ?? DEFAULT_GATEWAY_PUBLIC_URL,
    }),
  );
}
