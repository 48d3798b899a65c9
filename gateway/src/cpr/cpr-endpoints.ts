import type { ContractOperation } from '../contract/contract-operations.js';
import { endpointTemplates, type EndpointTemplates } from '../contract/endpoint-templates.js';

/**
 * The contract's `/service` reads whose successful answer can carry a CPR number (`cpr_no`), as
 * `GET /service/e/{uuid}/`: the only answers the passthrough reads for CPR numbers, so every other answer
 * streams on untouched. Found in the contract's schemas at build time (`carriesCpr`).
 */
export function cprEndpoints(operations: readonly ContractOperation[]): string[] {
  return operations.filter((operation) => operation.carriesCpr).map((operation) => operation.path);
}

/** Matches a request to the contract's reads that can carry a CPR number. */
export function cprEndpointMatcher(paths: readonly string[]): EndpointTemplates {
  return endpointTemplates(paths.map((path) => ({ method: 'GET', path })));
}
