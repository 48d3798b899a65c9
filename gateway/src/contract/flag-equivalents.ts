import { contractOperations } from './contract-operations.generated.js';
import { serviceAttributor } from './service-endpoints.js';

/**
 * What in GraphQL does what a `/service` query flag does, or `null` when nothing does (yet). One declared
 * list, as `not-covered.ts` is; a flag missing here has no equivalent. `validity` is listed per value: the
 * versions list past, present and future versions, but not an interval of two dates.
 */
export const flagEquivalents: Record<string, string | null> = {
  at: '`filter: { at }` (v2) / `filter: { from_date }` (v1)',
  'validity=present': '`validities(validity: PRESENT)`',
  'validity=past': '`validities(validity: PAST)`',
  'validity=future': '`validities(validity: FUTURE)`',
  'validity=interval': null,
  only_primary_uuid: 'select only `uuid` of the linked objects',
  inherit_manager: '`managers(inherit: true)`',
  inherit_owner: '`owners(inherit: true)`',
  start: '`limit` and `cursor`',
  limit: '`limit` and `cursor`',
  query: '`filter: { query }`',
  uuid: '`filter: { uuids }`',
  q: '`cpr_lookup(cpr_number:)`',
  calculate_primary: null,
  changed_since: null,
  first_party_perspective: null,
};

/** One flag an endpoint takes, what replaces it in GraphQL, and whether a sampled read with it was equal. */
export interface FlagCoverage {
  flag: string;
  graphql: string | null;
  /** A read with this flag was among the endpoint's equal samples. */
  proven: boolean;
}

const attribute = serviceAttributor(contractOperations);

/**
 * The flags of one contract operation (with `validity` split into its values) and their GraphQL equivalents;
 * a flag is proven when one of the endpoint's sampled reads used it and the endpoint was proven on them.
 */
export function flagCoverage(entry: {
  method: string;
  path: string;
  status: string;
  samples: readonly string[];
}): FlagCoverage[] {
  const endpoint = contractOperations.find(
    (candidate) => candidate.method === entry.method && candidate.path === entry.path,
  );
  if (endpoint === undefined) return [];
  const sampled = new Set(
    entry.status === 'proven'
      ? entry.samples.flatMap((sample) => {
          const url = new URL(sample, 'http://gateway');
          const { flags } = attribute(entry.method, url.pathname, url.searchParams);
          return flags === 'none' ? [] : flags.split(',');
        })
      : [],
  );
  return endpoint.flags
    .flatMap((flag) =>
      flag === 'validity'
        ? ['validity=present', 'validity=past', 'validity=future', 'validity=interval']
        : [flag],
    )
    .map((flag) => ({ flag, graphql: flagEquivalents[flag] ?? null, proven: sampled.has(flag) }));
}
