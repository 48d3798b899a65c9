import type { ContractOperation } from '../contract/contract-operations.js';
import { endpointTemplates, type EndpointTemplates } from '../contract/endpoint-templates.js';

/**
 * The contract's `/service` reads whose successful answer can carry a CPR number (`cpr_no`), as
 * `GET /service/e/{uuid}/`: the only answers the passthrough reads for CPR numbers, so every other answer
 * streams on untouched. Found in the contract's schemas at build time (`carriesCpr`).
 */
export function cprEndpoints(operations: readonly ContractOperation[]): string[] {
  const carrying = operations.filter((operation) => operation.carriesCpr).map((operation) => operation.path);
  const searching = cprSearchEndpoints.filter((path) =>
    operations.some((operation) => operation.path === path),
  );
  return [...new Set([...carrying, ...searching])];
}

/**
 * The `/service` reads whose `?query=` the backend matches against the CPR register, so a number as search
 * text is a CPR search even where the answer carries no number: the person listing (OS2mo 2.4.0
 * `backend/mora/service/employee.py` lines 461–464) and the person autocomplete, which 2.4.0 hands to LoRa's
 * `bruger` autocomplete (`employee.py` line 375, `service/autocomplete.py`) and whose CPR match OS2mo still
 * has at HEAD (`mora/service/autocomplete/employees.py`, `_get_cte_cpr_hits`); our contract says it matches
 * a CPR number. The unit autocomplete matches no person, and 2.4.0's `/api/v1` takes no search text.
 */
export const cprSearchEndpoints: readonly string[] = ['/service/o/{org}/e/', '/service/e/autocomplete/'];

/** Matches a request to the contract's reads that can carry a CPR number. */
export function cprEndpointMatcher(paths: readonly string[]): EndpointTemplates {
  return endpointTemplates(paths.map((path) => ({ method: 'GET', path })));
}
