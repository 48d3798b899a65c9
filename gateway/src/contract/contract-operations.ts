/**
 * One operation of the legacy contract under `/service` or `/api/v1`, as `openapi/legacy-service.yaml` declares it. The
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

/**
 * Whether an operation lies under `/service`, the Service API the coverage report compares with GraphQL and the
 * migration retires endpoint by endpoint; the contract's other operations are OS2mo 2.4.0's reading API under
 * `/api/v1`, passed through and counted like `/service`, which the event record reads.
 */
export function isServiceOperation(operation: { path: string }): boolean {
  return operation.path.startsWith('/service/');
}

/** The route of OS2mo 2.4.0's reading API (`/api/v1/{type}`, `/api/v1/{type}/by_uuid`), as requests are labelled. */
export const readingApiRoute = '/api/v1/*';
