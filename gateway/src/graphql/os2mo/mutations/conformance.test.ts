import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSchema, isInputObjectType, type GraphQLInputObjectType, type GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { eventMutationFields } from '../events/index.js';
import {
  omittedInputFields,
  omittedMutationFields,
  os2moMutations,
  referencedTypes,
  type Os2moVersion,
} from './index.js';

/** OS2mo's printout of a version's schema (vendored; v29's is v30's SDL too, see the fixtures' README). */
function printout(name: string): GraphQLSchema {
  const path = fileURLToPath(
    new URL(`../../../../../test/fixtures/os2mo-graphql/os2mo-${name}.graphql`, import.meta.url),
  );
  return buildSchema(readFileSync(path, 'utf8'));
}

/** The module's SDL of a version with the types it references stubbed, as the read side would define them. */
function servedSchema(version: Os2moVersion): GraphQLSchema {
  const stubs = referencedTypes
    .map((name) =>
      name.endsWith('Response')
        ? `type ${name} { uuid: UUID! }`
        : name === 'OwnerInferencePriority'
          ? `enum ${name} { ENGAGEMENT ASSOCIATION }`
          : `scalar ${name}`,
    )
    .join('\n');
  return buildSchema(`${stubs}\ntype Query { ok: Boolean }\n${os2moMutations(version).typeDefs}`);
}

/** Whether a declared omission (`class_*`, `*_delete`, `org_create`) covers a Mutation field. */
const covers = (pattern: string, name: string) => new RegExp(`^${pattern.replace(/\*/g, '.*')}$`).test(name);

const inputTypesOf = (schema: GraphQLSchema) =>
  Object.values(schema.getTypeMap()).filter(
    (type): type is GraphQLInputObjectType => isInputObjectType(type) && !type.name.startsWith('__'),
  );

/** Each served version and OS2mo's printout of it. */
const versions: [Os2moVersion, string][] = [
  [30, 'v29'],
  [29, 'v29'],
  [25, 'v25'],
  [22, 'v22'],
  [21, 'v21'],
];

describe.each(versions)("OS2mo's mutations of v%s conform to OS2mo's printout %s", (version, name) => {
  const os2mo = printout(name);
  const served = servedSchema(version);
  const servedMutations = served.getMutationType()!.getFields();
  const os2moMutationFields = os2mo.getMutationType()!.getFields();
  const servedInputTypes = inputTypesOf(served);
  const omitted = [...omittedInputFields, ...os2moMutations(version).omits];

  it('serves every Mutation field with the same arguments and result type', () => {
    for (const [field, definition] of Object.entries(servedMutations)) {
      const theirs = os2moMutationFields[field];
      expect(theirs, field).toBeDefined();
      expect(String(definition.type), field).toBe(String(theirs!.type));
      expect(
        definition.args.map((arg) => `${arg.name}: ${String(arg.type)}`),
        field,
      ).toEqual(theirs!.args.map((arg) => `${arg.name}: ${String(arg.type)}`));
    }
  });

  it('gives every input type the same fields, types and defaults as OS2mo, and every required field', () => {
    for (const input of servedInputTypes) {
      const theirs = os2mo.getType(input.name);
      expect(isInputObjectType(theirs), input.name).toBe(true);
      const theirFields = (theirs as GraphQLInputObjectType).getFields();
      for (const field of Object.values(input.getFields())) {
        const their = theirFields[field.name];
        expect(their, `${input.name}.${field.name}`).toBeDefined();
        expect(String(field.type), `${input.name}.${field.name}`).toBe(String(their!.type));
        expect(field.defaultValue, `${input.name}.${field.name} default`).toEqual(their!.defaultValue);
      }
      for (const their of Object.values(theirFields)) {
        const required = String(their.type).endsWith('!') && their.defaultValue === undefined;
        if (required)
          expect(input.getFields()[their.name], `${input.name}.${their.name} is required`).toBeDefined();
      }
    }
  });

  it('serves or declares as omitted every OS2mo Mutation field, and omits nothing it serves', () => {
    const declared = [...omittedMutationFields, ...os2moMutations(version).omits];
    // The event system's mutations (`*_refresh`, `event_*`) are a module of their own (`../events/`).
    const servedByEvents = new Set(eventMutationFields(version));
    const undeclared = Object.keys(os2moMutationFields).filter(
      (field) =>
        !servedMutations[field] &&
        !servedByEvents.has(field) &&
        !declared.some(({ coordinate }) => covers(coordinate, field) || coordinate === `Mutation.${field}`),
    );
    expect(undeclared).toEqual([]);
    for (const { coordinate } of omittedMutationFields) {
      expect(
        Object.keys(servedMutations).filter((field) => covers(coordinate, field)),
        `${coordinate} is served`,
      ).toEqual([]);
    }
  });

  it('serves or declares as omitted every input field of the input types it serves, with a reason', () => {
    const declared = new Set(omitted.map(({ coordinate }) => coordinate));
    const undeclared: string[] = [];
    for (const input of servedInputTypes) {
      const theirFields = (os2mo.getType(input.name) as GraphQLInputObjectType).getFields();
      for (const field of Object.keys(theirFields)) {
        const coordinate = `${input.name}.${field}`;
        const isServed = input.getFields()[field] !== undefined;
        if (!isServed && !declared.has(coordinate)) undeclared.push(coordinate);
        if (isServed)
          expect(declared.has(coordinate), `${coordinate} is served and declared omitted`).toBe(false);
      }
    }
    expect(undeclared).toEqual([]);
    for (const { coordinate, reason } of [...omitted, ...omittedMutationFields]) {
      expect(reason.length, coordinate).toBeGreaterThan(20);
    }
  });
});

describe("the declared omissions and references, against OS2mo's newest printout", () => {
  const os2mo = printout('v29');
  const os2moMutationFields = Object.keys(os2mo.getMutationType()!.getFields());

  it('names only what OS2mo has', () => {
    for (const { coordinate } of omittedMutationFields) {
      expect(
        os2moMutationFields.some((field) => covers(coordinate, field)),
        `${coordinate} names something OS2mo has`,
      ).toBe(true);
    }
    for (const { coordinate } of omittedInputFields) {
      const [type, field] = coordinate.split('.');
      expect(
        (os2mo.getType(type!) as GraphQLInputObjectType | undefined)?.getFields()[field!],
        coordinate,
      ).toBeDefined();
    }
  });

  it("names every type it references and does not define it (the read side's)", () => {
    for (const name of referencedTypes) {
      expect(os2mo.getType(name), name).toBeDefined();
      expect(os2moMutations().typeDefs).not.toMatch(new RegExp(`(type|scalar|enum|input) ${name}\\b`));
    }
  });

  it('serves in every version only resolvers its SDL names', () => {
    for (const [version] of versions) {
      const { resolvers } = os2moMutations(version);
      expect(Object.keys(resolvers).sort()).toEqual(
        Object.keys(servedSchema(version).getMutationType()!.getFields()).sort(),
      );
    }
  });
});
