/** Who sent a request, as far as the gateway cares: RBAC reads roles and the employee UUID. */
export interface Principal {
  subject: string;
  username: string | undefined;
  clientId: string | undefined;
  roles: string[];
  /** The employee UUID of the `uuid` claim, when present. */
  employeeUuid: string | undefined;
  /** The token's `email` claim, when present (OS2mo's `me` answers it). */
  email?: string;
}
