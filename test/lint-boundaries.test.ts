import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The import boundaries `eslint.config.js` draws, checked by linting small sources as if they lived at a
 * path in the gateway. In a flat config a later `no-restricted-imports` for the same files replaces an
 * earlier one, so a block for one folder can silently drop the gateway-wide rule: these cases catch that.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function restrictedImports(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return result!.messages
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
}

const imports = {
  legacyService:
    "import { startLegacyService } from '../../../legacy-service/src/server.js';\nvoid startLegacyService;\n",
  idp: "import { startIdp } from '../../../idp/src/server.js';\nvoid startIdp;\n",
  graphql: "import { build } from '../graphql/schema.js';\nvoid build;\n",
  legacy: "import { createLegacyLoaders } from '../legacy/legacy-loaders.js';\nvoid createLegacyLoaders;\n",
};

describe('eslint import boundaries', () => {
  it.each([
    ['gateway/src/rbac/fixture.ts', 'legacyService'],
    ['gateway/src/rbac/fixture.ts', 'idp'],
    ['gateway/src/rbac/fixture.ts', 'graphql'],
    ['gateway/src/legacy/fixture.ts', 'legacyService'],
    ['gateway/src/legacy/fixture.ts', 'idp'],
  ] as const)('refuses in %s an import of %s source', async (filePath, what) => {
    expect(await restrictedImports(filePath, imports[what])).toHaveLength(1);
  });

  it.each([
    ['gateway/src/rbac/fixture.ts', 'legacy'],
    ['gateway/src/legacy/fixture.ts', 'graphql'],
  ] as const)('lets %s import %s', async (filePath, what) => {
    expect(await restrictedImports(filePath, imports[what])).toEqual([]);
  });
});
