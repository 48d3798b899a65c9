import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { countValidDocuments, uiOperations } from './ui-documents.js';

/** A small UI source tree: documents in a component and in a module, a shared fragment, generated types. */
function sourceTree(): string {
  const src = mkdtempSync(join(tmpdir(), 'ui-documents-'));
  mkdirSync(join(src, 'lib'));
  writeFileSync(
    join(src, 'lib', 'Table.svelte'),
    '<script>\n  gql`\n    query Units($at: String) { units(at: $at) { ...UnitName } }\n  `\n' +
      '  gql`\n    query Broken { units { colour } }\n  `\n</script>\n',
  );
  writeFileSync(
    join(src, 'lib', 'fragments.ts'),
    'export const f = gql`\n  fragment UnitName on Unit { name ${other} }\n  mutation Rename { rename { name } }\n`\n',
  );
  writeFileSync(join(src, 'lib', 'query.generated.ts'), 'gql`query Units { units { name } }`');
  writeFileSync(join(src, 'lib', 'Bad.svelte'), 'gql`query {`');
  return src;
}

const schema = buildSchema(`
  type Unit { name: String }
  type Query { units(at: String): [Unit] }
  type Mutation { rename: Unit }
`);

describe("the UI's documents", () => {
  it('finds every operation with the fragments it spreads, leaving out generated files, and names what does not parse', () => {
    const { operations, unparsable } = uiOperations(sourceTree());
    expect(operations.map((operation) => [operation.name, operation.file])).toEqual([
      ['Units', 'lib/Table.svelte'],
      ['Broken', 'lib/Table.svelte'],
      ['Rename', 'lib/fragments.ts'],
    ]);
    expect(operations[0]!.document.definitions.map((definition) => definition.kind)).toEqual([
      'OperationDefinition',
      'FragmentDefinition',
    ]);
    expect(unparsable).toEqual([expect.stringMatching(/^lib\/Bad\.svelte: Syntax Error/)]);
  });

  it('counts the valid ones and lists why the others fail, without suggestions', () => {
    const count = countValidDocuments(uiOperations(sourceTree()).operations, schema);
    expect(count).toEqual({
      total: 3,
      valid: 2,
      failing: [
        { name: 'Broken', file: 'lib/Table.svelte', errors: ['Cannot query field "colour" on type "Unit".'] },
      ],
      errorCounts: [['Cannot query field "colour" on type "Unit".', 1]],
    });
  });
});
