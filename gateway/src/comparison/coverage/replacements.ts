import { detailTypes, type DetailType } from '../../legacy/legacy-paths.js';
import { detailField, type DetailOwner } from '../detail-listings.js';
import { hierarchyReplacements } from './hierarchy-checks.js';
import { writeMutations } from './not-covered.js';
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
 * What replaces an operation, in words a `410` can use, known without reading any data: the v2 query the
 * coverage report checks a read against, or the mutation it names for a write; for an operation the
 * report does not cover, a pointer to the report.
 */
export function replacementSentence(operation: {
  operationId: string;
  method: string;
  path: string;
}): string {
  const detail = detailEndpoint(operation.path);
  if (operation.method === 'GET' && detail) {
    return `the GraphQL query \`${detailReplacement(detail)}\` on /graphql/v2`;
  }
  const read = readReplacements[operation.operationId];
  if (operation.method === 'GET' && read !== undefined) return `the GraphQL query \`${read}\` on /graphql/v2`;
  const mutation = /^Replaced by (the mutations? .+?)\.?$/.exec(writeMutations[operation.operationId] ?? '');
  if (operation.method !== 'GET' && mutation) return `${mutation[1]} on /graphql/v2`;
  return 'the GraphQL query the coverage report (GET /migration/coverage) names for it';
}
