import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // One graphql for everyone: Vite would pick graphql's ESM build for our code while Node loads the
    // CommonJS build for graphql-yoga, and graphql refuses types from "another module or realm".
    alias: { graphql: require.resolve('graphql') },
  },
  test: {
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/.mesh/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    server: { deps: { external: [/\/\.mesh\//] } },
  },
});
