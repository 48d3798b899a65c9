import { detailTypes, type DetailType } from '../../legacy/legacy-paths.js';
import {
  detailField,
  detailRecordSelection,
  detailSelection,
  os2moOwnerFilter,
  type DetailOwner,
} from '../detail-listings.js';
import { hierarchyReplacements, hierarchyV30Forms } from './hierarchy-checks.js';
import { writeMutations } from './not-covered.js';
import { writeReplacements } from './write-replacements.js';
import { deprecatedWithoutReplacement } from '../deprecation-free.js';
import { os2moReplacement, os2moSelection, servedV30Schema } from '../os2mo-road.js';
import { organisationReplacements } from './organisation-checks.js';

const detailPath = /^\/service\/(ou|e)\/\{uuid\}\/details\/([a-z_]+)$/;

/** A detail listing endpoint of the contract: whose, and which type. */
export function detailEndpoint(path: string): { owner: DetailOwner; type: DetailType } | null {
  const match = detailPath.exec(path);
  const type = match?.[2] as DetailType | undefined;
  if (!match || type === undefined || !(detailTypes as readonly string[]).includes(type)) return null;
  return { owner: match[1] === 'ou' ? 'org_units' : 'employees', type };
}

/** A facet's classes: what both facet endpoints are checked against. */
const facetClasses = 'classes(filter: { facets: [$facet] }) { objects { uuid name user_key } }';

/** The v2 query that replaces each of the coverage report's own record checks (`coverage.ts`). */
export const recordReplacements = {
  listOrgUnits: 'org_units { objects { uuid name user_key validity { from to } } }',
  listEmployees: 'employees { objects { uuid name givenname surname nickname user_key } }',
  listItSystems: 'itsystems { objects { uuid name user_key system_type } }',
  listFacets: 'facets { objects { uuid user_key } }',
  getFacet: facetClasses,
  listFacetClasses: facetClasses,
  getClass: 'classes(filter: { uuids: [$uuid] }) { objects { uuid name user_key } }',
  listOrgUnitChildren:
    'org_units(filter: { uuids: [$uuid] }) { objects { children { uuid name user_key validity { from to } } } }',
  getOrgUnit:
    'org_units(filter: { uuids: [$uuid] }) { objects { uuid name user_key validity { from to } org_unit_type { uuid } org_unit_level { uuid } parent { uuid } } }',
  getEmployee: 'employees(filter: { uuids: [$uuid] }) { objects { uuid name givenname surname user_key } }',
};

/** Every read but the detail listings, by operation: the query the report checks each against. */
const readReplacements: Record<string, string> = {
  ...recordReplacements,
  ...hierarchyReplacements,
  ...organisationReplacements,
};

/** The v2 query that replaces a detail listing, as the coverage report names it: the fields it compares. */
export function detailReplacement(detail: { owner: DetailOwner; type: DetailType }): string {
  return `${detail.owner}(filter: { uuids: [$uuid] }) { objects { ${detailSelection(detail.owner, detail.type)} } }`;
}

/**
 * The newest served version that answers a read: v30 with its query in OS2mo's shape where the served v30
 * has every field and filter the read needs, or v2 with why not (from OS2mo's schema and the served one,
 * `os2mo-road.ts`). `undefined` for a write or an operation the report does not cover.
 */
export type NewestReplacement =
  { version: 'v30'; query: string } | { version: 'v2'; query: string; reason: string };

/** The v2 query that replaces a read, as the report names it; `undefined` for a write or an uncovered read. */
export function v2Replacement(operation: { operationId: string; method: string; path: string }) {
  if (operation.method !== 'GET') return undefined;
  const detail = detailEndpoint(operation.path);
  return detail ? detailReplacement(detail) : readReplacements[operation.operationId];
}

/** A detail listing from OS2mo's record collection, as shown: for an owner whose type has no field for it. */
const detailCollectionReplacement = (detail: { owner: DetailOwner; type: DetailType }) =>
  os2moSelection(
    `${detailField('org_units', detail.type)}(filter: { ${os2moOwnerFilter[detail.owner]}: { uuids: [$uuid] } }) { objects { ${detailRecordSelection(detail.type)} } }`,
  );

/** A read's own v30 forms, in OS2mo's shape, for where its v2 query does not translate. */
function v30Forms(operation: { operationId: string; path: string }): string[] {
  const detail = detailEndpoint(operation.path);
  return detail ? [detailCollectionReplacement(detail)] : (hierarchyV30Forms[operation.operationId] ?? []);
}

export function newestReplacement(operation: {
  operationId: string;
  method: string;
  path: string;
}): NewestReplacement | undefined {
  const v2 = v2Replacement(operation);
  return v2 === undefined ? undefined : os2moReplacement(v2, undefined, v30Forms(operation));
}

/** What the shown v30 query still asks that OS2mo deprecates with no replacement, as a clause. */
function unreplaced(query: string): string {
  const kept = deprecatedWithoutReplacement(servedV30Schema(), query);
  if (kept.length === 0) return '';
  const named = kept.map(({ coordinate, reason }) => `\`${coordinate}\` (${reason.replace(/\.$/, '')})`);
  return `, where OS2mo deprecates ${named.join(' and ')} with no replacement yet`;
}

/**
 * What replaces an operation, in words a `410` can use, known without reading any data: for a read, the
 * newest version's query (v30 where OS2mo's schema has a place for it, beside the v2 query the coverage
 * report proves), or the mutation it names for a write; for an operation the report does not cover, a
 * pointer to the report.
 */
export function replacementSentence(operation: {
  operationId: string;
  method: string;
  path: string;
}): string {
  const newest = newestReplacement(operation);
  if (newest !== undefined) {
    const v2 = `the GraphQL query \`${v2Replacement(operation)!}\` on /graphql/v2`;
    return newest.version === 'v30'
      ? `the GraphQL query \`${newest.query}\` on /graphql/v30${unreplaced(newest.query)} (or, deprecated, ${v2})`
      : `${v2} (${newest.reason.replace(/\.$/, '')})`;
  }
  const mutation = /^Replaced by (the mutations? .+?)\.?$/.exec(writeMutations[operation.operationId] ?? '');
  const v30 = writeReplacements()[operation.operationId];
  if (operation.method !== 'GET' && v30 !== undefined && v30.mutations.length > 0) {
    const names = v30.mutations.join(', ');
    const v2 = mutation ? ` (or, deprecated, ${mutation[1]} on /graphql/v2)` : '';
    return `the mutation${v30.mutations.length > 1 ? 's' : ''} ${names} on /graphql/v30${v2}`;
  }
  if (operation.method !== 'GET' && mutation) return `${mutation[1]} on /graphql/v2`;
  return 'the GraphQL query the coverage report (GET /migration/coverage) names for it';
}
