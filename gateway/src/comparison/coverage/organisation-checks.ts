import { detailTypes, organisationCountFields } from '../../legacy/legacy-paths.js';
import { findDifferences, type Difference } from '../differences.js';
import {
  field,
  isRecord,
  keyedByUuid,
  list,
  textOf,
  validity,
  type JsonRecord,
  type NormalObject,
  type NormalValue,
} from '../normal-form.js';
import { rootObjects, type GraphQLRequestBody } from '../subjects.js';
import type { CheckOutcome, EndpointCheck, RecordCheck } from './endpoint-check.js';

/**
 * The coverage checks of the Service API's reads beside the collections: the organisation and its counts,
 * the top-level units, the detail types of a unit or person, free-text search and the CPR lookup. Each
 * reads the `/service` endpoint and the GraphQL (v2) that replaces it on sampled inputs and compares the
 * records keyed by UUID.
 */
export interface OrganisationCheckKit {
  /** `/service/o/{org}`, without the trailing slash. */
  orgPath: string;
  sampleSize: number;
  /** A `/service` read that must answer 200. */
  read: (path: string) => Promise<unknown>;
  /** A `/graphql/v2` request that must answer data without errors. */
  graphql: (request: GraphQLRequestBody) => Promise<unknown>;
}

/** The fields of `detail_types`: every detail listing, and the unit's own versions (`org_unit`). */
const detailTypeKeys = [...detailTypes, 'org_unit'].sort();

const pick =
  (names: readonly string[]) =>
  (record: JsonRecord): NormalValue =>
    Object.fromEntries(names.map((name) => [name, textOf(record[name])]));

const searchReplacement = (root: string) => `${root}(filter: { query: $query }) { objects { uuid name } }`;
const detailTypesReplacement = (root: string) =>
  `${root}(filter: { uuids: [$uuid] }) { objects { uuid detail_types { ${detailTypeKeys.join(' ')} } } }`;
const organisationSelection = `uuid name user_key ${organisationCountFields.join(' ')}`;

/** The v2 query that replaces each read these checks cover, as the coverage report names it. */
export const organisationReplacements = {
  listOrganisations: 'org { uuid name user_key }',
  getOrganisation: `org { ${organisationSelection} }`,
  listRootOrgUnits:
    'org_units(filter: { parent: null }) { objects { uuid name user_key validity { from to } } }',
  getOrgUnitDetailTypes: detailTypesReplacement('org_units'),
  getEmployeeDetailTypes: detailTypesReplacement('employees'),
  autocompleteOrgUnits: searchReplacement('org_units'),
  autocompleteEmployees: searchReplacement('employees'),
  lookupCpr: 'cpr_lookup(cpr_number: $cpr_number) { name }',
};

const unitView = (record: JsonRecord): NormalValue => ({
  name: textOf(record['name']),
  user_key: textOf(record['user_key']),
  validity: validity(record['validity']),
});

/** Distinct words of the sampled records' names: what a person would type into a search box. */
const searchWords = (records: unknown[], sampleSize: number) =>
  [
    ...new Set(
      records
        .map((record) => textOf(field(record, 'name')))
        .filter((name): name is string => typeof name === 'string')
        .flatMap((name) => name.split(/\s+/).filter((word) => word.length > 1)),
    ),
  ].slice(0, sampleSize);

/**
 * Several sampled inputs, each read both ways; records keyed `input → uuid`, so a difference names the
 * input it was found on.
 */
async function runSampled(
  inputs: string[],
  legacy: (input: string) => Promise<{ path: string; records: unknown[] }>,
  graphql: (input: string) => Promise<unknown[]>,
  view: (record: JsonRecord) => NormalValue,
  narrow: (legacyRecords: unknown[], graphqlRecords: unknown[]) => unknown[] = (_, records) => records,
): Promise<CheckOutcome> {
  const sides = await Promise.all(
    inputs.map(async (input) => {
      const [legacySide, graphqlSide] = await Promise.all([legacy(input), graphql(input)]);
      return { input, ...legacySide, graphqlRecords: narrow(legacySide.records, graphqlSide) };
    }),
  );
  const legacyForm: NormalObject = {};
  const graphqlForm: NormalObject = {};
  for (const side of sides) {
    legacyForm[side.input] = keyedByUuid(side.records, view);
    graphqlForm[side.input] = keyedByUuid(side.graphqlRecords, view);
  }
  const differences: Difference[] = findDifferences(legacyForm, graphqlForm);
  return {
    paths: sides.map((side) => side.path),
    differences,
    empty: sides.every((side) => side.records.length === 0),
    reads: sides.length * 2,
  };
}

/**
 * An autocomplete answers its first hits only (the backend chooses how many), while OS2mo's `query` filter
 * answers every match: the proof is that each hit the autocomplete gives is among the query's, with the
 * same name, and that the query finds nothing where the autocomplete finds nothing.
 */
function firstHits(legacyRecords: unknown[], graphqlRecords: unknown[]): unknown[] {
  if (legacyRecords.length === 0) return graphqlRecords;
  const hits = new Set(legacyRecords.filter(isRecord).map((record) => record['uuid']));
  return graphqlRecords.filter((record) => isRecord(record) && hits.has(record['uuid']));
}

const search = (root: 'org_units' | 'employees') => (query: string) => ({
  operationName: 'CoverageSearch',
  query: `query CoverageSearch($query: String!) { ${root}(filter: { query: $query }, limit: 1000) { objects { uuid name } } }`,
  variables: { query },
});

/** The checks by operation, for `coverage.ts` to run beside its own. */
export function organisationChecks(
  kit: OrganisationCheckKit,
): Record<string, () => Promise<RecordCheck | EndpointCheck>> {
  const { orgPath, sampleSize, read, graphql } = kit;
  const firstPeople = async () =>
    list(field(await read(`${orgPath}/e/?limit=${sampleSize}`), 'items')).filter(isRecord);
  const firstUnits = async () =>
    list(field(await read(`${orgPath}/ou/?limit=${sampleSize}`), 'items')).filter(isRecord);
  const uuidsOf = (records: JsonRecord[]) =>
    records.map((record) => record['uuid']).filter((uuid): uuid is string => typeof uuid === 'string');

  const detailTypesCheck = async (kind: 'ou' | 'e'): Promise<RecordCheck> => {
    const uuids = uuidsOf(kind === 'ou' ? await firstUnits() : await firstPeople());
    const paths = uuids.map((uuid) => `/service/${kind}/${encodeURIComponent(uuid)}/details/`);
    const root = kind === 'ou' ? 'org_units' : 'employees';
    return {
      graphql: organisationReplacements[kind === 'ou' ? 'getOrgUnitDetailTypes' : 'getEmployeeDetailTypes'],
      legacy: async () => ({
        paths,
        // The answer names no unit or person: each is keyed by the UUID it was read for.
        records: (await Promise.all(paths.map(read))).map((answer, index) => ({
          ...(isRecord(answer) ? answer : {}),
          uuid: uuids[index],
        })),
      }),
      request: (asked) => ({
        operationName: 'CoverageDetailTypes',
        query: `query CoverageDetailTypes($uuids: [UUID!], $limit: Int) { ${root}(filter: { uuids: $uuids }, limit: $limit) { objects { uuid detail_types { ${detailTypeKeys.join(' ')} } } } }`,
        variables: { uuids: asked, limit: Math.max(asked.length, 1) },
      }),
      graphqlRecords: (data) =>
        rootObjects('v2', field(data, root)).map((record) => ({
          ...(isRecord(record['detail_types']) ? record['detail_types'] : {}),
          uuid: record['uuid'],
        })),
      view: pick(detailTypeKeys),
    };
  };

  const searchCheck = (kind: 'ou' | 'e'): (() => Promise<EndpointCheck>) => {
    const root = kind === 'ou' ? 'org_units' : 'employees';
    return async () => {
      const words = searchWords(kind === 'ou' ? await firstUnits() : await firstPeople(), sampleSize);
      return {
        graphql: organisationReplacements[kind === 'ou' ? 'autocompleteOrgUnits' : 'autocompleteEmployees'],
        run: () =>
          runSampled(
            words,
            async (word) => {
              const path = `/service/${kind}/autocomplete/?query=${encodeURIComponent(word)}`;
              return { path, records: list(field(await read(path), 'items')) };
            },
            async (word) => rootObjects('v2', field(await graphql(search(root)(word)), root)),
            pick(['name']),
            firstHits,
          ),
      };
    };
  };

  return {
    listOrganisations: async () => ({
      graphql: organisationReplacements.listOrganisations,
      legacy: async () => ({ paths: ['/service/o/'], records: list(await read('/service/o/')) }),
      request: () => ({
        operationName: 'CoverageOrg',
        query: 'query CoverageOrg { org { uuid name user_key } }',
        variables: {},
      }),
      graphqlRecords: (data) => [field(data, 'org')],
      view: pick(['name', 'user_key']),
    }),
    getOrganisation: async () => {
      const path = `${orgPath}/`;
      const selection = organisationSelection;
      return {
        graphql: organisationReplacements.getOrganisation,
        legacy: async () => ({ paths: [path], records: [await read(path)] }),
        request: () => ({
          operationName: 'CoverageOrgCounts',
          query: `query CoverageOrgCounts { org { ${selection} } }`,
          variables: {},
        }),
        graphqlRecords: (data) => [field(data, 'org')],
        view: pick(['name', 'user_key', ...organisationCountFields]),
      };
    },
    listRootOrgUnits: async () => {
      const path = `${orgPath}/children`;
      return {
        graphql: organisationReplacements.listRootOrgUnits,
        legacy: async () => ({ paths: [path], records: list(await read(path)) }),
        request: () => ({
          operationName: 'CoverageRootUnits',
          query:
            'query CoverageRootUnits { org_units(filter: { parent: null }, limit: 500) { objects { uuid name user_key validity { from to } } } }',
          variables: {},
        }),
        graphqlRecords: (data) => rootObjects('v2', field(data, 'org_units')),
        view: unitView,
      };
    },
    getOrgUnitDetailTypes: () => detailTypesCheck('ou'),
    getEmployeeDetailTypes: () => detailTypesCheck('e'),
    autocompleteOrgUnits: searchCheck('ou'),
    autocompleteEmployees: searchCheck('e'),
    lookupCpr: async () => {
      const people = uuidsOf(await firstPeople());
      return {
        graphql: organisationReplacements.lookupCpr,
        run: async () => {
          // The number is read from the person's record; the report names the person, never the number.
          const numbers = new Map<string, string>();
          await Promise.all(
            people.map(async (uuid) => {
              const cpr = textOf(field(await read(`/service/e/${encodeURIComponent(uuid)}/`), 'cpr_no'));
              if (typeof cpr === 'string') numbers.set(uuid, cpr);
            }),
          );
          const outcome = await runSampled(
            [...numbers.keys()],
            async (uuid) => ({
              path: `/service/e/cpr_lookup/?q=<cpr_no of ${uuid}>`,
              records: [await read(`/service/e/cpr_lookup/?q=${encodeURIComponent(numbers.get(uuid)!)}`)].map(
                (answer) => ({ ...(isRecord(answer) ? answer : {}), uuid }),
              ),
            }),
            async (uuid) => {
              const data = await graphql({
                operationName: 'CoverageCprLookup',
                query: 'query CoverageCprLookup($cpr: String!) { cpr_lookup(cpr_number: $cpr) { name } }',
                variables: { cpr: numbers.get(uuid)! },
              });
              const found = field(data, 'cpr_lookup');
              return isRecord(found) ? [{ ...found, uuid }] : [];
            },
            pick(['name']),
          );
          return { ...outcome, reads: outcome.reads + people.length };
        },
      };
    },
  };
}
