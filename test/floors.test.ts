import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise, type IConfiguration } from 'dependency-cruiser';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The floors `.dependency-cruiser.cjs` draws (docs/architecture.md), checked on small trees written to a
 * temporary folder in the repository's layout: each case is one import, and the rule it breaks (or none).
 * `npm run lint:floors` holds the real tree to the same configuration.
 */
const config = createRequire(import.meta.url)('../.dependency-cruiser.cjs') as IConfiguration;

let folder: string | undefined;
afterEach(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
  folder = undefined;
});

/** The names of the rules a tree of `{path: source}` breaks. */
async function violations(files: Record<string, string>): Promise<string[]> {
  folder = await mkdtemp(join(tmpdir(), 'floors-'));
  for (const [path, source] of Object.entries(files)) {
    await mkdir(dirname(join(folder, path)), { recursive: true });
    await writeFile(join(folder, path), source);
  }
  const result = await cruise(
    Object.keys(files).filter((path) => !path.endsWith('.json')),
    { baseDir: folder, validate: true, ruleSet: { forbidden: config.forbidden }, tsPreCompilationDeps: true },
    { extensions: ['.ts', '.js'] },
  );
  if (typeof result.output === 'string') throw new Error('dependency-cruiser answered text, not a result');
  return result.output.summary.violations.map((violation) => violation.rule.name).sort();
}

const importing = (path: string) => `import { x } from '${path}';\nexport const y = x;\n`;
const plain = 'export const x = 1;\n';

describe('the floors', () => {
  it.each([
    [
      'auth/ reads config.ts (above it)',
      'gateway/src/auth/a.ts',
      '../config.js',
      'gateway/src/config.ts',
      'floor-1-imports-up',
    ],
    [
      'usage/ reads comparison/',
      'gateway/src/usage/a.ts',
      '../comparison/b.js',
      'gateway/src/comparison/b.ts',
      'floor-2-imports-up',
    ],
    [
      'errors/ reads legacy/',
      'gateway/src/errors/a.ts',
      '../legacy/b.js',
      'gateway/src/legacy/b.ts',
      'floor-1-imports-up',
    ],
    [
      'rbac/ reads graphql/',
      'gateway/src/rbac/a.ts',
      '../graphql/b.js',
      'gateway/src/graphql/b.ts',
      'floor-6-imports-up',
    ],
    [
      'legacy/ reads graphql/',
      'gateway/src/legacy/a.ts',
      '../graphql/b.js',
      'gateway/src/graphql/b.ts',
      'floor-4-imports-up',
    ],
  ])('refuses %s', async (_case, from, specifier, to, rule) => {
    expect(await violations({ [from]: importing(specifier), [to]: plain })).toEqual([rule]);
  });

  it.each([
    [
      'graphql/ reads legacy/ (below it)',
      'gateway/src/graphql/a.ts',
      '../legacy/b.js',
      'gateway/src/legacy/b.ts',
    ],
    ['rbac/ reads cpr/ (the same floor)', 'gateway/src/rbac/a.ts', '../cpr/b.js', 'gateway/src/cpr/b.ts'],
    ['a test reads any floor', 'gateway/src/auth/a.test.ts', '../app.js', 'gateway/src/app.ts'],
  ])('lets %s', async (_case, from, specifier, to) => {
    expect(await violations({ [from]: importing(specifier), [to]: plain })).toEqual([]);
  });

  it('refuses a room that has no floor', async () => {
    const found = await violations({
      'gateway/src/new-room/a.ts': importing('../errors/b.js'),
      'gateway/src/errors/b.ts': plain,
    });
    expect(found).toEqual(['room-without-a-floor']);
  });

  it('refuses files that import each other in a circle, on one floor', async () => {
    const found = await violations({
      'gateway/src/graphql/a.ts': importing('./b.js'),
      'gateway/src/graphql/b.ts': importing('./a.js'),
    });
    expect(found).toEqual(['no-circular']);
  });

  it.each([
    [
      'the gateway',
      'gateway/src/legacy/a.ts',
      '../../../legacy-service/src/b.js',
      'legacy-service/src/b.ts',
      'gateway-imports-another-package',
    ],
    [
      'the gateway',
      'gateway/src/legacy/a.ts',
      '../../../idp/src/b.js',
      'idp/src/b.ts',
      'gateway-imports-another-package',
    ],
    [
      'the legacy service',
      'legacy-service/src/a.ts',
      '../../gateway/src/b.js',
      'gateway/src/b.ts',
      'legacy-service-imports-another-package',
    ],
    [
      'the identity provider',
      'idp/src/a.ts',
      '../../legacy-service/src/b.js',
      'legacy-service/src/b.ts',
      'idp-imports-another-package',
    ],
  ])('refuses %s importing another package’s source', async (_case, from, specifier, to, rule) => {
    expect(await violations({ [from]: importing(specifier), [to]: plain })).toEqual([rule]);
  });
});
