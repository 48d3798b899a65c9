import { legacyPaths, type DetailType } from '../legacy/legacy-paths.js';
import { ComparisonError, errorSentence, statusReason } from './comparison-error.js';
import {
  comparedDetailTypes,
  detailCollectionSelection,
  detailField,
  detailNormalForm,
  detailSelection,
  type DetailOwner,
} from './detail-listings.js';
import { findDifferences, type Difference } from './differences.js';
import type { ComparisonTransport } from './gateway-transport.js';
import { field, isRecord, list, single, type NormalObject } from './normal-form.js';
import { getOperationAST, parse } from 'graphql';
import { weightedCost } from '../graphql/hardening/weighted-cost.js';
import {
  os2moData,
  os2moDocument,
  os2moRoad,
  servedV30Schema,
  type Os2moForm,
  type Os2moRoad,
} from './os2mo-road.js';
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
  /** The first GraphQL query asked (its endpoint, request and status), how many were asked, their bytes. */
  graphql: {
    endpoint: string;
    request: GraphQLRequestBody;
    status: number;
    requests: number;
    bytes: number;
  };
  /**
   * Asked of v30, the detail types v30 cannot answer yet were asked of v2 in a second query: which, and why
   * (from OS2mo's schema and the served one): each type's own reason, and all of them once each.
   */
  fallback?: {
    endpoint: '/graphql/v2';
    types: DetailType[];
    reasons: Partial<Record<DetailType, string>>;
    reason: string;
    request: GraphQLRequestBody;
  };
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

/**
 * A detail type's listings from OS2mo's record collection (`owners(filter: { employee: … })`), for an
 * owner whose own type has no field for them: each record goes to the unit or person it names, in the
 * shape the one detail query answers.
 */
export function detailCollectionForm(owner: DetailOwner, type: DetailType, uuids: string[]): Os2moForm {
  const key = detailField(owner, type);
  const collection = detailField('org_units', type);
  const request = os2moDocument({
    operationName: 'DetailCollectionComparison',
    query: `query DetailCollectionComparison($uuids: [UUID!]) { ${detailCollectionSelection(owner, type, '$uuids')} }`,
    variables: { uuids },
  });
  return {
    request,
    asV2: (data) => {
      const records = rootObjects('v2', field(data, collection));
      const objects = uuids.map((uuid) => ({
        uuid,
        [key]: records
          .filter((record) => field(single(record['owned_by']), 'uuid') === uuid)
          .map(({ owned_by: _owner, ...rest }) => rest),
      }));
      return { [owner]: { objects } };
    },
  };
}

/** The road of one detail type's listings on v30: the one detail query's part, or the collection form. */
export const detailRoad = (owner: DetailOwner, type: DetailType, uuids: string[]): Os2moRoad =>
  os2moRoad(detailQuery(owner, [type], uuids, 'v2'), undefined, [detailCollectionForm(owner, type, uuids)]);

/**
 * The weighted cost (the gateway's cost model) one v30 detail query may have: half the default
 * `GRAPHQL_MAX_COST` (20,000), so a gateway set somewhat tighter still answers.
 */
export const detailQueryBudget = 10_000;

const v30Cost = (request: GraphQLRequestBody) => {
  const document = parse(request.query);
  const operation = getOperationAST(document);
  if (!operation) return 0;
  return weightedCost({ schema: servedV30Schema(), document, operation, variables: request.variables });
};

/**
 * Detail types in order, packed into as few v30 queries as stay within `detailQueryBudget` for these units
 * or people (a type over the budget alone is asked alone).
 */
export function packedTypes(
  owner: DetailOwner,
  types: readonly DetailType[],
  uuids: string[],
): DetailType[][] {
  const groups: DetailType[][] = [];
  for (const type of types) {
    const last = groups.at(-1);
    if (last && v30Cost(detailQuery(owner, [...last, type], uuids, 'v30')) <= detailQueryBudget)
      last.push(type);
    else groups.push([type]);
  }
  return groups;
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
        statusReason(response.status),
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

  // On v30, each type goes the OS2mo road when v30 serves what its listing needs (in the one detail query,
  // or from OS2mo's record collection), else to v2 with its own reason.
  const roads = types.map((type) => ({
    type,
    road: version === 'v30' ? detailRoad(owner, type, uuids) : null,
  }));
  const inQuery = (road: Os2moRoad | null) => road === null || (road.version === 'v30' && road.translated);
  const fallbackTypes = roads.flatMap(({ type, road }) => (road?.version === 'v2' ? [type] : []));
  const asked = roads.flatMap(({ type, road }) => (inQuery(road) ? [type] : []));
  const collected = roads.flatMap(({ type, road }) =>
    road?.version === 'v30' && !inQuery(road) ? [{ type, road }] : [],
  );
  const graphql: NormalObject = {};
  const post = async (askedVersion: ComparisonVersion, request: GraphQLRequestBody) => {
    const endpoint = `/graphql/${askedVersion}`;
    const response = await transport.postGraphQL(askedVersion, request);
    const reason = errorSentence(response.body);
    if (response.status !== 200 || !isRecord(field(response.body, 'data')) || reason !== undefined) {
      throw new ComparisonError(
        statusReason(response.status),
        `POST ${endpoint} answered ${response.status}${reason ? ` with the error "${reason}"` : ' without data'}.`,
      );
    }
    return {
      endpoint,
      request,
      status: response.status,
      bytes: response.bytes,
      data: field(response.body, 'data'),
    };
  };
  const record = (objects: Record<string, unknown>[], askedTypes: DetailType[]) => {
    for (const object of objects) {
      if (typeof object['uuid'] !== 'string') continue;
      const entity = (graphql[object['uuid']] ??= {}) as NormalObject;
      for (const type of askedTypes) {
        const key = typeKey(owner, type);
        entity[key] = detailNormalForm(type, 'graphql', object[key]);
      }
    }
  };
  const ask = async (askedVersion: ComparisonVersion, askedTypes: DetailType[]) => {
    const { data, ...answered } = await post(
      askedVersion,
      detailQuery(owner, askedTypes, uuids, askedVersion),
    );
    record(rootObjects(askedVersion, field(data, owner)), askedTypes);
    return answered;
  };
  const answers: Omit<Awaited<ReturnType<typeof post>>, 'data'>[] = [];
  // On v30 the types are asked in queries the gateway's cost limit admits (OS2mo's records weigh more).
  for (const group of version === 'v30' ? packedTypes(owner, asked, uuids) : [asked]) {
    if (group.length > 0) answers.push(await ask(version, group));
  }
  for (const { type, road } of collected) {
    if (road.version !== 'v30') continue;
    const { data, ...answered } = await post('v30', road.request);
    record(list(field(field(road.asV2(os2moData(data)), owner), 'objects')).filter(isRecord), [type]);
    answers.push(answered);
  }
  const fallback =
    fallbackTypes.length > 0 ? { ...(await ask('v2', fallbackTypes)), types: fallbackTypes } : null;
  if (fallback) answers.push(fallback);
  const fallbackReasons = Object.fromEntries(
    roads.flatMap(({ type, road }) => (road?.version === 'v2' ? [[type, road.reason]] : [])),
  ) as Partial<Record<DetailType, string>>;

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
    graphql: {
      ...answers[0]!,
      requests: answers.length,
      bytes: answers.reduce((sum, answer) => sum + answer.bytes, 0),
    },
    ...(fallback
      ? {
          fallback: {
            endpoint: '/graphql/v2' as const,
            types: fallback.types,
            reasons: fallbackReasons,
            reason: [...new Set(Object.values(fallbackReasons))].join(' '),
            request: fallback.request,
          },
        }
      : {}),
    listings,
    verdict: { equal: differences.length === 0, differences },
  };
}
