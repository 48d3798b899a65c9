import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codegen } from '@graphql-codegen/core';
import * as typescriptOperationsPlugin from '@graphql-codegen/typescript-operations';
import { buildSchema, parse, printSchema, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildVersions } from '../gateway/src/graphql/versions.js';

/**
 * An OS2mo code generator's view of v30 (issue 21): operations written the way OS2mo integrations
 * write them against OS2mo's v29 printout validate against both schemas, `@graphql-codegen` makes
 * strict-compiling TypeScript from our served SDL, and code written against the types generated from
 * OS2mo's printout type-checks unchanged against the types generated from ours.
 */

const fixtures = new URL('./fixtures/', import.meta.url);
const operationsDir = new URL('os2mo-operations/', fixtures);

const operations = readdirSync(operationsDir)
  .filter((name) => name.endsWith('.graphql'))
  .sort()
  .map((name) => ({ name, document: parse(readFileSync(new URL(name, operationsDir), 'utf8')) }));

/** OS2mo's own v29 printout (vendored; its header names the source). */
const os2moV29 = buildSchema(readFileSync(new URL('os2mo-graphql/os2mo-v29.graphql', fixtures), 'utf8'));

function served(name: string): GraphQLSchema {
  const version = buildVersions().find((candidate) => candidate.name === name);
  if (!version) throw new Error(`no served version ${name}`);
  // The SDL as the gateway serves it at /graphql/<name>/schema.graphql, read back as a client would.
  return buildSchema(printSchema(version.schema));
}

/** Scalars as an integration maps them; the same map for both schemas. */
const scalars = {
  UUID: 'string',
  DateTime: 'string',
  Date: 'string',
  CPR: 'string',
  Cursor: 'string',
  int: 'number',
};

async function generateTypes(schema: GraphQLSchema, documents: readonly DocumentNode[]) {
  return codegen({
    schema: parse(printSchema(schema)),
    documents: documents.map((document, index) => ({
      document,
      location: operations[index]!.name,
    })),
    filename: 'types.ts',
    // typescript-operations (v6) emits the operations' result and variables types and the input types
    // they use, on its own.
    config: { scalars, defaultScalarType: 'unknown' },
    plugins: [{ typescriptOperations: {} }],
    pluginMap: { typescriptOperations: typescriptOperationsPlugin },
  });
}

/** Type-check `files` (name → source) in a fresh directory with strict options; the diagnostics, printed. */
function typeCheck(files: Record<string, string>): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'os2mo-codegen-'));
  try {
    const paths = Object.entries(files).map(([name, source]) => {
      const path = join(dir, name);
      writeFileSync(path, source);
      return path;
    });
    const program = ts.createProgram(paths, {
      strict: true,
      noEmit: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: [],
      skipLibCheck: true,
    });
    return ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Code an integration writes against the types generated from OS2mo's v29 printout: it reads the
 * results of each operation and builds each mutation's variables.
 */
const integrationCode = `import type {
  CreateUnitMutation,
  CreateUnitMutationVariables,
  OrgUnitsWindowQuery,
  OrgUnitsWindowQueryVariables,
  PersonsWithEngagementsQuery,
  ReferenceQuery,
  RenameUnitMutation,
  RenameUnitMutationVariables,
  UnitManagersQuery,
} from './types.js';

export function referenceNames(data: ReferenceQuery): string[] {
  return data.org_units.objects.flatMap((unit) =>
    (unit.current?.managers ?? []).flatMap((manager) =>
      (manager.person ?? []).map(
        (person) => person.name + ':' + manager.manager_type.user_key + ':' +
          person.engagements.map((engagement) => engagement.job_function.user_key).join(','),
      ),
    ),
  );
}

export const firstUnitName = (data: OrgUnitsWindowQuery): string | undefined =>
  data.org_units.objects[0]?.current?.name;

export function windowVariables(cursor: string | null): OrgUnitsWindowQueryVariables {
  return { from: '2020-01-01T00:00:00+01:00', to: null, limit: 100, cursor };
}

export function nextPage(data: OrgUnitsWindowQuery): string | null | undefined {
  const validFrom: string[] = data.org_units.objects.flatMap((unit) =>
    unit.validities.map((state) => state.validity.from),
  );
  return validFrom.length > 0 ? data.org_units.page_info.next_cursor : null;
}

export function payroll(data: PersonsWithEngagementsQuery): string[] {
  return data.persons.objects.flatMap((person) =>
    (person.current?.engagements ?? []).map(
      (engagement) =>
        person.uuid + ' ' + (person.current?.given_name ?? '') + ' ' + engagement.user_key + ' ' +
        engagement.job_function.name + ' ' + (engagement.validity.to ?? 'open') + ' ' +
        engagement.org_unit.map((unit) => unit.name).join('/'),
    ),
  );
}

export function managerOf(data: UnitManagersQuery): Array<[string, string]> {
  return data.managers.objects.flatMap((manager) =>
    (manager.current?.person ?? []).map(
      (person): [string, string] => [person.name, manager.current?.org_unit[0]?.name ?? ''],
    ),
  );
}

export const create: CreateUnitMutationVariables = {
  input: {
    name: 'Payroll',
    user_key: 'payroll',
    parent: 'f41291dc-2a78-5663-957a-efb8d5ed9a0e',
    org_unit_type: '0b2bf5e6-0f4a-4d2b-9b0a-4d8a7f9e2c11',
    validity: { from: '2026-01-01T00:00:00+01:00' },
  },
};
export const createdUuid = (data: CreateUnitMutation): string =>
  data.org_unit_create.uuid + (data.org_unit_create.current?.user_key ?? '');

export const rename: RenameUnitMutationVariables = {
  input: {
    uuid: 'f41291dc-2a78-5663-957a-efb8d5ed9a0e',
    name: 'Renamed',
    validity: { from: '2026-02-01T00:00:00+01:00' },
  },
};
export const renamed = (data: RenameUnitMutation): string | undefined =>
  data.org_unit_update.current?.name;
`;

let ours: GraphQLSchema;
let oursTypes: string;
let os2moTypes: string;
beforeAll(async () => {
  ours = served('v30');
  const documents = operations.map((operation) => operation.document);
  // One generation per schema.
  [oursTypes, os2moTypes] = await Promise.all([
    generateTypes(ours, documents),
    generateTypes(os2moV29, documents),
  ]);
});

describe('OS2mo-shaped operations, as an integration writes them', () => {
  it('are the operations the fixtures hold', () => {
    expect(operations.map((operation) => operation.name)).toEqual([
      'manager-create.graphql',
      'managers.graphql',
      'org-unit-create.graphql',
      'org-unit-update.graphql',
      'org-units-window.graphql',
      'persons-engagements.graphql',
      'reference.graphql',
    ]);
  });

  it.each(operations.map((operation) => [operation.name, operation.document] as const))(
    '%s validates against OS2mo’s v29 printout and against our v30',
    (_name, document) => {
      expect(validate(os2moV29, document).map((error) => error.message)).toEqual([]);
      expect(validate(ours, document).map((error) => error.message)).toEqual([]);
    },
  );

  it('does not validate against our own v2, so the check tells the dialects apart', () => {
    const v2 = served('v2');
    const failing = operations.filter((operation) => validate(v2, operation.document).length > 0);
    expect(failing.map((operation) => operation.name)).toEqual(operations.map((operation) => operation.name));
  });
});

describe('@graphql-codegen over our v30 SDL', () => {
  it('generates a type for every operation’s result and variables', () => {
    for (const name of [
      'ReferenceQuery',
      'OrgUnitsWindowQueryVariables',
      'PersonsWithEngagementsQuery',
      'UnitManagersQuery',
      'CreateUnitMutationVariables',
      'RenameUnitMutation',
    ]) {
      expect(oursTypes).toContain(`export type ${name} =`);
      expect(os2moTypes).toContain(`export type ${name} =`);
    }
  });

  it('generates TypeScript that compiles under strict options', () => {
    expect(typeCheck({ 'types.ts': oursTypes })).toEqual([]);
  });

  it('compiles code written against OS2mo’s generated types: first against OS2mo’s, then ours', () => {
    expect(typeCheck({ 'types.ts': os2moTypes, 'integration.ts': integrationCode })).toEqual([]);
    expect(typeCheck({ 'types.ts': oursTypes, 'integration.ts': integrationCode })).toEqual([]);
  });

  it('gives every operation the same result type from our SDL as from OS2mo’s printout', () => {
    // Only the input types may differ: ours lack the input fields OS2mo has and the Service API cannot back.
    const resultTypes = (source: string) =>
      source.split('\n').filter((line) => /^export type \w+(Query|Mutation) = /.test(line));
    expect(resultTypes(oursTypes)).toHaveLength(operations.length);
    expect(resultTypes(oursTypes)).toEqual(resultTypes(os2moTypes));
  });

  it('compiles code that sets an input field the Service API cannot back only against OS2mo’s types', () => {
    // `engagement` is in OS2mo's ManagerCreateInput and in v30's declared omissions (a 2.x manager names none).
    const unbackable = `import type { CreateManagerMutationVariables } from './types.js';
export const create: CreateManagerMutationVariables = {
  input: { org_unit: 'x', manager_type: 'y', manager_level: 'z', responsibility: [], engagement: 'e', validity: { from: '2026-01-01' } },
};
`;
    expect(typeCheck({ 'types.ts': os2moTypes, 'unbackable.ts': unbackable })).toEqual([]);
    expect(typeCheck({ 'types.ts': oursTypes, 'unbackable.ts': unbackable }).join('\n')).toMatch(
      /'engagement' does not exist/,
    );
  });

  it('reports code that misreads a result, so the compile check bites', () => {
    const misread = `import type { OrgUnitsWindowQuery } from './types.js';
export const name = (data: OrgUnitsWindowQuery): string => data.org_units.objects[0].current.title;
`;
    const diagnostics = typeCheck({ 'types.ts': oursTypes, 'misread.ts': misread });
    expect(diagnostics.join('\n')).toMatch(/possibly 'undefined'|possibly 'null'/);
    expect(diagnostics.join('\n')).toMatch(/Property 'title' does not exist/);
  });
});
