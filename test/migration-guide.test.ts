import { readFileSync } from 'node:fs';
import { buildSchema, findBreakingChanges, parse, validate, type BreakingChange } from 'graphql';
import { describe, expect, it } from 'vitest';
import { versionTypeDefs } from '../gateway/src/graphql/versions.js';

const guide = readFileSync(new URL('../docs/migration-v1-to-v2.md', import.meta.url), 'utf8');

/** The schema coordinate a change is about: `Type` or `Type.field`, as the guide writes it in backticks. */
function coordinate(change: BreakingChange): string {
  // graphql-js words an added required input field "A required field f on input type T was added.".
  const added = /^A required field (\w+) on input type (\w+)/.exec(change.description);
  if (added) return `${added[2]}.${added[1]}`;
  const match = /^([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)?)/.exec(change.description);
  if (!match?.[1]) throw new Error(`Cannot read a coordinate from: ${change.description}`);
  return match[1];
}

describe('the v1 → v2 migration guide', () => {
  // Both versions as the gateway derives them from the generated org graph.
  const typeDefs = versionTypeDefs();
  const v1 = buildSchema(typeDefs.v1);
  const v2 = buildSchema(typeDefs.v2);
  const changes = findBreakingChanges(v1, v2);

  it('has breaking changes to document', () => {
    expect(changes.length).toBeGreaterThan(0);
  });

  it.each(changes.map((change) => [coordinate(change), change.description]))('mentions `%s` (%s)', (name) => {
    expect(guide).toContain(`\`${name}\``);
  });
});

describe('the v2 → v30 migration guide', () => {
  const v2v30 = readFileSync(new URL('../docs/migration-v2-to-v30.md', import.meta.url), 'utf8');
  const typeDefs = versionTypeDefs();
  const changes = findBreakingChanges(buildSchema(typeDefs.v2), buildSchema(typeDefs.v30));

  it('has breaking changes to document', () => {
    expect(changes.length).toBeGreaterThan(0);
  });

  it.each(changes.map((change) => [coordinate(change), change.description]))('mentions `%s` (%s)', (name) => {
    expect(v2v30).toContain(`\`${name}\``);
  });

  it('has examples that validate: each "Before (v2)" block against v2, each "After (v30)" block against v30', () => {
    const blocks = [
      ...v2v30.matchAll(/^(Before \(v2\)|After \(v30\)):\n\n```graphql\n([\s\S]*?)```/gm),
      ...v2v30.matchAll(/^(Before \(v2\)|After \(v30\)): `([^`]+)`/gm),
    ];
    expect(blocks.length).toBeGreaterThanOrEqual(11);
    const schemas = { v2: buildSchema(typeDefs.v2), v30: buildSchema(typeDefs.v30) };
    for (const [, label, query] of blocks) {
      // The guide writes a UUID as "…"; any UUID validates the same.
      const document = parse(query!.replaceAll('"…"', '"00000000-0000-4000-8000-000000000000"'));
      expect(validate(label!.startsWith('Before') ? schemas.v2 : schemas.v30, document), query).toEqual([]);
    }
  });

  it('gives a before and an after for every section', () => {
    const sections = v2v30.split(/^## /m).slice(1);
    expect(sections.length).toBeGreaterThan(5);
    for (const section of sections) {
      expect(section, section.split('\n')[0]).toMatch(/Before \(v2\)/);
      expect(section, section.split('\n')[0]).toMatch(/After/);
    }
  });
});
