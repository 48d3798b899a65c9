import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compiledSources, gatewayAssets, gatewayFolder } from '../scripts/gateway-build-plan.js';

/**
 * What the image would run: `npm run build` compiles these sources into `gateway/dist/`, and the Dockerfile
 * copies `dist/` onto production dependencies only. Build time (the Mesh build and SDL generation, the
 * generators that format with prettier) and the compare CLI stay out.
 */
const sources = compiledSources();
const paths = sources.map((source) => source.path);
const gatewayPackage = JSON.parse(readFileSync(`${gatewayFolder}package.json`, 'utf8')) as {
  dependencies: Record<string, string>;
};

describe('the built gateway', () => {
  it('compiles the entry point and what serves requests', () => {
    expect(paths).toEqual(expect.arrayContaining(['main.ts', 'app.ts', 'graphql/versions.ts']));
  });

  it('leaves out what only the build, the benchmark or the CLI needs', () => {
    const buildOnly = paths.filter(
      (path) =>
        path.startsWith('org-graph/') ||
        path.startsWith('comparison/cli/') ||
        /-cli\.ts$/.test(path) ||
        /\.test(-helpers)?\.ts$/.test(path),
    );
    expect(buildOnly).toEqual([]);
  });

  it('imports only the production dependencies the image installs', () => {
    const production = new Set(Object.keys(gatewayPackage.dependencies));
    const missing = sources.flatMap((source) =>
      source.packages.filter((name) => !production.has(name)).map((name) => `${source.path}: ${name}`),
    );
    expect(missing).toEqual([]);
  });

  it('copies the files it reads beside its modules, and the image takes dist/ and no contract file', () => {
    for (const asset of gatewayAssets) expect(existsSync(`${gatewayFolder}src/${asset}`), asset).toBe(true);
    const dockerfile = readFileSync(new URL('../Dockerfile', import.meta.url), 'utf8');
    const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    const copied = [...finalStage.matchAll(/^COPY (?:--from=\S+ )?(.+) \S+$/gm)].map((match) => match[1]);
    expect(copied).toContain('/app/gateway/dist');
    expect(copied.filter((source) => /^(gateway\/src|openapi)\b/.test(source ?? ''))).toEqual([]);
  });
});
