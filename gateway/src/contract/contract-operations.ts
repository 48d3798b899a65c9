/**
 * One operation of the legacy contract under `/service`, as `openapi/legacy-service.yaml` declares it. The
 * gateway reads the contract's operations from `contract-operations.generated.ts`, written at build time by
 * `npm run graph:generate`, so nothing parses the OpenAPI file at start.
 */
export interface ContractOperation {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path as the contract writes it, e.g. `/service/ou/{uuid}/details/address`. */
  path: string;
  summary: string;
  /** The query parameters the contract gives the operation (its own and its path's), in the contract's order. */
  flags: readonly string[];
  /**
   * Why the listing can never hold a record (the operation's `x-always-empty`), for listings OS2mo only
   * ever answers with `[]`: the report proves them equal and empty instead of leaving them unproven.
   */
  alwaysEmpty?: string;
  /** A read whose successful answer can hold a CPR number (`cpr_no`) somewhere in the contract's schema. */
  carriesCpr?: true;
}
