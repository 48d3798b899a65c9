import { legacyPaths } from '../../legacy/legacy-paths.js';
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
import type { Os2moForm } from '../os2mo-road.js';
import { rootObjects, type GraphQLRequestBody } from '../subjects.js';

/** How the checks read both sides (the coverage report's own reads, with its error handling). */
export interface CheckReads {
  /** A `/service` GET's body; fails on any status but 200. */
  service: (path: string) => Promise<unknown>;
  /**
   * A v2 query's `data` on the OS2mo road (v30 where served, through the read's own v30 `forms` where the
   * v2 query does not translate), in the v2 query's shape; fails on any error.
   */
  graphql: (request: GraphQLRequestBody, forms?: readonly Os2moForm[]) => Promise<unknown>;
}

export interface HierarchySample {
  org: string;
  /** Listings with records each endpoint is proven on. */
  sampleSize: number;
  /** Most units (and people) scanned for versions. */
  scanLimit: number;
}

export interface HierarchyOutcome {
  paths: string[];
  differences: Difference[];
  empty: boolean;
  reads: number;
}

export interface HierarchyCheck {
  graphql: string;
  run: () => Promise<HierarchyOutcome>;
}

const uuidOf = (value: unknown) => {
  const uuid = field(value, 'uuid');
  return typeof uuid === 'string' ? uuid : null;
};
const uuidsOf = (records: unknown[]) => records.map(uuidOf).filter((uuid): uuid is string => uuid !== null);

/** A unit or class as a tree or a children listing shows it: what both sides carry, and where it hangs. */
const nodeView = (record: JsonRecord): NormalValue => ({
  name: textOf(record['name']),
  user_key: textOf(record['user_key']),
  ...('validity' in record ? { validity: validity(record['validity']) } : {}),
  child_count: textOf(record['child_count']),
  ...('parent' in record ? { parent: textOf(record['parent']) } : {}),
});

/** Every node of a legacy tree, with the UUID of the node it hangs below (`parent`, null at the top). */
function flattenTree(nodes: unknown[], parent: string | null = null): JsonRecord[] {
  return nodes.filter(isRecord).flatMap((node) => {
    const { children, ...rest } = node;
    return [{ ...rest, parent }, ...flattenTree(list(children), uuidOf(node))];
  });
}

/** Nodes keyed by UUID; the same unit reached twice (two targets' paths) is one node. */
const byUuid = (nodes: JsonRecord[]) => {
  const merged = new Map<string, JsonRecord>();
  for (const node of nodes) {
    const uuid = uuidOf(node);
    if (uuid !== null) merged.set(uuid, { ...merged.get(uuid), ...node });
  }
  return [...merged.values()];
};

/**
 * Compares what both sides carry: a child count the legacy node leaves out (OS2mo's `ou/tree` counts no
 * children) is left out of the graph's node too.
 */
function compareNodes(legacy: JsonRecord[], graphql: JsonRecord[]): Difference[] {
  const legacyNodes = byUuid(legacy);
  const counted = new Set(legacyNodes.filter((node) => 'child_count' in node).map(uuidOf));
  const graphNodes = byUuid(graphql).map((node) => {
    if (counted.has(uuidOf(node))) return node;
    const { child_count: _count, ...rest } = node;
    return rest;
  });
  return findDifferences(keyedByUuid(legacyNodes, nodeView), keyedByUuid(graphNodes, nodeView));
}

const unitFields = 'uuid name user_key validity { from to }';

/**
 * The units the tree checks start from: the first units of the organisation's listing, and one unit at
 * the bottom of the tree (the first child's first child, down to a unit without children), so a path
 * with several levels is always among them.
 */
async function treeTargets(reads: CheckReads, sample: HierarchySample): Promise<string[]> {
  const orgPath = `/service/o/${encodeURIComponent(sample.org)}`;
  const first = uuidsOf(
    list(field(await reads.service(`${orgPath}/ou/?limit=${sample.sampleSize}`), 'items')),
  );
  let level = list(await reads.service(`${orgPath}/children`));
  let deepest: string | null = null;
  for (let depth = 0; depth < 20 && level.length > 0; depth += 1) {
    deepest = uuidOf(level[0]);
    if (deepest === null || !(Number(field(level[0], 'child_count')) > 0)) break;
    level = list(await reads.service(legacyPaths.children(deepest)));
  }
  return [...new Set([...(deepest ? [deepest] : []), ...first])].slice(0, sample.sampleSize);
}

const unitsQuery = (operation: string, selection: string, uuids: string[]): GraphQLRequestBody => ({
  operationName: operation,
  query: `query ${operation}($uuids: [UUID!], $limit: Int) { org_units(filter: { uuids: $uuids }, limit: $limit) { objects { ${selection} } } }`,
  variables: { uuids, limit: Math.max(uuids.length, 1) },
});

/** `getOrgUnitTree`: the chains from the top down to each target, from each target's `ancestors`. */
function orgUnitTreeCheck(reads: CheckReads, sample: HierarchySample): HierarchyCheck {
  return {
    graphql: hierarchyReplacements.getOrgUnitTree,
    run: async () => {
      const targets = await treeTargets(reads, sample);
      const path = legacyPaths.orgUnitTree(sample.org, targets);
      const legacy = flattenTree(list(await reads.service(path)));
      const data = await reads.graphql(
        unitsQuery('CoverageOrgUnitTree', `${unitFields} child_count ancestors { ${unitFields} }`, targets),
      );
      const graphql = rootObjects('v2', field(data, 'org_units')).flatMap((unit) => {
        const chain = [unit, ...list(unit['ancestors']).filter(isRecord)];
        return chain.map((node, index) => {
          const { ancestors: _ancestors, ...rest } = node;
          return { ...rest, parent: uuidOf(chain[index + 1]) };
        });
      });
      return {
        paths: [path],
        differences: compareNodes(legacy, graphql),
        empty: legacy.length === 0,
        reads: 2,
      };
    },
  };
}

/** `getOrgUnitAncestorTree`: each target's ancestors, and the children of the target and of each ancestor. */
function ancestorTreeCheck(reads: CheckReads, sample: HierarchySample): HierarchyCheck {
  return {
    graphql: hierarchyReplacements.getOrgUnitAncestorTree,
    run: async () => {
      const targets = await treeTargets(reads, sample);
      const path = legacyPaths.orgUnitAncestorTree(targets);
      const legacy = flattenTree(list(await reads.service(path)));
      const data = await reads.graphql(
        unitsQuery('CoverageAncestorTree', `${withChildren} ancestors { ${withChildren} }`, targets),
      );
      const graphql = rootObjects('v2', field(data, 'org_units')).flatMap((unit) => {
        const chain = [unit, ...list(unit['ancestors']).filter(isRecord)];
        return chain.flatMap((node, index) => {
          const { ancestors: _ancestors, children, ...rest } = node;
          const below = list(children)
            .filter(isRecord)
            .map((child) => ({ ...child, parent: uuidOf(node) }));
          return [{ ...rest, parent: uuidOf(chain[index + 1]) }, ...below];
        });
      });
      return {
        paths: [path],
        differences: compareNodes(legacy, graphql),
        empty: legacy.length === 0,
        reads: 2,
      };
    },
  };
}

const classFields = 'uuid name user_key child_count';

/** The fields of a unit's or person's versions these checks compare. */
const versionFields = {
  unit: ['name', 'user_key'],
  employee: ['name', 'givenname', 'surname', 'nickname', 'user_key'],
};
const versionSelection = (kind: 'unit' | 'employee') =>
  `${versionFields[kind].join(' ')} validity { from to }`;
const withChildren = `${unitFields} child_count children { ${unitFields} child_count }`;
const versionsReplacement = (root: string, kind: 'unit' | 'employee') =>
  `${root}(filter: { uuids: [$uuid], at: $at }) { objects { validities(validity: $validity) { ${versionSelection(kind)} } } }`;

/** The v2 query that replaces each read these checks cover, as the coverage report names it. */
export const hierarchyReplacements = {
  getOrgUnitTree: `org_units(filter: { uuids: $uuids }) { objects { ${unitFields} child_count ancestors { ${unitFields} } } }`,
  getOrgUnitAncestorTree: `org_units(filter: { uuids: $uuids }) { objects { ${withChildren} ancestors { ${withChildren} } } }`,
  listFacetChildren: `facets(filter: { user_keys: [$facet] }) { objects { top_level_classes { ${classFields} } } }`,
  listClassChildren: `classes(filter: { uuids: [$uuid] }) { objects { children { ${classFields} } } }`,
  listOrgUnitVersions: versionsReplacement('org_units', 'unit'),
  listEmployeeVersions: versionsReplacement('employees', 'employee'),
};

/** OS2mo's person fields under v2's names, for the version listings' v30 form. */
const os2moVersionSelection = {
  unit: versionSelection('unit'),
  employee: 'name givenname: given_name surname nickname user_key validity { from to }',
};
const os2moVersionsForm = (root: string, kind: 'unit' | 'employee') =>
  `${root}(filter: { uuids: [$uuid], from_date: null, to_date: null }) { objects { validities(start: null, end: null) { ${versionFields[kind].map((name) => (name === 'givenname' ? 'given_name' : name)).join(' ')} validity { from to } } } }`;

/**
 * The v30 forms of the reads whose v2 query does not translate (as the coverage report names them, in
 * OS2mo's shape): OS2mo keeps an object's versions under its response's `validities`, counts no class's
 * children (their `children` are counted) and marks no top-level class (its `parent` is empty).
 */
export const hierarchyV30Forms: Record<string, string[]> = {
  listFacetChildren: [
    'classes(filter: { facet: { user_keys: [$facet] } }) { objects { current { uuid name user_key parent { uuid } children { uuid } } } }',
  ],
  listClassChildren: [
    'classes(filter: { uuids: [$uuid] }) { objects { current { children { uuid name user_key children { uuid } } } } }',
  ],
  listOrgUnitVersions: [os2moVersionsForm('org_units', 'unit')],
  listEmployeeVersions: [os2moVersionsForm('persons', 'employee')],
};

/** A class's `children { uuid }` (OS2mo's) as the `child_count` the legacy listing gives. */
const counted = (record: unknown): JsonRecord => {
  const { children, ...rest } = isRecord(record) ? record : {};
  return { ...rest, child_count: list(children).length };
};

/** The facets' user keys and their top-level classes (`/service/f/{facet}/children`), read once per report. */
async function facetChildren(reads: CheckReads, sample: HierarchySample) {
  const facets = list(await reads.service(legacyPaths.facets(sample.org)))
    .map((facet) => textOf(field(facet, 'user_key')))
    .filter((key): key is string => typeof key === 'string');
  return Promise.all(
    facets.map(async (facet) => {
      const path = legacyPaths.facetChildren(facet);
      return { facet, path, records: list(await reads.service(path)).filter(isRecord) };
    }),
  );
}

/** `listFacetChildren`: every facet's top-level classes, against `Facet.top_level_classes`. */
function facetChildrenCheck(reads: CheckReads, sample: HierarchySample): HierarchyCheck {
  return {
    graphql: hierarchyReplacements.listFacetChildren,
    run: async () => {
      const listings = await facetChildren(reads, sample);
      const facets = listings.map((listing) => listing.facet);
      // On v30: every class of the facets, the top-level ones (no parent) kept, by facet.
      const os2moForm: Os2moForm = {
        request: {
          operationName: 'CoverageFacetChildren',
          query: `query CoverageFacetChildren($facets: [String!]) { classes(filter: { facet: { user_keys: $facets } }) { objects { current { uuid name user_key facet { user_key } parent { uuid } children { uuid } } } } }`,
          variables: { facets },
        },
        asV2: (data) => {
          const classes = rootObjects('v2', field(data, 'classes'));
          const objects = facets.map((facet) => ({
            user_key: facet,
            top_level_classes: classes
              .filter((record) => field(record['facet'], 'user_key') === facet && record['parent'] == null)
              .map(({ facet: _facet, parent: _parent, ...rest }) => counted(rest)),
          }));
          return { facets: { objects } };
        },
      };
      const data = await reads.graphql(
        {
          operationName: 'CoverageFacetChildren',
          query: `query CoverageFacetChildren($facets: [String!], $limit: Int) { facets(filter: { user_keys: $facets }, limit: $limit) { objects { user_key top_level_classes { ${classFields} } } } }`,
          variables: { facets, limit: Math.max(facets.length, 1) },
        },
        [os2moForm],
      );
      const legacy: NormalObject = {};
      const graphql: NormalObject = {};
      for (const listing of listings) legacy[listing.facet] = keyedByUuid(listing.records, nodeView);
      for (const facet of rootObjects('v2', field(data, 'facets'))) {
        const key = textOf(facet['user_key']);
        if (typeof key === 'string') graphql[key] = keyedByUuid(facet['top_level_classes'], nodeView);
      }
      const withRecords = listings.filter((listing) => listing.records.length > 0);
      return {
        paths: withRecords.map((listing) => listing.path),
        differences: findDifferences(legacy, graphql),
        empty: withRecords.length === 0,
        reads: listings.length + 2,
      };
    },
  };
}

/** `listClassChildren`: the classes below the first top-level classes that have children, against `Class.children`. */
function classChildrenCheck(reads: CheckReads, sample: HierarchySample): HierarchyCheck {
  return {
    graphql: hierarchyReplacements.listClassChildren,
    run: async () => {
      const listings = await facetChildren(reads, sample);
      const parents = listings
        .flatMap((listing) => listing.records.map((record) => ({ facet: listing.facet, record })))
        .filter(({ record }) => Number(record['child_count']) > 0)
        .slice(0, sample.sampleSize);
      // A class without children is read too: its empty listing is compared as well.
      const childless = listings
        .flatMap((listing) => listing.records.map((record) => ({ facet: listing.facet, record })))
        .find(({ record }) => Number(record['child_count']) === 0);
      const asked = [...parents, ...(childless ? [childless] : [])];
      const uuids = uuidsOf(asked.map(({ record }) => record));
      const paths = uuids.map((uuid) => legacyPaths.classChildren(uuid));
      const legacy: NormalObject = {};
      await Promise.all(
        uuids.map(async (uuid, index) => {
          legacy[uuid] = keyedByUuid(list(await reads.service(paths[index]!)), nodeView);
        }),
      );
      const variables = {
        uuids,
        facets: [...new Set(asked.map(({ facet }) => facet))],
        limit: Math.max(uuids.length, 1),
      };
      // On v30: each child's own children, counted.
      const os2moForm: Os2moForm = {
        request: {
          operationName: 'CoverageClassChildren',
          query:
            'query CoverageClassChildren($uuids: [UUID!], $facets: [String!], $limit: int) { classes(filter: { uuids: $uuids, facet: { user_keys: $facets } }, limit: $limit) { objects { current { uuid children { uuid name user_key children { uuid } } } } } }',
          variables,
        },
        asV2: (data) => ({
          classes: {
            objects: rootObjects('v2', field(data, 'classes')).map((record) => ({
              ...record,
              children: list(record['children']).map(counted),
            })),
          },
        }),
      };
      const data = await reads.graphql(
        {
          operationName: 'CoverageClassChildren',
          query: `query CoverageClassChildren($uuids: [UUID!], $facets: [String!], $limit: Int) { classes(filter: { uuids: $uuids, facets: $facets }, limit: $limit) { objects { uuid children { ${classFields} } } } }`,
          variables,
        },
        [os2moForm],
      );
      const graphql: NormalObject = {};
      for (const record of rootObjects('v2', field(data, 'classes'))) {
        const uuid = uuidOf(record);
        if (uuid !== null) graphql[uuid] = keyedByUuid(record['children'], nodeView);
      }
      return {
        paths: paths.slice(0, parents.length),
        differences: findDifferences(legacy, graphql),
        empty: parents.length === 0,
        reads: listings.length + 2 + uuids.length,
      };
    },
  };
}

const scopes = ['past', 'present', 'future'] as const;

/** Where a version (legacy days, `to` inclusive, null open) lies as of a day, as `validity=` scopes it. */
function scopeOf(validityOf: unknown, day: string): (typeof scopes)[number] {
  const from = field(validityOf, 'from');
  const to = field(validityOf, 'to');
  if (typeof to === 'string' && to < day) return 'past';
  if (typeof from === 'string' && from > day) return 'future';
  return 'present';
}
const versionView = (names: string[]) => (record: unknown) => ({
  ...Object.fromEntries(names.map((name) => [name, textOf(field(record, name))])),
  validity: validity(field(record, 'validity')),
});
/** A version listing as a list in start order (versions share their object's UUID). */
const versionList = (records: unknown, view: (record: unknown) => NormalObject): NormalValue =>
  list(records)
    .map(view)
    .sort((a, b) => String(field(a['validity'], 'from')).localeCompare(String(field(b['validity'], 'from'))));

/**
 * `listOrgUnitVersions`/`listEmployeeVersions`: units (people) scanned in batches of 20, each read with
 * `validity=past`, `present` and `future`, against one query of `validities(validity: PAST|PRESENT|FUTURE)`,
 * until `sampleSize` past and future listings had records (or the scan ends); then the objects with a past
 * version once more with `at` on that version's last day, against the query with `filter.at`.
 */
function versionsCheck(
  reads: CheckReads,
  sample: HierarchySample,
  kind: 'unit' | 'employee',
): HierarchyCheck {
  const root = kind === 'unit' ? 'org_units' : 'employees';
  const os2moRoot = kind === 'unit' ? 'org_units' : 'persons';
  const names = versionFields[kind];
  const selection = versionSelection(kind);
  const aliases = scopes
    .map((scope) => `${scope}: validities(validity: ${scope.toUpperCase()}) { ${selection} }`)
    .join(' ');
  const view = versionView(names);
  return {
    graphql: hierarchyReplacements[kind === 'unit' ? 'listOrgUnitVersions' : 'listEmployeeVersions'],
    run: async () => {
      const orgPath = `/service/o/${encodeURIComponent(sample.org)}`;
      const page = `${orgPath}/${kind === 'unit' ? 'ou' : 'e'}/?limit=${sample.scanLimit}`;
      const candidates = uuidsOf(list(field(await reads.service(page), 'items')));
      const listingPath = (uuid: string, scope: (typeof scopes)[number], at?: string) =>
        kind === 'unit'
          ? legacyPaths.orgUnitVersions(uuid, { at, validity: scope })
          : legacyPaths.employeeVersions(uuid, { at, validity: scope });
      const samples: string[] = [];
      const differences: Difference[] = [];
      const found = { past: 0, present: 0, future: 0 };
      /** The last day of each object's latest past version: the `at` of the second look. */
      const pastEnds = new Map<string, string>();
      let readCount = 1;
      /** The three listings of each object (as of `at`, or today), against one query as of the same date. */
      const compareBatch = async (batch: string[], at?: string) => {
        const legacy: NormalObject = {};
        await Promise.all(
          batch.flatMap((uuid) =>
            scopes.map(async (scope) => {
              const path = listingPath(uuid, scope, at);
              const records = list(await reads.service(path));
              legacy[path] = versionList(records, view);
              if (records.length === 0) return;
              found[scope] += 1;
              if (scope !== 'present' || at !== undefined || found.present <= sample.sampleSize)
                samples.push(path);
              const end = field(field(records.at(-1), 'validity'), 'to');
              if (scope === 'past' && at === undefined && typeof end === 'string') pastEnds.set(uuid, end);
            }),
          ),
        );
        // On v30: every version of each object (OS2mo's `validities` over an open window), split into past,
        // present and future as of `at`: the day the legacy reads as of (its default is today's UTC date).
        const day = at ?? new Date().toISOString().slice(0, 10);
        const os2moForm: Os2moForm = {
          request: {
            operationName: 'CoverageVersions',
            query: `query CoverageVersions($uuids: [UUID!], $limit: int) { ${root}: ${os2moRoot} (filter: { uuids: $uuids, from_date: null, to_date: null }, limit: $limit) { objects { uuid validities(start: null, end: null) { ${os2moVersionSelection[kind]} } } } }`,
            variables: { uuids: batch, limit: batch.length },
          },
          asV2: (os2mo) => ({
            [root]: {
              objects: rootObjects('v2', field(os2mo, root)).map(({ validities, ...object }) => ({
                ...object,
                ...Object.fromEntries(
                  scopes.map((scope) => [
                    scope,
                    list(validities).filter((version) => scopeOf(field(version, 'validity'), day) === scope),
                  ]),
                ),
              })),
            },
          }),
        };
        const data = await reads.graphql(
          {
            operationName: 'CoverageVersions',
            query: `query CoverageVersions($uuids: [UUID!], $limit: Int${at ? ', $at: Date' : ''}) { ${root}(filter: { uuids: $uuids${at ? ', at: $at' : ''} }, limit: $limit) { objects { uuid ${aliases} } } }`,
            variables: { uuids: batch, limit: batch.length, ...(at ? { at } : {}) },
          },
          [os2moForm],
        );
        readCount += batch.length * 3 + 1;
        const graphql: NormalObject = {};
        for (const object of rootObjects('v2', field(data, root))) {
          const uuid = uuidOf(object);
          if (uuid === null) continue;
          for (const scope of scopes)
            graphql[listingPath(uuid, scope, at)] = versionList(object[scope], view);
        }
        // An object the graph does not show on the date (a unit that closed) still has its listings compared.
        for (const path of Object.keys(legacy)) graphql[path] ??= [];
        differences.push(...findDifferences(legacy, graphql));
      };
      for (let start = 0; start < candidates.length; start += 20) {
        if (found.past >= sample.sampleSize && found.future >= sample.sampleSize) break;
        await compareBatch(candidates.slice(start, start + 20));
      }
      // `at` too: each object with a past version, read again as of that version's last day.
      for (const [uuid, end] of [...pastEnds].slice(0, sample.sampleSize)) await compareBatch([uuid], end);
      return { paths: samples, differences, empty: samples.length === 0, reads: readCount };
    },
  };
}

/**
 * The checks of the `/service` reads for unit trees, class children and version histories, by operation:
 * each reads the endpoint and the GraphQL that replaces it on a sample and compares them record by record.
 */
export function hierarchyChecks(
  reads: CheckReads,
  sample: HierarchySample,
): Record<string, () => Promise<HierarchyCheck>> {
  return {
    getOrgUnitTree: async () => orgUnitTreeCheck(reads, sample),
    getOrgUnitAncestorTree: async () => ancestorTreeCheck(reads, sample),
    listFacetChildren: async () => facetChildrenCheck(reads, sample),
    listClassChildren: async () => classChildrenCheck(reads, sample),
    listOrgUnitVersions: async () => versionsCheck(reads, sample, 'unit'),
    listEmployeeVersions: async () => versionsCheck(reads, sample, 'employee'),
  };
}
