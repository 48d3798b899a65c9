import { defineConfig, type GatewayPlugin } from '@graphql-hive/gateway';
import { useDeduplicateRequest } from '@graphql-hive/plugin-deduplicate-request';

/**
 * Hive Gateway serving the supergraph `mesh.config.ts` composes (the file is named on the command line).
 * Request deduplication is Hive's own answer to REST sources that read the same URL twice in one request;
 * it is on, as it should be for a fair peer. Everything else stays at its defaults, except what a
 * benchmark on loopback does not want: the landing page and GraphiQL.
 */
export const gatewayConfig = defineConfig({
  // The plugin bundles its own copy of the gateway's plugin type, which TypeScript does not unify with the
  // gateway's; it is the same shape at run time.
  plugins: () => [useDeduplicateRequest() as unknown as GatewayPlugin],
  landingPage: false,
  graphiql: false,
  logging: 'warn',
});
