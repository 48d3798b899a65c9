import { setMaxListeners } from 'node:events';
import DataLoader from 'dataloader';
import {
  LegacyBudgetExceededError,
  LegacyResponseError,
  type LegacyCall,
  type LegacyClient,
} from './legacy-client.js';
import type { TraceContext } from '../observability/tracing.js';
import { isAbsentPath } from './legacy-errors.js';
import { legacyPaths, type DetailType } from './legacy-paths.js';
import type { Whereabouts, WriteHook } from './backend-hooks.js';

import type {
  AddressRecord,
  AssociationRecord,
  EngagementAssociationRecord,
  KleRecord,
  LeaveRecord,
  RelatedUnitRecord,
  RoleRecord,
  ClassWithFacetRecord,
  EmployeePageRecord,
  EmployeeRecord,
  EngagementRecord,
  FacetRecord,
  FacetWithClassesRecord,
  ItSystemRecord,
  ItUserRecord,
  ManagerRecord,
  OrganisationRecord,
  OrgUnitListItemRecord,
  OrgUnitPageRecord,
  OrgUnitRecord,
  OwnerRecord,
  EmployeeVersionRecord,
  ClassChildRecord,
  ServiceVersionRecord,
} from './contract-records.generated.js';

export { detailTypes, type DetailType } from './legacy-paths.js';

/** The record type of each detail listing (`/details/{type}`), as the contract defines it. */
export interface DetailRecords {
  engagement: EngagementRecord;
  manager: ManagerRecord;
  owner: OwnerRecord;
  it: ItUserRecord;
  address: AddressRecord;
  association: AssociationRecord;
  role: RoleRecord;
  leave: LeaveRecord;
  kle: KleRecord;
  related_unit: RelatedUnitRecord;
  engagement_association: EngagementAssociationRecord;
}

/**
 * Any legacy record, for code that reads records of several types alike (the loaders' own reads are typed by
 * the contract's records, which are all assignable to it).
 */
export type LegacyRecord = { uuid: string; [field: string]: unknown };

export interface DetailQuery {
  at: string;
  validity?: 'present' | 'past' | 'future';
  inherit?: boolean;
  /** Engagements only: the Service API marks each person's primary one (`calculate_primary=1`). */
  calculatePrimary?: boolean;
}

export interface LegacyLoaderOptions {
  signal?: AbortSignal;
  onCall?: (call: LegacyCall) => void;
  /** Shares the organisation's UUID between requests (see `createOrganisationCache`). */
  organisation?: OrganisationCache;
  /** The caller's `Authorization` header, sent on when `LEGACY_CREDENTIALS=relay`. */
  authorization?: string;
  /** Most legacy calls this request may make; past it, every further call fails without being made. */
  budget?: number;
  /** The gateway request's id, sent on every call as `X-Request-Id`. */
  requestId?: string;
  /** The gateway request's trace, the parent of every call's span. */
  trace?: TraceContext;
  /** Told of every write the backend accepted (the record of the backend, `DATABASE_URL`). */
  onWrite?: WriteHook;
  /** The record's word on whose an object is, for lookups by UUID; none without a database. */
  whereabouts?: Whereabouts;
}

/** Keeps a looked-up organisation UUID for the requests that follow. */
export type OrganisationCache = (lookUp: () => Promise<string>) => Promise<string>;

/**
 * The organisation's UUID, kept for `ttlMs` after a successful lookup. The legacy API has no way to change
 * or replace the organisation; only a restart on other data does, so a short time bounds how long a stale
 * UUID can last. Every page of units or employees starts from it, and without the cache each such query
 * would spend a dependent round trip on it. A failed lookup is not kept.
 *
 * @example
 * const organisation = createOrganisationCache(60_000);
 * const loaders = createLegacyLoaders(client, { organisation });
 */
export function createOrganisationCache(ttlMs: number, now: () => number = Date.now): OrganisationCache {
  let kept: { uuid: Promise<string>; until: number } | undefined;
  return (lookUp) => {
    if (kept && kept.until > now()) return kept.uuid;
    const uuid = lookUp();
    const entry = { uuid, until: now() + ttlMs };
    kept = entry;
    uuid.catch(() => {
      if (kept === entry) kept = undefined;
    });
    return uuid;
  };
}

/**
 * Per-request access to the legacy service: every distinct GET is made once (DataLoader keyed by path),
 * all loads started in the same tick go out together, every call carries the request's credential, and
 * no more than `budget` calls are made. Calls are numbered by round: a call
 * starts a new round when it was issued after an earlier call finished.
 */
export function createLegacyLoaders(client: LegacyClient, options: LegacyLoaderOptions = {}) {
  // Every legacy call of the request listens to its abort signal, and one request may make thousands at once
  // (an RBAC lookup reads every unit); listeners go when their call ends, so the count is bounded anyway.
  if (options.signal) setMaxListeners(0, options.signal);
  const created = performance.now();
  let round = 0;
  let lastFinishedRound = 0;
  let inFlight = 0;
  let made = 0;
  let overBudget = false;
  const budget = options.budget ?? Number.POSITIVE_INFINITY;
  const { onCall } = options;
  const issue = async <T>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    signal = options.signal,
    read: 'json' | 'bytes' = 'json',
  ): Promise<T> => {
    if (made >= budget) {
      overBudget = true;
      throw new LegacyBudgetExceededError();
    }
    made += 1;
    if (inFlight === 0 && round === lastFinishedRound) round += 1;
    const myRound = round;
    const startedMs = performance.now() - created;
    inFlight += 1;
    try {
      return (await client[read]({
        method,
        path,
        body,
        signal,
        authorization: options.authorization,
        requestId: options.requestId,
        trace: options.trace,
        onCall:
          onCall &&
          ((call) =>
            onCall({
              method: call.method,
              path: call.path,
              status: call.status,
              duration_ms: call.duration_ms,
              round: myRound,
              started_ms: startedMs,
            })),
      })) as T;
    } finally {
      inFlight -= 1;
      lastFinishedRound = myRound;
    }
  };

  /** GETs through a cache of their own: each distinct path is read once per cache. */
  const cachedGets = () => {
    const gets = new DataLoader<string, unknown>(
      (paths) =>
        Promise.all(paths.map((path) => issue('GET', path).catch((error: unknown) => error as Error))),
      { maxBatchSize: 256 },
    );
    return <T>(path: string) => gets.load(path) as Promise<T>;
  };
  const get = cachedGets();
  /** Export files by name, each downloaded once per request (`text_contents` and `base64_contents` share it). */
  const exportFiles = new DataLoader<string, Buffer>(
    (names) =>
      Promise.all(
        names.map((name) =>
          issue<Buffer>('GET', legacyPaths.exportFile(name), undefined, undefined, 'bytes').catch(
            (error: unknown) => error as Error,
          ),
        ),
      ),
    { maxBatchSize: 256 },
  );
  /** The record, or null when the legacy service answers 404 for it (or no record can have that key). */
  const getOrNull = async <T>(
    path: () => string | Promise<string>,
    through: <R>(path: string) => Promise<R> = get,
  ): Promise<T | null> => {
    try {
      const built = path();
      return await through<T>(typeof built === 'string' ? built : await built);
    } catch (error) {
      if (error instanceof LegacyResponseError && error.status === 404) return null;
      throw error;
    }
  };

  const firstOrganisation = (organisations: OrganisationRecord[]): string => {
    const first = organisations[0];
    if (!first) throw new Error('The legacy service holds no organisation.');
    return first.uuid;
  };
  // A shared lookup is not tied to this request's signal: the requests waiting on it must not fail
  // because the one that started it went away.
  const organisationUuid = async (): Promise<string> =>
    options.organisation
      ? options.organisation(async () =>
          firstOrganisation(
            await issue<OrganisationRecord[]>('GET', legacyPaths.organisations(), undefined, undefined),
          ),
        )
      : firstOrganisation(await get<OrganisationRecord[]>(legacyPaths.organisations()));

  /** The reads that place units and records in time, through one cache (`get`). */
  const ownershipReads = (through: <T>(path: string) => Promise<T>) => ({
    orgUnit: async (uuid: string, at: string) =>
      getOrNull<OrgUnitRecord>(() => legacyPaths.orgUnit(uuid, { at }), through),
    unitDetails: async <T extends DetailType>(type: T, uuid: string, detail: DetailQuery) =>
      through<DetailRecords[T][]>(
        legacyPaths.unitDetails(type, uuid, {
          at: detail.at,
          validity: detail.validity === 'present' ? undefined : detail.validity,
          inherit_manager: type === 'manager' && detail.inherit,
          inherit_owner: type === 'owner' && detail.inherit,
        }),
      ),
    employeeDetails: async <T extends DetailType>(type: T, uuid: string, detail: DetailQuery) =>
      through<DetailRecords[T][]>(
        legacyPaths.employeeDetails(type, uuid, {
          at: detail.at,
          validity: detail.validity === 'present' ? undefined : detail.validity,
          calculate_primary: type === 'engagement' && detail.calculatePrimary,
        }),
      ),
    /** The unit's versions (`details/org_unit`) before, on or after `at`. */
    orgUnitVersions: async (uuid: string, at: string, validity?: 'past' | 'present' | 'future') =>
      through<OrgUnitRecord[]>(
        legacyPaths.orgUnitVersions(uuid, { at, validity: validity === 'present' ? undefined : validity }),
      ),
    orgUnitPage: async (at: string, start: number, limit: number) =>
      through<OrgUnitPageRecord>(legacyPaths.orgUnitPage(await organisationUuid(), { at, start, limit })),
    /**
     * Every version of one detail record in force on `from` or after it, wherever it is, in one call: 2.4.0's
     * reading API, `/api/v1/{type}/by_uuid?uuid=…&validity={from}/infinity`. Undefined when the backend does not
     * answer the reading API (the path is not found); an unknown UUID is `[]`.
     */
    detailVersionsFrom: async (type: DetailType, uuid: string, from: string) => {
      try {
        return await through<LegacyRecord[]>(
          legacyPaths.readingByUuid(type, [uuid], { at: from, validity: `${from}/infinity` }),
        );
      } catch (error) {
        if (isAbsentPath(error)) return undefined;
        throw error;
      }
    },
    /** OS2mo 2.4.0 answers `org_unit: true` for a unit valid on any day (`detail_reading.py`, `list_details`). */
    unitExists: async (uuid: string) =>
      (await through<{ org_unit?: unknown }>(legacyPaths.unitDetailTypes(uuid))).org_unit === true,
  });

  return {
    get,
    post: async <T>(path: string, body: unknown) => {
      const answer = await issue<T>('POST', path, body);
      options.onWrite?.({ path, body, answer, authorization: options.authorization });
      return answer;
    },
    /**
     * Decides a write as `post` would, without sending it: a mutation that reads before it writes asks first,
     * so a refused user is refused as for the write, with nothing read. Allows all here; RBAC (`useRbac`)
     * replaces it with its decision.
     */
    judge: async (_path: string, _body: unknown): Promise<void> => {},
    /** The record's word on whose an object is (`DATABASE_URL`); undefined without one. */
    whereabouts: options.whereabouts,
    organisationUuid,
    ...ownershipReads(get),
    employee: async (uuid: string, at: string) =>
      getOrNull<EmployeeRecord>(() => legacyPaths.employee(uuid, { at })),
    children: async (uuid: string, at: string) =>
      get<OrgUnitListItemRecord[]>(legacyPaths.children(uuid, { at })),
    /** The person's versions in force at `at` (`details/employee`): a person record itself has no validity. */
    employeeVersions: async (uuid: string, at: string, validity?: 'past' | 'present' | 'future') =>
      get<EmployeeVersionRecord[]>(
        legacyPaths.employeeVersions(uuid, { at, validity: validity === 'present' ? undefined : validity }),
      ),
    classChildren: async (uuid: string) => get<ClassChildRecord[]>(legacyPaths.classChildren(uuid)),
    facetChildren: async (facet: string) => get<ClassChildRecord[]>(legacyPaths.facetChildren(facet)),
    classWithFacet: async (uuid: string) =>
      getOrNull<ClassWithFacetRecord>(() => legacyPaths.classWithFacet(uuid)),
    employeePage: async (at: string, start: number, limit: number) =>
      get<EmployeePageRecord>(legacyPaths.employeePage(await organisationUuid(), { at, start, limit })),
    version: async () => get<ServiceVersionRecord>(legacyPaths.version()),
    /** The names of the export files (OS2mo 2.4.0 `service/exports.py:14`). */
    exports: async () => get<string[]>(legacyPaths.exports()),
    /** One export file's bytes (OS2mo 2.4.0 `service/exports.py:45`). */
    exportFile: async (name: string) => exportFiles.load(name),
    itSystems: async () => get<ItSystemRecord[]>(legacyPaths.itSystems(await organisationUuid())),
    facets: async () => get<FacetRecord[]>(legacyPaths.facets(await organisationUuid())),
    facet: async (key: string) =>
      getOrNull<FacetWithClassesRecord>(async () => legacyPaths.facet(await organisationUuid(), key)),
    /** How many legacy calls this request has made. */
    callsMade: () => made,
    /** Whether the request wanted more calls than its budget allows. */
    overBudget: () => overBudget,
    /**
     * The reads RBAC decides on, through a cache of their own: they see the legacy service as it is now,
     * not as this request read it before, and they count in the same budget with the same credential and
     * signal. A GraphQL operation decides each of its mutations on such fresh reads.
     */
    freshOwnershipReads: () => ownershipReads(cachedGets()),
    /**
     * A GET through a cache of its own, for the reads a mutation decides on before it writes: nothing this
     * request read before answers them, and they answer none of the reads of the result after the write.
     */
    freshGets: () => cachedGets(),
  };
}

export type LegacyLoaders = ReturnType<typeof createLegacyLoaders>;
