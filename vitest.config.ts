import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';
import ProjectGroupedSequencer from './test/file-order.js';

const require = createRequire(import.meta.url);

/** Tests that drive a process or a program of their own (Chromium, nginx, Prometheus, Mesh, tsc, a spawned gateway). */
const toolTests = [
  'test/browser.test.ts',
  'test/compare.test.ts',
  'test/compiled-gateway.test.ts',
  'test/database.test.ts',
  'test/events-consumer.test.ts',
  'test/events-kill.test.ts',
  'test/events-metrics.test.ts',
  'test/events.test.ts',
  'test/rate-limits-postgres.test.ts',
  'test/rate-limits.test.ts',
  'test/deployment.test.ts',
  'test/doc-shell-examples.test.ts',
  'test/hive-peer.test.ts',
  'test/floors.test.ts',
  'test/mesh-peer-graph.test.ts',
  'test/mesh-peer.test.ts',
  'test/os2mo-like-backend.test.ts',
  'test/request-memory.test.ts',
  'test/shutdown.test.ts',
  'test/start-command.test.ts',
  'test/start-supervision.test.ts',
  'test/script-help.test.ts',
  'test/os2mo-ui-trial-signals.test.ts',
  'test/stateless.test.ts',
  'test/usage-retirement.test.ts',
  'test/workbench.test.ts',
  'gateway/src/org-graph/adding-a-field.test.ts',
  'gateway/src/org-graph/org-graph.test.ts',
  'idp/src/server.test.ts',
  'legacy-service/src/durability.test.ts',
  'legacy-service/src/store/crash.test.ts',
  'legacy-service/src/store/lock.test.ts',
];
/**
 * Unit tests that need a module registry of their own: they replace a module (`vi.mock`) or assert which
 * modules a call loads. Every other unit file shares its worker's modules with the files before it.
 */
const isolatedUnitTests = [
  'gateway/src/auth/token-verifier.test.ts',
  'gateway/src/observability/tracing-load.test.ts',
];
const excluded = ['**/node_modules/**', '**/.mesh/**'];

export default defineConfig({
  resolve: {
    // One graphql for everyone: Vite would pick graphql's ESM build for our code while Node loads the
    // CommonJS build for graphql-yoga, and graphql refuses types from "another module or realm".
    alias: { graphql: require.resolve('graphql') },
  },
  test: {
    testTimeout: 30_000,
    // `expect.poll` waits for a condition; its bound is for a loaded machine (Vitest's own is 1 s), never a
    // measure of speed: on a shared 2-core machine a page or a process can take seconds to get to it.
    expect: { poll: { timeout: 20_000 } },
    // Files and the tests in each run in a random order, printed as the seed: a test that needs another to run
    // first fails here rather than by chance. Repeat an order with `--sequence.seed=N`.
    // Each project's files together (test/file-order.ts): a worker process is reused only for a file of the
    // same project.
    sequence: { shuffle: { files: true, tests: true }, sequencer: ProjectGroupedSequencer },
    hookTimeout: 60_000,
    pool: 'forks',
    // One worker more than cores: a worker waits on servers and processes much of the time (Vitest's default, one
    // fewer than cores, ran the files one at a time on two). Beside a busy process on two cores, three workers
    // took 486-510 s where two took 538 s; four took 480 s for more CPU, within the noise of three.
    maxWorkers: availableParallelism() + 1,
    server: { deps: { external: [/\/\.mesh\//] } },
    projects: [
      {
        extends: true,
        // The files of one worker share one process and its loaded modules, as the stack project's do: importing
        // graphql, Yoga and the gateway once a file was half of the unit project's time.
        test: {
          name: 'unit',
          include: ['**/*.test.ts'],
          exclude: [...excluded, 'test/**', ...toolTests, ...isolatedUnitTests],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'unit-isolated', include: isolatedUnitTests, exclude: excluded } },
      {
        // Whole-stack tests in one process per worker: the gateway's modules load once, not once a file, and
        // the files that only read share one stack (`sharedReadOnlyStack`).
        extends: true,
        test: {
          name: 'stack',
          include: ['test/**/*.test.ts'],
          exclude: [...excluded, ...toolTests],
          isolate: false,
          globalSetup: ['test/shared-stacks-setup.ts'],
        },
      },
      // One process per worker too: each file's servers and processes are its own, so a fresh process per file
      // bought nothing but loading Vitest and the gateway's modules again.
      { extends: true, test: { name: 'tools', include: toolTests, exclude: excluded, isolate: false } },
    ],
  },
});
