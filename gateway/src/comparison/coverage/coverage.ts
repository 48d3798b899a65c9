import { detailTypes, legacyPaths, type DetailType } from '../../legacy/legacy-paths.js';
import { flagCoverage, type FlagCoverage } from '../../contract/flag-equivalents.js';
import { ComparisonError, errorSentence, statusReason } from '../comparison-error.js';
import { compareDetailListings } from '../detail-comparison.js';
import { detailField, type DetailOwner } from '../detail-listings.js';
import { findDifferences, type Difference } from '../differences.js';
import type { ComparisonTransport } from '../gateway-transport.js';
import {
  field,
  isRecord,
  keyedByUuid,
  list,
  textOf,
  validity,
  type JsonRecord,
  type NormalValue,
} from '../normal-form.js';
import { os2moData, os2moRoad, type Os2moForm } from '../os2mo-road.js';
import { shadowTarget } from '../shadow/shadow-targets.js';
import { rootObjects, type GraphQLRequestBody } from '../subjects.js';
import { contractOperations } from '../../contract/contract-operations.generated.js';
import { isServiceOperation, type ContractOperation } from '../../contract/contract-operations.js';
import { notCovered, writeMutations } from './not-covered.js';
import { writeReplacements, writeSentence, type WriteReplacement } from './write-replacements.js';
import { hierarchyChecks } from './hierarchy-checks.js';
import {
  detailEndpoint,
  newestReplacement,
  recordReplacements,
  v2Replacement,
  type NewestReplacement,
} from './replacements.js';
import type { CheckOutcome, EndpointCheck, RecordCheck } from './endpoint-check.js';
import { organisationChecks } from './organisation-checks.js';

export type { CheckOutcome, EndpointCheck, RecordCheck };

/**
 * - `proven`: a GraphQL query answers the endpoint, and on the current data the sampled `/service` reads and
 *   that query gave the same records (keyed by UUID, the fields both carry).
 * - `different`: it answers it, and the sample found a difference.
 * - `empty`: it answers it, and both sides were equal but empty on every sampled read: no record to compare.
 * - `not covered`: no GraphQL query answers it; `reason` says why.
 * - `write`: a write endpoint, out of the report's scope; `reason` names the mutation that replaces it.
 */
export type CoverageStatus = 'proven' | 'different' | 'empty' | 'not covered' | 'write';

export interface CoverageEntry {
  operationId: string;
  /** The query flags the contract gives the endpoint, what replaces each in GraphQL, and which were sampled. */
  flags?: FlagCoverage[];
  method: string;
  path: string;
  /** The GraphQL query that replaces the endpoint, in the shape of the version it is proven on, or `null`. */
  graphql: string | null;
  /**
   * For a read: the version the proof ran on. v30 (OS2mo's GraphQL) wherever the served v30 has what the
   * read needs; v2 otherwise, and `newest.reason` says why (derived from OS2mo's schema and the served one).
   * For a write: v30 when it names v30 mutations, each proven against it by the suite (`writeProof`, not
   * sampled here): the same change through `/service` and through the mutation leaves the same records.
   */
  proven_on?: 'v30' | 'v2';
  /** For a read: the query on the version it is proven on (as `graphql`), and on v2 the reason. */
  newest?: NewestReplacement;
  /** For a write: the v30 mutations replacing it, and each Service API body field's input field. */
  write?: WriteReplacement;
  status: CoverageStatus;
  /** What the sample showed, or why the endpoint is not covered. */
  reason: string;
  /** The `/service` reads compared that had records (for detail listings) or that were compared. */
  samples: string[];
  differences: Difference[];
  /**
   * Set when the contract says the listing can never hold a record (`x-always-empty`) and every sampled
   * read was equal and empty on both sides: then it is `proven`, on emptiness, and this says why it is empty.
   */
  emptyByContract?: string;
}

export interface CoverageReport {
  version: 'v30';
  meaning: string;
  endpoints: CoverageEntry[];
  totals: Record<CoverageStatus, number> & { reads: number };
}

export const coverageMeaning =
  "Covered: a GraphQL query on /graphql/v30 (OS2mo's GraphQL) answers the same records, or on /graphql/v2 " +
  "where the served v30 lacks what the read needs (the reason names what, from OS2mo's schema). Proven: on the current data, the " +
  'sampled /service reads and that query gave equal records (keyed by uuid, comparing the fields both ' +
  'sides carry). Empty: equal, but no sampled read had a record, so no record was compared. Not covered: ' +
  'no GraphQL query answers the endpoint; the reason says what to do instead. A listing the contract marks ' +
  'always empty (x-always-empty, with the reason) is proven when every sampled read was equal and empty. ' +
  "proven_on: the version each read's proof ran on; v30 answers are compared in OS2mo's shape (responses' " +
  '`current`, DateTime validities read as legacy days with the end inclusive), normalised once.';

export interface CoverageOptions {
  transport: ComparisonTransport;
  /** Listings with records each detail endpoint is proven on (default 3). */
  sampleSize?: number;
  /** Most units (and people) scanned for detail records (default 100). */
  scanLimit?: number;
  /** Runs after the legacy reads of the detail listings and before their GraphQL query (tests edit here). */
  betweenReads?: () => void | Promise<void>;
  operations?: readonly ContractOperation[];
  /**
   * Told how far the run is, one sentence at a time (the CLI shows it on a terminal): a run reads about
   * 1,300 times through the gateway, seconds on an idle machine and minutes on a busy one.
   */
  onProgress?: (sentence: string) => void;
}

async function serviceJson(transport: ComparisonTransport, path: string): Promise<unknown> {
  const response = await transport.getService(path);
  if (response.status !== 200) {
    const reason = errorSentence(response.body);
    throw new ComparisonError(
      statusReason(response.status),
      `GET ${path} answered ${response.status}${reason ? `: ${reason.replace(/\.$/, '')}` : ''}.`,
    );
  }
  return response.body;
}

async function graphqlOn(
  transport: ComparisonTransport,
  version: 'v2' | 'v30',
  request: GraphQLRequestBody,
): Promise<unknown> {
  const response = await transport.postGraphQL(version, request);
  const reason = errorSentence(response.body);
  if (response.status !== 200 || !isRecord(field(response.body, 'data')) || reason !== undefined) {
    throw new ComparisonError(
      statusReason(response.status),
      `POST /graphql/${version} answered ${response.status}${reason ? ` with the error "${reason}"` : ' without data'}.`,
    );
  }
  return field(response.body, 'data');
}

/** The versions one endpoint's check asked, and why any request went to v2. */
interface RoadLog {
  versions: Set<'v2' | 'v30'>;
  reasons: Set<string>;
}

/**
 * Asks a check's v2 request on the OS2mo road: v30 in OS2mo's shape (or the read's own v30 `forms`) when
 * served, v2 with the reason else; the answer in the v2 query's shape either way.
 */
type GraphQLAsk = (request: GraphQLRequestBody, forms?: readonly Os2moForm[]) => Promise<unknown>;

const roadAsk =
  (transport: ComparisonTransport, log: RoadLog): GraphQLAsk =>
  async (request, forms) => {
    const road = os2moRoad(request, undefined, forms);
    log.versions.add(road.version);
    if (road.version === 'v2') {
      log.reasons.add(road.reason);
      return graphqlOn(transport, 'v2', request);
    }
    return road.asV2(os2moData(await graphqlOn(transport, 'v30', road.request)));
  };

/** The text fields of a record, and its validity when asked. */
const textFields =
  (names: string[], withValidity = false) =>
  (record: JsonRecord): NormalValue => ({
    ...Object.fromEntries(names.map((name) => [name, textOf(record[name])])),
    ...(withValidity ? { validity: validity(record['validity']) } : {}),
  });

const uuidsOf = (records: unknown[]) =>
  records.map((record) => field(record, 'uuid')).filter((uuid): uuid is string => typeof uuid === 'string');

const byUuids = (root: string, selection: string, operation: string) => (uuids: string[]) => ({
  operationName: operation,
  query: `query ${operation}($uuids: [UUID!], $limit: Int) { ${root}(filter: { uuids: $uuids }, limit: $limit) { objects { ${selection} } } }`,
  variables: { uuids, limit: Math.max(uuids.length, 1) },
});

export async function runRecordCheck(ask: GraphQLAsk, check: RecordCheck): Promise<CheckOutcome> {
  const { paths, records } = await check.legacy();
  const uuids = [...new Set(uuidsOf(records))];
  if (uuids.length === 0) return { paths, differences: [], empty: true, reads: paths.length };
  const data = await ask(check.request(uuids));
  const differences = findDifferences(
    keyedByUuid(records, check.view),
    keyedByUuid(check.graphqlRecords(data), check.view),
  );
  return { paths, differences, empty: false, reads: paths.length + 1 };
}

const recordCheck = (ask: GraphQLAsk, check: RecordCheck): EndpointCheck => ({
  graphql: check.graphql,
  run: () => runRecordCheck(ask, check),
});

/** The sample everything is checked on: the organisation, the first units and people, facets and classes. */
async function sampleOf(transport: ComparisonTransport, sampleSize: number, scanLimit = 100) {
  const organisations = list(await serviceJson(transport, legacyPaths.organisations()));
  const org = field(organisations[0], 'uuid');
  if (typeof org !== 'string') throw new ComparisonError('failed', 'GET /service/o/ lists no organisation.');
  return { org, sampleSize, scanLimit };
}

type Sample = Awaited<ReturnType<typeof sampleOf>>;

/** The checks for endpoints that are not detail listings, by operation. */
function endpointChecks(
  transport: ComparisonTransport,
  sample: Sample,
  ask: GraphQLAsk,
): Record<string, () => Promise<EndpointCheck>> {
  const checks = recordChecksOf(transport, sample, ask);
  return Object.fromEntries(
    Object.entries(checks).map(([operation, check]) => [
      operation,
      async () => {
        const made = await check();
        return 'run' in made ? made : recordCheck(ask, made);
      },
    ]),
  );
}

function recordChecksOf(
  transport: ComparisonTransport,
  sample: Sample,
  ask: GraphQLAsk,
): Record<string, () => Promise<RecordCheck | EndpointCheck>> {
  const { org, sampleSize } = sample;
  const orgPath = `/service/o/${encodeURIComponent(org)}`;
  const read = (path: string) => serviceJson(transport, path);
  const unitView = textFields(['name', 'user_key'], true);
  const personView = textFields(['name', 'givenname', 'surname', 'nickname', 'user_key']);
  const classView = textFields(['name', 'user_key']);
  const firstUnits = async () =>
    list(field(await read(`${orgPath}/ou/?limit=${sampleSize}`), 'items')).filter(isRecord);
  const firstFacet = async () => {
    const facets = list(await read(`${orgPath}/f/`));
    const named = facets
      .map((facet) => textOf(field(facet, 'user_key')))
      .filter((key) => typeof key === 'string');
    return named.includes('manager_type') ? 'manager_type' : (named[0] as string | undefined);
  };
  const facetClasses = (facet: string) => ({
    operationName: 'CoverageFacetClasses',
    query:
      'query CoverageFacetClasses($facet: String!) { classes(filter: { facets: [$facet] }, limit: 1000) { objects { uuid name user_key } } }',
    variables: { facet },
  });
  /** The first facet's classes as the `/service` path `pathOf` lists them, against `classes(filter: { facets })`. */
  const facetClassesCheck = async (pathOf: (facet: string) => string): Promise<RecordCheck> => {
    const facet = await firstFacet();
    const path = pathOf(facet ?? '');
    return {
      graphql: recordReplacements.getFacet,
      legacy: async () => ({
        paths: facet ? [path] : [],
        records: facet ? list(field(field(await read(path), 'data'), 'items')) : [],
      }),
      request: () => facetClasses(facet ?? ''),
      graphqlRecords: (data) => rootObjects('v2', field(data, 'classes')),
      view: classView,
    };
  };
  return {
    listOrgUnits: async () => ({
      graphql: recordReplacements.listOrgUnits,
      legacy: async () => ({ paths: [`${orgPath}/ou/?limit=${sampleSize}`], records: await firstUnits() }),
      request: byUuids('org_units', 'uuid name user_key validity { from to }', 'CoverageUnits'),
      graphqlRecords: (data) => rootObjects('v2', field(data, 'org_units')),
      view: unitView,
    }),
    listEmployees: async () => {
      const path = `${orgPath}/e/?limit=${sampleSize}`;
      return {
        graphql: recordReplacements.listEmployees,
        legacy: async () => ({ paths: [path], records: list(field(await read(path), 'items')) }),
        request: byUuids('employees', 'uuid name givenname surname nickname user_key', 'CoverageEmployees'),
        graphqlRecords: (data) => rootObjects('v2', field(data, 'employees')),
        view: personView,
      };
    },
    listItSystems: async () => {
      const path = `${orgPath}/it/`;
      return {
        graphql: recordReplacements.listItSystems,
        legacy: async () => ({ paths: [path], records: list(await read(path)) }),
        request: byUuids('itsystems', 'uuid name user_key system_type', 'CoverageItSystems'),
        graphqlRecords: (data) => rootObjects('v2', field(data, 'itsystems')),
        view: textFields(['name', 'user_key', 'system_type']),
      };
    },
    listFacets: async () => {
      const path = `${orgPath}/f/`;
      return {
        graphql: recordReplacements.listFacets,
        legacy: async () => ({ paths: [path], records: list(await read(path)) }),
        request: byUuids('facets', 'uuid user_key', 'CoverageFacets'),
        graphqlRecords: (data) => rootObjects('v2', field(data, 'facets')),
        view: textFields(['user_key']),
      };
    },
    // The first facet's classes, read through the organisation's facet endpoint and the bare one.
    getFacet: () => facetClassesCheck((facet) => `${orgPath}/f/${encodeURIComponent(facet)}/`),
    listFacetClasses: () => facetClassesCheck((facet) => `/service/f/${encodeURIComponent(facet)}/`),
    getClass: async () => {
      const facet = await firstFacet();
      const classes = facet
        ? uuidsOf(
            list(field(field(await read(`${orgPath}/f/${encodeURIComponent(facet)}/`), 'data'), 'items')),
          )
        : [];
      const paths = classes.slice(0, sampleSize).map((uuid) => `/service/c/${encodeURIComponent(uuid)}/`);
      return {
        graphql: recordReplacements.getClass,
        legacy: async () => ({ paths, records: await Promise.all(paths.map(read)) }),
        request: byUuids('classes', 'uuid name user_key', 'CoverageClasses'),
        graphqlRecords: (data) => rootObjects('v2', field(data, 'classes')),
        view: classView,
      };
    },
    listOrgUnitChildren: async () => {
      // Children of the top-level units: every unit below them is somebody's child.
      const tops = uuidsOf(list(await read(`${orgPath}/children`))).slice(0, sampleSize);
      const paths = tops.map((uuid) => legacyPaths.children(uuid));
      return {
        graphql: recordReplacements.listOrgUnitChildren,
        legacy: async () => ({ paths, records: (await Promise.all(paths.map(read))).flatMap(list) }),
        request: () => ({
          operationName: 'CoverageChildren',
          query:
            'query CoverageChildren($uuids: [UUID!], $limit: Int) { org_units(filter: { uuids: $uuids }, limit: $limit) { objects { children { uuid name user_key validity { from to } } } } }',
          variables: { uuids: tops, limit: Math.max(tops.length, 1) },
        }),
        graphqlRecords: (data) =>
          rootObjects('v2', field(data, 'org_units')).flatMap((unit) => list(unit['children'])),
        view: unitView,
      };
    },
    // The whole records, in the shadow comparison's view of them.
    getOrgUnit: async () => shadowCheck(transport, ask, 'unit', uuidsOf(await firstUnits())),
    getEmployee: async () =>
      shadowCheck(
        transport,
        ask,
        'employee',
        uuidsOf(list(field(await read(`${orgPath}/e/?limit=${sampleSize}`), 'items'))),
      ),
    // Unit trees, class children and version histories (hierarchy-checks.ts).
    ...hierarchyChecks({ service: read, graphql: ask }, sample),
    // The organisation, its counts, top-level units, detail types, searches and CPR lookup (organisation-checks.ts).
    ...organisationChecks({
      orgPath,
      sampleSize,
      read,
      graphql: ask,
    }),
  };
}

/**
 * `getOrgUnit`/`getEmployee`: each record read both ways and compared as the shadow comparison compares
 * it (the same views and the same one-record query), so the report and the shadow agree on what "equal" is.
 */
function shadowCheck(
  transport: ComparisonTransport,
  ask: GraphQLAsk,
  kind: 'unit' | 'employee',
  uuids: string[],
) {
  const path = (uuid: string) => (kind === 'unit' ? legacyPaths.orgUnit(uuid) : legacyPaths.employee(uuid));
  return {
    graphql: recordReplacements[kind === 'unit' ? 'getOrgUnit' : 'getEmployee'],
    run: async () => {
      const paths = uuids.map(path);
      const differences = (
        await Promise.all(
          paths.map(async (item) => {
            const target = shadowTarget(item, new URLSearchParams())!;
            const legacy = target.fromLegacy(await serviceJson(transport, item));
            const graphql = target.fromGraphQL(await ask(target.request));
            return findDifferences({ [item]: legacy }, { [item]: graphql });
          }),
        )
      ).flat();
      return { paths, differences, empty: paths.length === 0, reads: paths.length * 2 };
    },
  };
}

/** What the sample showed for one detail listing endpoint, and on which versions it was asked. */
interface DetailResult extends RoadLog {
  samples: string[];
  differences: Difference[];
  read: number;
}

/**
 * The detail listings: units (then the people their records name) scanned in batches until every detail
 * type has `sampleSize` listings with records, each batch compared by `compareDetailListings`.
 */
async function checkDetailListings(
  transport: ComparisonTransport,
  sample: Sample,
  options: CoverageOptions,
  owners: DetailOwner[],
) {
  const sampleSize = sample.sampleSize;
  const scanLimit = options.scanLimit ?? 100;
  const orgPath = `/service/o/${encodeURIComponent(sample.org)}`;
  const results = new Map<string, DetailResult>();
  const key = (owner: DetailOwner, type: DetailType) => `${owner}:${type}`;
  for (const owner of ['org_units', 'employees'] as const)
    for (const type of detailTypes) {
      results.set(key(owner, type), {
        samples: [],
        differences: [],
        read: 0,
        versions: new Set(),
        reasons: new Set(),
      });
    }
  let reads = 0;
  let betweenReads = options.betweenReads;
  let people: string[] = [];

  for (const owner of ['org_units', 'employees'] as const) {
    if (!owners.includes(owner)) continue;
    const candidates =
      owner === 'org_units'
        ? uuidsOf(list(field(await serviceJson(transport, `${orgPath}/ou/?limit=${scanLimit}`), 'items')))
        : [
            ...new Set([
              ...people,
              ...uuidsOf(
                list(field(await serviceJson(transport, `${orgPath}/e/?limit=${scanLimit}`), 'items')),
              ),
            ]),
          ].slice(0, scanLimit);
    const batch = 20;
    for (let start = 0; start < candidates.length; start += batch) {
      const types = detailTypes.filter((type) => results.get(key(owner, type))!.samples.length < sampleSize);
      if (types.length === 0) break;
      options.onProgress?.(
        `detail listings of ${owner === 'org_units' ? 'units' : 'people'} ${start + 1}–${Math.min(start + batch, candidates.length)} of ${candidates.length} (${types.length} detail types still unproven)`,
      );
      const report = await compareDetailListings({
        owner,
        uuids: candidates.slice(start, start + batch),
        version: 'v30',
        transport,
        types,
        betweenReads,
      });
      for (const type of types) {
        const result = results.get(key(owner, type))!;
        const fallback = report.fallback?.types.includes(type) ? report.fallback : undefined;
        result.versions.add(fallback ? 'v2' : 'v30');
        if (fallback) result.reasons.add(fallback.reasons[type] ?? fallback.reason);
      }
      betweenReads = undefined;
      reads += report.legacy.requests + report.graphql.requests;
      if (owner === 'org_units') people = [...new Set([...people, ...report.people])];
      for (const listing of report.listings) {
        const result = results.get(key(owner, listing.type))!;
        result.read += 1;
        if (listing.records > 0 && result.samples.length < sampleSize) result.samples.push(listing.path);
        const prefix = `${owner}[${listing.uuid}].${detailField(owner, listing.type)}`;
        result.differences.push(
          ...report.verdict.differences.filter(
            (difference) =>
              difference.path === prefix ||
              difference.path.startsWith(`${prefix}[`) ||
              difference.path === `${owner}[${listing.uuid}]`,
          ),
        );
      }
    }
  }
  return { results, key, reads };
}

/**
 * A detail listing's status. A listing the contract marks `x-always-empty` is proven when every sampled
 * read was equal and empty on both sides (the contract's reason says why no record can exist); one with
 * records anyway is judged on them like any other, and the reason says the contract's claim failed.
 */
function detailVerdict(
  result: DetailResult,
  who: string,
  alwaysEmpty: string | undefined,
): { status: CoverageStatus; reason: string; emptyByContract?: string } {
  const contradicted =
    alwaysEmpty !== undefined && result.samples.length > 0
      ? ` The contract marks this listing always empty, yet ${result.samples.length} had records.`
      : '';
  if (result.differences.length > 0) {
    return {
      status: 'different',
      reason: `${result.differences.length} difference(s) in the ${result.read} ${who} listings read.${contradicted}`,
    };
  }
  if (result.samples.length > 0) {
    return {
      status: 'proven',
      reason: `Equal on ${result.read} ${who} listings read, ${result.samples.length} of them with records.${contradicted}`,
    };
  }
  if (alwaysEmpty !== undefined && result.read > 0) {
    return {
      status: 'proven',
      reason: `Proven empty: equal on all ${result.read} ${who} listings read, none with records on either side, as the contract says it must be (x-always-empty): ${alwaysEmpty}`,
      emptyByContract: alwaysEmpty,
    };
  }
  return {
    status: 'empty',
    reason: `Equal but empty: none of the ${result.read} ${who} listings read has records on either side.`,
  };
}

/** A write's entry: the v30 mutations replacing it with the field mapping, or the v2 mutation where v30 has none. */
function writeReason(operationId: string): string {
  const replacement = writeReplacements()[operationId];
  if (replacement !== undefined && replacement.mutations.length > 0) return writeSentence(replacement);
  return writeMutations[operationId] ?? 'A write: out of the report’s scope.';
}

/**
 * The version a read was proven on: v30 when every GraphQL request of its check went to v30 (the query shown
 * in OS2mo's shape), else v2 with the reasons the road gave. A check that asked nothing (no record to ask
 * about) is named by what the served v30 has for its replacement.
 */
function provenOn(
  operation: { operationId: string; method: string; path: string },
  log: RoadLog,
): Pick<CoverageEntry, 'graphql' | 'proven_on' | 'newest'> {
  const newest = newestReplacement(operation);
  const v2 = v2Replacement(operation) ?? null;
  if (log.versions.has('v2') || (log.versions.size === 0 && newest?.version === 'v2')) {
    const reason =
      log.reasons.size > 0 ? [...log.reasons].join(' ') : newest?.version === 'v2' ? newest.reason : '';
    return { graphql: v2, proven_on: 'v2', newest: { version: 'v2', query: v2 ?? '', reason } };
  }
  if (newest?.version === 'v30') return { graphql: newest.query, proven_on: 'v30', newest };
  return { graphql: v2, proven_on: 'v30', newest: { version: 'v30', query: v2 ?? '' } };
}

/**
 * The coverage report: every `/service` operation of the legacy contract, with the GraphQL query that
 * replaces it and whether equality is proven on the current data (a sample of it, read both ways).
 *
 * @example
 * const report = await coverageReport({ transport: gatewayTransport({ baseUrl, authorization }) });
 */
export async function coverageReport(options: CoverageOptions): Promise<CoverageReport> {
  const { transport } = options;
  const operations = options.operations ?? contractOperations.filter(isServiceOperation);
  options.onProgress?.('choosing the sample of units and people');
  const sample = await sampleOf(transport, options.sampleSize ?? 3, options.scanLimit);
  const details = await checkDetailListings(transport, sample, options, ['org_units', 'employees']);
  let reads = details.reads + 1;

  let checked = 0;
  const endpoints = await Promise.all(
    operations.map(async (operation): Promise<CoverageEntry> => {
      const entry = await coverageEntry(operation);
      checked += 1;
      options.onProgress?.(
        `${checked} of ${operations.length} endpoints: ${operation.method} ${operation.path}`,
      );
      return entry;
    }),
  );

  async function coverageEntry(operation: ContractOperation): Promise<CoverageEntry> {
    const base = { operationId: operation.operationId, method: operation.method, path: operation.path };
    // A POST that writes nothing (`validate/*`, the removed settings writes) or a write GraphQL does not serve
    // yet is not covered, with its reason, rather than a write with a replacement.
    const uncovered = notCovered[operation.operationId];
    if (operation.method !== 'GET' && uncovered !== undefined) {
      return {
        ...base,
        graphql: null,
        status: 'not covered',
        reason: uncovered,
        samples: [],
        differences: [],
      };
    }
    if (operation.method !== 'GET') {
      return {
        ...base,
        graphql: null,
        status: 'write',
        reason: writeReason(operation.operationId),
        ...(writeReplacements()[operation.operationId]
          ? { write: writeReplacements()[operation.operationId] }
          : {}),
        // The suite proves each named mutation against the write (writeProof); a write v30 has none for is unproven.
        ...(writeReplacements()[operation.operationId]?.mutations.length
          ? { proven_on: 'v30' as const }
          : {}),
        samples: [],
        differences: [],
      };
    }
    const detail = detailEndpoint(operation.path);
    if (detail) {
      const result = details.results.get(details.key(detail.owner, detail.type))!;
      const who = detail.owner === 'org_units' ? 'unit' : 'person';
      const verdict = detailVerdict(result, who, operation.alwaysEmpty);
      return {
        ...base,
        ...provenOn(operation, result),
        ...verdict,
        samples: result.samples,
        differences: result.differences,
      };
    }
    const log: RoadLog = { versions: new Set(), reasons: new Set() };
    const check = endpointChecks(transport, sample, roadAsk(transport, log))[operation.operationId];
    if (check === undefined) {
      return {
        ...base,
        graphql: null,
        status: 'not covered',
        reason: notCovered[operation.operationId] ?? 'No GraphQL query answers this endpoint.',
        samples: [],
        differences: [],
      };
    }
    const made = await check();
    const { paths, differences, empty, reads: checkReads } = await made.run();
    reads += checkReads;
    const status: CoverageStatus = differences.length > 0 ? 'different' : empty ? 'empty' : 'proven';
    const reason =
      status === 'proven'
        ? `Equal on ${paths.length} read${paths.length === 1 ? '' : 's'}.`
        : status === 'different'
          ? `${differences.length} difference(s).`
          : 'Equal but empty: the sampled reads returned no records.';
    return { ...base, ...provenOn(operation, log), status, reason, samples: paths, differences };
  }

  const totals = { proven: 0, different: 0, empty: 0, 'not covered': 0, write: 0, reads };
  for (const entry of endpoints) totals[entry.status] += 1;
  const withFlags = endpoints.map((entry) => ({ ...entry, flags: flagCoverage(entry) }));
  return { version: 'v30', meaning: coverageMeaning, endpoints: withFlags, totals };
}
