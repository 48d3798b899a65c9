import { spawnSync } from 'node:child_process';
import { cp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { buildConfig, gatewayAssets, gatewayFolder } from './gateway-build-plan.js';

/**
 * `npm run build`: the gateway as plain JavaScript in `gateway/dist/` (`node gateway/dist/main.js`), the way
 * the image and the benchmark run it. Without tsx's loader the process starts with about 40 MB less memory
 * (measured with `bench/memory-profile.ts`), and nothing compiles at start. `dist/` sits at the same depth as
 * `src/`, so the paths the gateway reads from the repository (`docs/`) resolve alike; the files it
 * reads from beside its own modules are copied over. What goes in is listed in `gateway-build-plan.ts`.
 */
const usage = `Usage: npm run build [-- --no-check]

Compiles the gateway into gateway/dist/ (node gateway/dist/main.js), as the image runs it.
  --no-check  emits without checking the types first: about a third of the CPU time, for a build whose
              types are checked elsewhere (npm run typecheck, which npm test runs). The JavaScript is the
              same: each module compiles on its own (isolatedModules in tsconfig.json).
`;
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(usage);
  process.exit(0);
}
const unknown = args.filter((arg) => arg !== '--no-check');
if (unknown.length > 0) {
  process.stderr.write(`Unknown option '${unknown[0]}'\n\n${usage}`);
  process.exit(2);
}

const gateway = gatewayFolder;
const dist = `${gateway}dist/`;

await rm(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const check = args.includes('--no-check') ? ['--noCheck'] : [];
const compiled = spawnSync(process.execPath, [tsc, '-p', buildConfig, ...check], {
  stdio: 'inherit',
});
if (compiled.status !== 0) {
  console.error('build: tsc failed; gateway/dist/ is incomplete');
  process.exit(compiled.status ?? 1);
}
for (const asset of gatewayAssets) {
  await cp(`${gateway}src/${asset}`, `${dist}${asset}`, { recursive: true });
}
console.log('build: gateway/dist/ is ready (node gateway/dist/main.js)');
