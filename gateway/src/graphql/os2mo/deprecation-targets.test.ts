import { buildSchema, isInputObjectType, isObjectType, type GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildVersions } from '../versions.js';

/** The field a deprecation reason sends a client to: the first name in backticks (`person`, `org_unit { uuid }`). */
const target = (reason: string) => /`(\w+)/.exec(reason)?.[1];

/** Every deprecated field or input field whose reason names a field its own type does not serve. */
function deadEnds(schema: GraphQLSchema): string[] {
  const found: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || !(isObjectType(type) || isInputObjectType(type))) continue;
    const fields = type.getFields();
    for (const field of Object.values(fields)) {
      const name = field.deprecationReason ? target(field.deprecationReason) : undefined;
      if (name !== undefined && !(name in fields)) {
        found.push(`${type.name}.${field.name}: "${field.deprecationReason}"`);
      }
    }
  }
  return found;
}

const os2moVersions = buildVersions().filter((version) => /^v(2[1-9]|30)$/.test(version.name));

describe("a served deprecation reason names a field the same version serves (issue 27's item 5)", () => {
  it('covers every OS2mo version', () => {
    expect(os2moVersions.map((version) => version.name).sort()).toEqual(
      Array.from({ length: 10 }, (_, index) => `v${21 + index}`).sort(),
    );
  });

  it.each(os2moVersions.map((version) => [version.name, version.schema] as const))(
    '%s sends no client to a field it does not serve',
    (_name, schema) => {
      expect(deadEnds(schema)).toEqual([]);
    },
  );

  it('finds a reason that names a field the type lacks', () => {
    const schema = buildSchema(`type Query {
      a: Int @deprecated(reason: "Use \`b { uuid }\`.")
      c: Int @deprecated(reason: "Use \`a\`.")
    }`);
    expect(deadEnds(schema)).toEqual(['Query.a: "Use `b { uuid }`."']);
  });
});
