import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  Kind,
  parse,
  validate,
  visit,
  type DefinitionNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
} from 'graphql';

/** One GraphQL operation of the UI, with the fragments it spreads, and the file it is written in. */
export interface UiOperation {
  name: string;
  file: string;
  document: DocumentNode;
}

/** The UI's source files that hold its documents; the generated types repeat them and are left out. */
function sourceFiles(folder: string, found: string[] = []): string[] {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) sourceFiles(path, found);
    else if (/\.(svelte|ts)$/.test(entry.name) && !entry.name.includes('generated')) found.push(path);
  }
  return found.sort();
}

/** Every operation a `gql` template literal in `srcFolder` defines; `${…}` parts are dropped, as the UI joins none. */
export function uiOperations(srcFolder: string): { operations: UiOperation[]; unparsable: string[] } {
  const operations: { name: string; file: string; definition: DefinitionNode }[] = [];
  const fragments = new Map<string, FragmentDefinitionNode>();
  const unparsable: string[] = [];
  for (const path of sourceFiles(srcFolder)) {
    const file = relative(srcFolder, path);
    for (const [, text] of readFileSync(path, 'utf8').matchAll(/gql`([\s\S]*?)`/g)) {
      let document: DocumentNode;
      try {
        document = parse(text!.replace(/\$\{[^}]*\}/g, ''));
      } catch (error) {
        unparsable.push(`${file}: ${(error as Error).message}`);
        continue;
      }
      for (const definition of document.definitions) {
        if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
        else if (definition.kind === Kind.OPERATION_DEFINITION) {
          operations.push({ name: definition.name?.value ?? '(anonymous)', file, definition });
        }
      }
    }
  }
  return {
    operations: operations.map(({ name, file, definition }) => ({
      name,
      file,
      document: withFragments(definition, fragments),
    })),
    unparsable,
  };
}

/** An operation and every fragment it spreads, at any depth. */
function withFragments(
  operation: DefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): DocumentNode {
  const definitions: DefinitionNode[] = [operation];
  const seen = new Set<string>();
  for (let index = 0; index < definitions.length; index += 1) {
    visit(definitions[index]!, {
      FragmentSpread(spread) {
        const fragment = fragments.get(spread.name.value);
        if (fragment && !seen.has(fragment.name.value)) {
          seen.add(fragment.name.value);
          definitions.push(fragment);
        }
      },
    });
  }
  return { kind: Kind.DOCUMENT, definitions };
}

export interface DocumentCount {
  total: number;
  valid: number;
  /** Each operation that does not validate, with its errors (graphql-js's or the gateway's sentences). */
  failing: { name: string; file: string; errors: string[] }[];
  /** How often each error occurs over all failing operations, most frequent first. */
  errorCounts: [message: string, count: number][];
}

/** Validates every operation against `schema`: how many pass, and why the others do not. */
export function countValidDocuments(
  operations: readonly UiOperation[],
  schema: GraphQLSchema,
): DocumentCount {
  const failing: DocumentCount['failing'] = [];
  const counts = new Map<string, number>();
  for (const operation of operations) {
    const errors = validate(schema, operation.document).map((error) =>
      error.message.replace(/ Did you mean .*$/, ''),
    );
    if (errors.length === 0) continue;
    failing.push({ name: operation.name, file: operation.file, errors });
    for (const message of errors) counts.set(message, (counts.get(message) ?? 0) + 1);
  }
  return {
    total: operations.length,
    valid: operations.length - failing.length,
    failing,
    errorCounts: [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
  };
}
