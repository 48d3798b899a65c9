import { detailTypes, type DetailType } from '../../legacy/legacy-paths.js';
import { detailField, type DetailOwner } from '../detail-listings.js';
import type { ContractOperation } from './contract-operations.js';
import { writeMutations } from './not-covered.js';

const detailPath = /^\/service\/(ou|e)\/\{uuid\}\/details\/([a-z_]+)$/;

/** A detail listing endpoint of the contract: whose, and which type. */
export function detailEndpoint(path: string): { owner: DetailOwner; type: DetailType } | null {
  const match = detailPath.exec(path);
  const type = match?.[2] as DetailType | undefined;
  if (!match || type === undefined || !(detailTypes as readonly string[]).includes(type)) return null;
  return { owner: match[1] === 'ou' ? 'org_units' : 'employees', type };
}

/** The v2 query that replaces a detail listing, as the coverage report names it. */
export function detailReplacement(detail: { owner: DetailOwner; type: DetailType }): string {
  return `${detail.owner}(filter: { uuids: [$uuid] }) { objects { ${detailField(detail.owner, detail.type)} { … } } }`;
}

/**
 * What replaces an operation, in words a `410` can use, known without reading any data: the v2 query for
 * a detail listing, the mutation for a write (both as the coverage report names them), and otherwise a
 * pointer to the coverage report, whose checks name the query for each other read.
 */
export function replacementSentence(
  operation: Pick<ContractOperation, 'operationId' | 'method' | 'path'>,
): string {
  const detail = detailEndpoint(operation.path);
  if (operation.method === 'GET' && detail) {
    return `the GraphQL query \`${detailReplacement(detail)}\` on /graphql/v2`;
  }
  const mutation = /^Replaced by (the mutations? .+?)\.?$/.exec(writeMutations[operation.operationId] ?? '');
  if (operation.method !== 'GET' && mutation) return `${mutation[1]} on /graphql/v2`;
  return 'the GraphQL query the coverage report (GET /migration/coverage) names for it';
}
