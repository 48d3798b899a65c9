import { readFileSync } from 'node:fs';
import { buildSchema, type GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { detailCollectionNames, os2moObjectNames } from './os2mo-type-names.js';

/** OS2mo's own printouts: v29's is v30's SDL too; v21's is the oldest served. */
const printout = (version: number): GraphQLSchema =>
  buildSchema(
    readFileSync(
      new URL(`../../../test/fixtures/os2mo-graphql/os2mo-v${version}.graphql`, import.meta.url),
      'utf8',
    ),
  );
const v29 = printout(29);
const v21 = printout(21);
const mutations = (schema: GraphQLSchema) => Object.keys(schema.getMutationType()?.getFields() ?? {});
const roots = (schema: GraphQLSchema) => Object.keys(schema.getQueryType()?.getFields() ?? {});

/** The mutations OS2mo names after `name`, one object (`ituser_create`) or a list (`related_units_update`). */
const namedAfter = (schema: GraphQLSchema, name: string) =>
  mutations(schema).filter((field) => new RegExp(`^${name}(e?s)?_(create|update|terminate)$`).test(field));

describe('os2moObjectNames', () => {
  it("names each Service API type by the name OS2mo's v30 mutations begin with (`it` is `ituser`)", () => {
    for (const [type, name] of Object.entries(os2moObjectNames)) {
      if (name !== null) expect(namedAfter(v29, name), type).not.toEqual([]);
    }
    expect(namedAfter(v29, os2moObjectNames.it)).toContain('ituser_create');
    expect(namedAfter(v29, 'it')).toEqual([]);
  });

  it('names none for roles and engagement associations: v21 printed roles, v30 has neither', () => {
    expect(os2moObjectNames.role).toBeNull();
    expect(os2moObjectNames.engagement_association).toBeNull();
    expect(namedAfter(v21, 'role')).toContain('role_create');
    expect(namedAfter(v29, 'role')).toEqual([]);
    expect(namedAfter(v29, 'engagement_association')).toEqual([]);
  });
});

describe('detailCollectionNames', () => {
  it("is OS2mo's root collection of each detail type OS2mo still has, and none of the others", () => {
    for (const [type, collection] of Object.entries(detailCollectionNames)) {
      const kept = os2moObjectNames[type as keyof typeof os2moObjectNames] !== null;
      expect(roots(v29).includes(collection), `${type}: ${collection}`).toBe(kept);
    }
  });
});
