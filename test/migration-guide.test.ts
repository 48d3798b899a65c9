import { readFileSync } from 'node:fs';
import { buildSchema, findBreakingChanges, type BreakingChange } from 'graphql';
import { describe, expect, it } from 'vitest';
import { entityTypeDefs, v1Shape, v2Shape } from '../gateway/src/graphql/schema/entity-types.js';
import { mutationTypeDefs } from '../gateway/src/graphql/schema/mutation-types.js';
import { v1RootTypeDefs } from '../gateway/src/graphql/schema/v1-root.js';
import { v2RootTypeDefs } from '../gateway/src/graphql/schema/v2-root.js';

const guide = readFileSync(new URL('../docs/migration-v1-to-v2.md', import.meta.url), 'utf8');

/** The schema coordinate a change is about: `Type` or `Type.field`, as the guide writes it in backticks. */
function coordinate(change: BreakingChange): string {
  const match = /^([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)?)/.exec(change.description);
  if (!match?.[1]) throw new Error(`Cannot read a coordinate from: ${change.description}`);
  return match[1];
}

describe('the v1 → v2 migration guide', () => {
  const v1 = buildSchema(entityTypeDefs(v1Shape) + mutationTypeDefs + v1RootTypeDefs);
  const v2 = buildSchema(entityTypeDefs(v2Shape) + mutationTypeDefs + v2RootTypeDefs);
  const changes = findBreakingChanges(v1, v2);

  it('has breaking changes to document', () => {
    expect(changes.length).toBeGreaterThan(0);
  });

  it.each(changes.map((change) => [coordinate(change), change.description]))('mentions `%s` (%s)', (name) => {
    expect(guide).toContain(`\`${name}\``);
  });
});
