import { detailTypes, type DetailType } from '../../legacy/legacy-paths.js';
import { detailField, type DetailOwner } from '../detail-listings.js';
import { hierarchyReplacements } from './hierarchy-checks.js';
import { writeMutations } from './not-covered.js';
import { v30Answers, v30DetailAnswer, type V30Answer } from './newest-versions.js';
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
  listOrgUnits: 'org_units { objects { uuid name user_key validity } }',
  listEmployees: 'employees { objects { uuid name givenname surname nickname user_key } }',
  listItSystems: 'itsystems { objects { uuid name user_key system_type } }',
  listFacets: 'facets { objects { uuid user_key } }',
  getFacet: facetClasses,
  listFacetClasses: facetClasses,
  getClass: 'classes(filter: { uuids: [$uuid] }) { objects { uuid name user_key } }',
  listOrgUnitChildren:
    'org_units(filter: { uuids: [$uuid] }) { objects { children { uuid name user_key validity } } }',
  getOrgUnit:
    'org_units(filter: { uuids: [$uuid] }) { objects { uuid name user_key validity org_unit_type org_unit_level parent } }',
  getEmployee: 'employees(filter: { uuids: [$uuid] }) { objects { uuid name givenname surname user_key } }',
};

/** Every read but the detail listings, by operation: the query the report checks each against. */
const readReplacements: Record<string, string> = {
  ...recordReplacements,
  ...hierarchyReplacements,
  ...organisationReplacements,
};

/** The v2 query that replaces a detail listing, as the coverage report names it. */
export function detailReplacement(detail: { owner: DetailOwner; type: DetailType }): string {
  return `${detail.owner}(filter: { uuids: [$uuid] }) { objects { ${detailField(detail.owner, detail.type)} { … } } }`;
}

/**
 * The newest served version that answers a read: v30 with its query in OS2mo's shape, or v2 (the query the
 * report proves) with why v30 has no place for it. `undefined` for a write or an operation the report
 * does not cover.
 */
export type NewestReplacement =
  { version: 'v30'; query: string } | { version: 'v2'; query: string; reason: string };

export function newestReplacement(operation: {
  operationId: string;
  method: string;
  path: string;
}): NewestReplacement | undefined {
  if (operation.method !== 'GET') return undefined;
  const detail = detailEndpoint(operation.path);
  const v2 = detail ? detailReplacement(detail) : readReplacements[operation.operationId];
  if (v2 === undefined) return undefined;
  const v30: V30Answer | undefined = detail ? v30DetailAnswer(detail) : v30Answers[operation.operationId];
  if (v30 !== undefined && 'query' in v30) return { version: 'v30', query: v30.query };
  return {
    version: 'v2',
    query: v2,
    reason: v30?.reason ?? "OS2mo's v30 names no query for it: v2 is the newest that answers it.",
  };
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
    const detail = detailEndpoint(operation.path);
    const v2 = detail ? detailReplacement(detail) : readReplacements[operation.operationId]!;
    const proven = `the GraphQL query \`${v2}\` on /graphql/v2`;
    return newest.version === 'v30'
      ? `the GraphQL query \`${newest.query}\` on /graphql/v30 (or ${proven}, where the coverage report proves it)`
      : proven;
  }
  const mutation = /^Replaced by (the mutations? .+?)\.?$/.exec(writeMutations[operation.operationId] ?? '');
  if (operation.method !== 'GET' && mutation) return `${mutation[1]} on /graphql/v2`;
  return 'the GraphQL query the coverage report (GET /migration/coverage) names for it';
}
