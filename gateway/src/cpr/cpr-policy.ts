import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/principal.js';

/**
 * Who is served CPR numbers (`CPR_READ_ROLES`, `CPR_READ_CLIENTS`). Both unset: every authenticated
 * reader, as OS2mo serves them. Either set: only a token with one of the roles or from one of the clients;
 * everyone else gets answers without the numbers and no lookup by number.
 */
export interface CprReadPolicy {
  roles: readonly string[] | undefined;
  clients: readonly string[] | undefined;
  /** Most CPR numbers one request may search by (`CPR_MAX_NUMBERS_PER_REQUEST`; `defaultMaxCprNumbers`). */
  maxNumbersPerRequest?: number;
}

/** OS2mo's behaviour: every authenticated reader is served CPR numbers. */
export const everyoneReadsCpr: CprReadPolicy = { roles: undefined, clients: undefined };

/** Whether the policy restricts CPR numbers at all. */
export const cprRestricted = (policy: CprReadPolicy): boolean =>
  policy.roles !== undefined || policy.clients !== undefined;

/** Whether this token is served CPR numbers. */
export function mayReadCpr(policy: CprReadPolicy, principal: Principal | undefined): boolean {
  if (!cprRestricted(policy)) return true;
  if (principal === undefined) return false;
  if (policy.roles?.some((role) => principal.roles.includes(role))) return true;
  return principal.clientId !== undefined && policy.clients?.includes(principal.clientId) === true;
}

/**
 * The request ids a CPR line carries. The gateway adopts a client's well-formed `X-Request-Id` as the
 * request's id (so the client can join its logs with ours), which also lets a client give every request the
 * same id; `gateway_request_id` is therefore always one the gateway made: the request's id when the client
 * sent none it adopted, else a new one. `client_request_id` is what the client sent, if anything.
 */
export interface CprRequestIds {
  gateway_request_id: string;
  client_request_id: string | null;
}

export function cprRequestIds(
  requestId: string | undefined,
  clientRequestId: string | null | undefined,
): CprRequestIds {
  const sent = clientRequestId ?? null;
  return {
    gateway_request_id: requestId === undefined || requestId === sent ? randomUUID() : requestId,
    // Bounded: a client's header is written to the log as it came.
    client_request_id: sent === null ? null : sent.slice(0, 255),
  };
}

/** Who read, for a CPR line: the token's subject and client. */
export const readerOf = (principal: Principal | undefined) => ({
  subject: principal?.subject ?? null,
  client: principal?.clientId ?? null,
});
