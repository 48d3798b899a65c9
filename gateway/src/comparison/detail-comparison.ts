import { legacyPaths, type DetailType } from '../legacy/legacy-paths.js';
import { ComparisonError, errorSentence } from './comparison-error.js';
import {
  comparedDetailTypes,
  detailField,
  detailNormalForm,
  detailSelection,
  type DetailOwner,
} from './detail-listings.js';
import { findDifferences, type Difference } from './differences.js';
import type { ComparisonTransport } from './gateway-transport.js';
import { field, isRecord, type NormalObject } from './normal-form.js';
import { os2moDocument, os2moRoad } from './os2mo-road.js';
import { rootObjects, type ComparisonVersion, type GraphQLRequestBody } from './subjects.js';

/** One detail listing's verdict: the `/service` path, its GraphQL field, how many records, equal or not. */
export interface DetailListingVerdict {
  owner: DetailOwner;
  uuid: string;
  type: DetailType;
  path: string;
  status: number;
  records: number;
  equal: boolean;
}

export interface DetailComparisonReport {
  owner: DetailOwner;
  version: ComparisonVersion;
  types: DetailType[];
  legacy: { requests: number; rounds: 1; bytes: number };
  graphql: { endpoint: string; request: GraphQLRequestBody; status: number; bytes: number };
  /**
   * Asked of v30, the detail types v30 cannot answer yet were asked of v2 in a second query: which, and why
   * (from OS2mo's schema and the served one).
   */
  fallback?: { endpoint: '/graphql/v2'; types: DetailType[]; reason: string; request: GraphQLRequestBody };
  listings: DetailListingVerdict[];
  /** The people the legacy records name (`person`): where a coverage report looks for people's data. */
  people: string[];
  verdict: { equal: boolean; differences: Difference[] };
}

/** The one query that answers every detail listing of the given units or people. */
export function detailQuery(
  owner: DetailOwner,
  types: readonly DetailType[],
  uuids: string[],
  version: ComparisonVersion,
): GraphQLRequestBody {
  if (version === 'v30') return os2moDocument(detailQuery(owner, types, uuids, 'v2'));
  const paged = version !== 'v1';
  const operationName = owner === 'org_units' ? 'OrgUnitDetailComparison' : 'EmployeeDetailComparison';
  const query = `query ${operationName}($uuids: [UUID!]${paged ? ', $limit: Int' : ''}) {
  ${owner}(filter: { uuids: $uuids }${paged ? ', limit: $limit' : ''}) {
    objects {
      uuid
      ${types.map((type) => detailSelection(owner, type)).join('\n      ')}
    }
  }
}
`;
  return { query, operationName, variables: paged ? { uuids, limit: Math.max(uuids.length, 1) } : { uuids } };
}

/** A listing's place in the comparable form is its GraphQL field: `org_units[<uuid>].addresses[<uuid>]`. */
const typeKey = detailField;

/**
 * Listings read at once: all of them are independent (one round), but a hundred units have 1,100 listings,
 * more than a legacy service should get in one burst.
 */
const maxParallelReads = 16;

/** `Promise.all` over `items` with at most `limit` calls running; results in the items' order. */
async function mapLimited<T, R>(items: T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await run(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Reads every detail listing of the units (or people) through `/service`, runs `betweenReads`, then asks the
 * one GraphQL query, and compares record by record: keyed by UUID, the fields both sides carry.
 *
 * @example
 * const report = await compareDetailListings({ owner: 'org_units', uuids, version: 'v2', transport });
 */
export async function compareDetailListings(options: {
  owner: DetailOwner;
  uuids: string[];
  version: ComparisonVersion;
  transport: ComparisonTransport;
  types?: readonly DetailType[];
  betweenReads?: () => void | Promise<void>;
}): Promise<DetailComparisonReport> {
  const { owner, version, transport } = options;
  const uuids = [...new Set(options.uuids)];
  const types = [...(options.types ?? comparedDetailTypes)];
  const pathOf = (uuid: string, type: DetailType) =>
    owner === 'org_units' ? legacyPaths.unitDetails(type, uuid) : legacyPaths.employeeDetails(type, uuid);

  const wanted = uuids.flatMap((uuid) => types.map((type) => ({ uuid, type })));
  const reads = await mapLimited(wanted, maxParallelReads, async ({ uuid, type }) => {
    const path = pathOf(uuid, type);
    const response = await transport.getService(path);
    if (response.status !== 200 && response.status !== 404) {
      const reason = errorSentence(response.body);
      throw new ComparisonError(
        response.status === 401 || response.status === 403 ? 'unauthorized' : 'failed',
        `GET ${path} answered ${response.status}${reason ? `: ${reason.replace(/\.$/, '')}` : ''}.`,
      );
    }
    return { uuid, type, path, ...response };
  });
  const legacy: NormalObject = {};
  for (const read of reads) {
    if (read.status === 404) continue;
    const entity = (legacy[read.uuid] ??= {}) as NormalObject;
    entity[typeKey(owner, read.type)] = detailNormalForm(read.type, 'legacy', read.body);
  }

  await options.betweenReads?.();

  // On v30, each type goes the OS2mo road when v30 serves what its listing needs, else to v2 with the reason.
  const roads = types.map((type) => ({
    type,
    road: version === 'v30' ? os2moRoad(detailQuery(owner, [type], uuids, 'v2')) : null,
  }));
  const fallbackTypes = roads.flatMap(({ type, road }) => (road?.version === 'v2' ? [type] : []));
  const asked = types.filter((type) => !fallbackTypes.includes(type));
  const graphql: NormalObject = {};
  const ask = async (askedVersion: ComparisonVersion, askedTypes: DetailType[]) => {
    const request = detailQuery(owner, askedTypes, uuids, askedVersion);
    const endpoint = `/graphql/${askedVersion}`;
    const response = await transport.postGraphQL(askedVersion, request);
    const reason = errorSentence(response.body);
    if (response.status !== 200 || !isRecord(field(response.body, 'data')) || reason !== undefined) {
      throw new ComparisonError(
        response.status === 401 || response.status === 403 ? 'unauthorized' : 'failed',
        `POST ${endpoint} answered ${response.status}${reason ? ` with the error "${reason}"` : ' without data'}.`,
      );
    }
    for (const object of rootObjects(askedVersion, field(field(response.body, 'data'), owner))) {
      if (typeof object['uuid'] !== 'string') continue;
      const entity = (graphql[object['uuid']] ??= {}) as NormalObject;
      for (const type of askedTypes) {
        const key = typeKey(owner, type);
        entity[key] = detailNormalForm(type, 'graphql', object[key]);
      }
    }
    return { endpoint, request, status: response.status, bytes: response.bytes };
  };
  const main = asked.length > 0 ? await ask(version, asked) : null;
  const fallback =
    fallbackTypes.length > 0 ? { ...(await ask('v2', fallbackTypes)), types: fallbackTypes } : null;
  const fallbackReasons = [
    ...new Set(roads.flatMap(({ road }) => (road?.version === 'v2' ? [road.reason] : []))),
  ];

  const differences = findDifferences({ [owner]: legacy }, { [owner]: graphql });
  const listings = reads.map((read): DetailListingVerdict => {
    const prefix = `${owner}[${read.uuid}]`;
    const key = typeKey(owner, read.type);
    const equal = !differences.some(
      (difference) =>
        difference.path === prefix ||
        difference.path === `${prefix}.${key}` ||
        difference.path.startsWith(`${prefix}.${key}[`) ||
        difference.path.startsWith(`${prefix}.${key}.`),
    );
    const records = Array.isArray(read.body) ? read.body.length : 0;
    return { owner, uuid: read.uuid, type: read.type, path: read.path, status: read.status, records, equal };
  });
  const people = new Set<string>();
  for (const read of reads) {
    for (const record of Array.isArray(read.body) ? read.body : []) {
      const uuid = field(field(record, 'person'), 'uuid');
      if (typeof uuid === 'string') people.add(uuid);
    }
  }
  return {
    owner,
    version,
    types,
    people: [...people],
    legacy: { requests: reads.length, rounds: 1, bytes: reads.reduce((sum, read) => sum + read.bytes, 0) },
    graphql: main ?? fallback!,
    ...(fallback
      ? {
          fallback: {
            endpoint: '/graphql/v2' as const,
            types: fallback.types,
            reason: fallbackReasons.join(' '),
            request: fallback.request,
          },
        }
      : {}),
    listings,
    verdict: { equal: differences.length === 0, differences },
  };
}
