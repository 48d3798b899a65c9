import type { Principal } from '../auth/token-verifier.js';
import type { CprRequestIds } from '../cpr/cpr-policy.js';
import type { EventStore } from '../events/event-store.js';
import type { CprSearchTally } from '../cpr/cpr-search.js';
import type { LegacyCall } from '../legacy/legacy-client.js';
import type { LegacyLoaders } from '../legacy/legacy-loaders.js';
import type { Logger } from '../observability/logger.js';

/** What every resolver of one GraphQL request shares. */
export interface GraphQLContext {
  legacy: LegacyLoaders;
  principal: Principal;
  /** Today's date, fixed for the whole request. */
  today: string;
  /** The legacy calls made so far, for the opt-in upstream trace. */
  calls: LegacyCall[];
  /** The request's logger (with its request id), for what must be on record, such as a CPR number read. */
  log?: Logger;
  /** Whether this request is served CPR numbers, and the ids its CPR lines carry (`CPR_READ_ROLES`). */
  cpr?: GraphQLCpr;
  /** OS2mo's event system: the store (none without `DATABASE_URL`), and whether RBAC guards refreshes. */
  events?: GraphQLEvents;
}

export interface GraphQLEvents {
  store: EventStore | undefined;
  rbacEnabled: boolean;
}

/** CPR numbers in one GraphQL request. */
export interface GraphQLCpr {
  mayRead: boolean;
  /** The same for every line of the request. */
  ids: CprRequestIds;
  /** What the request's filters searched by CPR number, logged once when it is done (`useCprSearches`). */
  search?: CprSearchTally;
}

/** A legacy record handed to a resolver, with the date its links are read as of. */
export type Source = { uuid: string; __at: string; [field: string]: unknown };

export function withDate<T extends { uuid: string }>(record: T, at: string): Source {
  return { ...record, __at: at } as Source;
}
