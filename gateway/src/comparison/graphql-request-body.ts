/** A GraphQL request as the comparison tools send it: one named operation with its variables. */
export interface GraphQLRequestBody {
  query: string;
  variables: Record<string, unknown>;
  operationName: string;
}
