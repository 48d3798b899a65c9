import { readFileSync } from 'node:fs';
import { buildSchema, findBreakingChanges, type BreakingChange } from 'graphql';
import { describe, expect, it } from 'vitest';
import { versionTypeDefs } from '../gateway/src/graphql/versions.js';

const guide = readFileSync(new URL('../docs/migration-v1-to-v2.md', import.meta.url), 'utf8');

/** The schema coordinate a change is about: `Type` or `Type.field`, as the guide writes it in backticks. */
function coordinate(change: BreakingChange): string {
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
