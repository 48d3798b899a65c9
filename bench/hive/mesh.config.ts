import { defineConfig } from '@graphql-mesh/compose-cli';
import { loadOpenAPISubgraph } from '@omnigraph/openapi';

/**
 * The benchmark's second peer: GraphQL Mesh v1 composed over the same OpenAPI contract as `.meshrc.yaml`,
 * with the three links the reference query walks (unit → managers → person → engagements), each one
 * legacy call, as Mesh declares them. `bench/hive/peer.ts` runs `mesh-compose` on this file into a
 * temporary folder and serves the result with Hive Gateway (`bench/hive/gateway.config.ts`).
 *
 * The endpoint and the caller's token are read per request (`{env.…}`, `{context.…}`), so one composed
 * supergraph serves any legacy address.
 */
export const composeConfig = defineConfig({
  subgraphs: [
    {
      sourceHandler: loadOpenAPISubgraph('Legacy', {
        source: new URL('../../openapi/legacy-service.yaml', import.meta.url).pathname,
        endpoint: '{env.LEGACY_URL}',
        // Backend authentication on: the caller's bearer token goes on to the legacy service.
        operationHeaders: { Authorization: '{context.headers.authorization}' },
        ignoreErrorResponses: true,
      }),
    },
  ],
  additionalTypeDefs: /* GraphQL */ `
    extend type OrgUnit {
      managers: [Manager!]!
        @resolveTo(
          sourceName: "Legacy"
          sourceTypeName: "Query"
          sourceFieldName: "listOrgUnitManagers"
          requiredSelectionSet: "{ uuid }"
          sourceArgs: { uuid: "{root.uuid}" }
        )
    }
    extend type Manager {
      employee: Employee
        @resolveTo(
          sourceName: "Legacy"
          sourceTypeName: "Query"
          sourceFieldName: "getEmployee"
          requiredSelectionSet: "{ person { uuid } }"
          sourceArgs: { uuid: "{root.person.uuid}" }
        )
    }
    extend type Employee {
      engagements: [Engagement!]!
        @resolveTo(
          sourceName: "Legacy"
          sourceTypeName: "Query"
          sourceFieldName: "listEmployeeEngagements"
          requiredSelectionSet: "{ uuid }"
          sourceArgs: { uuid: "{root.uuid}" }
        )
    }
  `,
});
