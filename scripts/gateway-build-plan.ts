import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * What `npm run build` puts in `gateway/dist/`, the folder the image copies: the modules `tsc` compiles with
 * `gateway/tsconfig.build.json` (its include list and everything those import) and the files the gateway
 * reads beside its own modules. What only the build, the benchmark or the CLI needs is left out there.
 */
export const gatewayFolder = fileURLToPath(new URL('../gateway/', import.meta.url));
export const buildConfig = `${gatewayFolder}tsconfig.build.json`;

/** Read at run time from beside the modules, relative to `gateway/src/`; copied over after compiling. */
export const gatewayAssets = ['org-graph/org-graph.graphql', 'browser/client', 'database/migrations'];

/** One module `tsc` compiles into `dist/`: its path under `gateway/src/` and the packages it imports. */
export interface CompiledSource {
  path: string;
  /** Package names (`prettier`, `@graphql-mesh/cli`), without Node's own modules. */
  packages: string[];
}

function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The gateway's sources `tsc` compiles into `dist/`, sorted by path. */
export function compiledSources(): CompiledSource[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    buildConfig,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (parsed === undefined) throw new Error(`${buildConfig} cannot be read`);
  // tsc also compiles what an included module imports, so the program, not the include list, is the answer.
  const program = ts.createProgram(parsed.fileNames, { ...parsed.options, noEmit: true });
  const source = `${gatewayFolder}src/`;
  return program
    .getSourceFiles()
    .filter((file) => file.fileName.startsWith(source) && !file.isDeclarationFile)
    .map((file) => ({
      path: file.fileName.slice(source.length),
      packages: [
        ...new Set(
          file.statements.flatMap((statement) =>
            (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
            statement.moduleSpecifier !== undefined &&
            ts.isStringLiteral(statement.moduleSpecifier)
              ? [packageOf(statement.moduleSpecifier.text) ?? []].flat()
              : [],
          ),
        ),
      ].sort(),
    }))
    .sort((a, b) => a.path.localeCompare(b.path));
}
