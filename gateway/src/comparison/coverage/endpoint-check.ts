import type { Difference } from '../differences.js';
import type { JsonRecord, NormalValue } from '../normal-form.js';
import type { GraphQLRequestBody } from '../subjects.js';

/** A listing or record of `/service` against a GraphQL query, record by record. */
export interface RecordCheck {
  graphql: string;
  /** Reads the legacy side: the paths read and the records they gave. */
  legacy: () => Promise<{ paths: string[]; records: unknown[] }>;
  request: (uuids: string[]) => GraphQLRequestBody;
  graphqlRecords: (data: unknown) => unknown;
  view: (record: JsonRecord) => NormalValue;
}

export interface CheckOutcome {
  paths: string[];
  differences: Difference[];
  empty: boolean;
  reads: number;
}

/** A check of one endpoint: the GraphQL that replaces it, and the comparison on the sample. */
export interface EndpointCheck {
  graphql: string;
  run: () => Promise<CheckOutcome>;
}
