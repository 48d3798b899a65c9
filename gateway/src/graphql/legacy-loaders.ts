import { setMaxListeners } from 'node:events';
import DataLoader from 'dataloader';
import { LegacyResponseError, type LegacyCall, type LegacyClient } from '../legacy/legacy-client.js';

/** A legacy record as JSON; the org graph's types mirror the legacy shapes, so fields read straight through. */
export type LegacyRecord = { uuid: string; [field: string]: unknown };

export type DetailType = 'engagement' | 'manager' | 'owner' | 'it';

export interface DetailQuery {
  at: string;
  validity?: 'present' | 'past' | 'future';
  inherit?: boolean;
}

export interface LegacyLoaderOptions {
  signal?: AbortSignal;
  onCall?: (call: LegacyCall) => void;
  /** Shares the organisation's UUID between requests (see `createOrganisationCache`). */
  organisation?: OrganisationCache;
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

const query = (params: Record<string, string | number | boolean | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== false) search.set(key, value === true ? '1' : String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
};

/**
 * Per-GraphQL-request access to the legacy reads: every distinct GET is made once (DataLoader keyed by
 * path), and all loads started in the same tick go out together. Calls are numbered by round: a call
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
  const issue = async <T>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    signal = options.signal,
  ): Promise<T> => {
    if (inFlight === 0 && round === lastFinishedRound) round += 1;
    const myRound = round;
    const startedMs = performance.now() - created;
    inFlight += 1;
    try {
      return await client.json<T>({
        method,
        path,
        body,
        signal,
        onCall: (call) => options.onCall?.({ ...call, round: myRound, started_ms: startedMs }),
      });
    } finally {
      inFlight -= 1;
      lastFinishedRound = myRound;
    }
  };

  const gets = new DataLoader<string, unknown>(
    (paths) => Promise.all(paths.map((path) => issue('GET', path).catch((error: unknown) => error as Error))),
    { maxBatchSize: 256 },
  );

  const get = <T>(path: string) => gets.load(path) as Promise<T>;
  /** The record, or null when the legacy service answers 404 for it. */
  const getOrNull = async <T>(path: string): Promise<T | null> => {
    try {
      return await get<T>(path);
    } catch (error) {
      if (error instanceof LegacyResponseError && error.status === 404) return null;
      throw error;
    }
  };

  const firstOrganisation = (organisations: LegacyRecord[]): string => {
    const first = organisations[0];
    if (!first) throw new Error('The legacy service holds no organisation.');
    return first.uuid;
  };
  // A shared lookup is not tied to this request's signal: the requests waiting on it must not fail
  // because the one that started it went away.
  const organisationUuid = async (): Promise<string> =>
    options.organisation
      ? options.organisation(async () =>
          firstOrganisation(await issue<LegacyRecord[]>('GET', '/service/o/', undefined, undefined)),
        )
      : firstOrganisation(await get<LegacyRecord[]>('/service/o/'));

  return {
    get,
    post: <T>(path: string, body: unknown) => issue<T>('POST', path, body),
    organisationUuid,
    orgUnit: (uuid: string, at: string) => getOrNull<LegacyRecord>(`/service/ou/${uuid}/${query({ at })}`),
    employee: (uuid: string, at: string) => getOrNull<LegacyRecord>(`/service/e/${uuid}/${query({ at })}`),
    children: (uuid: string, at: string) =>
      get<LegacyRecord[]>(`/service/ou/${uuid}/children${query({ at })}`),
    unitDetails: (type: DetailType, uuid: string, detail: DetailQuery) =>
      get<LegacyRecord[]>(
        `/service/ou/${uuid}/details/${type}${query({
          at: detail.at,
          validity: detail.validity === 'present' ? undefined : detail.validity,
          inherit_manager: type === 'manager' && detail.inherit,
          inherit_owner: type === 'owner' && detail.inherit,
        })}`,
      ),
    employeeDetails: (type: DetailType, uuid: string, detail: DetailQuery) =>
      get<LegacyRecord[]>(
        `/service/e/${uuid}/details/${type}${query({
          at: detail.at,
          validity: detail.validity === 'present' ? undefined : detail.validity,
        })}`,
      ),
    classWithFacet: (uuid: string) => getOrNull<LegacyRecord>(`/service/c/${uuid}/`),
    orgUnitPage: async (at: string, start: number, limit: number) =>
      get<{ items: LegacyRecord[]; offset: number; total: number }>(
        `/service/o/${await organisationUuid()}/ou/${query({ at, start, limit })}`,
      ),
    employeePage: async (at: string, start: number, limit: number) =>
      get<{ items: LegacyRecord[]; offset: number; total: number }>(
        `/service/o/${await organisationUuid()}/e/${query({ at, start, limit })}`,
      ),
    itSystems: async () => get<LegacyRecord[]>(`/service/o/${await organisationUuid()}/it/`),
    facets: async () => get<LegacyRecord[]>(`/service/o/${await organisationUuid()}/f/`),
    facet: async (key: string) =>
      getOrNull<LegacyRecord & { data: { items: LegacyRecord[] } }>(
        `/service/o/${await organisationUuid()}/f/${key}/`,
      ),
  };
}

export type LegacyLoaders = ReturnType<typeof createLegacyLoaders>;
