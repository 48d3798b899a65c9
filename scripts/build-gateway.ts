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
const gateway = gatewayFolder;
const dist = `${gateway}dist/`;

await rm(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', buildConfig], {
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
