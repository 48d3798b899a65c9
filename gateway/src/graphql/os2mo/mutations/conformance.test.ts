import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSchema, isInputObjectType, type GraphQLInputObjectType, type GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { omittedInputFields, omittedMutationFields, os2moMutations, referencedTypes } from './index.js';

/** OS2mo's printout of its v29 schema, which is v30's SDL too (see its README). */
const printout = fileURLToPath(
  new URL('../../../../../test/fixtures/os2mo-graphql/os2mo-v29.graphql', import.meta.url),
);
const os2mo = buildSchema(readFileSync(printout, 'utf8'));

/** The module's SDL with the types it references stubbed, as the read side would define them. */
function servedSchema(): GraphQLSchema {
  const stubs = referencedTypes
    .map((name) =>
      name.endsWith('Response')
        ? `type ${name} { uuid: UUID! }`
        : name === 'OwnerInferencePriority'
          ? `enum ${name} { ENGAGEMENT ASSOCIATION }`
          : `scalar ${name}`,
    )
    .join('\n');
  return buildSchema(`${stubs}\ntype Query { ok: Boolean }\n${os2moMutations().typeDefs}`);
}

const served = servedSchema();
const servedMutations = served.getMutationType()!.getFields();
const os2moMutationFields = os2mo.getMutationType()!.getFields();

/** Whether a declared omission (`class_*`, `*_delete`, `org_create`) covers a Mutation field. */
const covers = (pattern: string, name: string) => new RegExp(`^${pattern.replace(/\*/g, '.*')}$`).test(name);

const servedInputTypes = Object.values(served.getTypeMap()).filter(
  (type): type is GraphQLInputObjectType => isInputObjectType(type) && !type.name.startsWith('__'),
);

describe("OS2mo's mutations conform to OS2mo's v29/v30 printout", () => {
  it('serves every Mutation field with the same arguments and result type', () => {
    for (const [name, field] of Object.entries(servedMutations)) {
      const theirs = os2moMutationFields[name];
      expect(theirs, name).toBeDefined();
      expect(String(field.type), name).toBe(String(theirs!.type));
      expect(
        field.args.map((arg) => `${arg.name}: ${String(arg.type)}`),
        name,
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
    const undeclared = Object.keys(os2moMutationFields).filter(
      (name) =>
        !servedMutations[name] && !omittedMutationFields.some(({ coordinate }) => covers(coordinate, name)),
    );
    expect(undeclared).toEqual([]);
    for (const { coordinate } of omittedMutationFields) {
      expect(
        Object.keys(os2moMutationFields).some((name) => covers(coordinate, name)),
        `${coordinate} names something OS2mo has`,
      ).toBe(true);
      expect(
        Object.keys(servedMutations).filter((name) => covers(coordinate, name)),
        `${coordinate} is served`,
      ).toEqual([]);
    }
  });

  it('serves or declares as omitted every input field of the input types it serves, with a reason', () => {
    const declared = new Set(omittedInputFields.map(({ coordinate }) => coordinate));
    const undeclared: string[] = [];
    for (const input of servedInputTypes) {
      const theirFields = (os2mo.getType(input.name) as GraphQLInputObjectType).getFields();
      for (const name of Object.keys(theirFields)) {
        const coordinate = `${input.name}.${name}`;
        const isServed = input.getFields()[name] !== undefined;
        if (!isServed && !declared.has(coordinate)) undeclared.push(coordinate);
        if (isServed)
          expect(declared.has(coordinate), `${coordinate} is served and declared omitted`).toBe(false);
      }
    }
    expect(undeclared).toEqual([]);
    for (const { coordinate, reason } of [...omittedInputFields, ...omittedMutationFields]) {
      expect(reason.length, coordinate).toBeGreaterThan(20);
    }
  });

  it("names every type it references and does not define it (the read side's)", () => {
    for (const name of referencedTypes) {
      expect(os2mo.getType(name), name).toBeDefined();
      expect(os2moMutations().typeDefs).not.toMatch(new RegExp(`(type|scalar|enum|input) ${name}\\b`));
    }
  });
});
