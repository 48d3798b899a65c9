import type { GraphQLResolveInfo } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { GraphQLContext, Source } from '../context.js';
import type { TypeView } from './ledger/index.js';
import { withLinkArguments } from './view-resolvers.js';

const today = '2024-06-01';
const classOf = (uuid: string, user_key: string): Source => ({ uuid, user_key, __at: today });
const classes = [classOf('a', 'first'), classOf('b', 'second'), classOf('c', 'third')];
const link = { input: 'UuidsBoundClassFilter', listing: null };

/** A type whose links are answered by resolvers of their own (as `Class.children` is beside v30). */
const views: Record<string, TypeView> = {
  Thing: {
    graphType: 'Thing',
    fields: {
      many: { type: '[Class!]!', own: true, filter: link },
      one: { type: 'Class!', own: true, filter: link },
      maybe: { type: 'Class', own: true, filter: link },
      plain: { type: '[Class!]!', own: true },
      listed: {
        type: '[Engagement!]!',
        own: true,
        filter: { input: 'OrgUnitboundengagementfilter', listing: { type: 'engagement', owner: 'unit' } },
      },
    },
  },
};

const resolvers = withLinkArguments(
  {
    Thing: {
      many: () => classes,
      one: () => classes[0],
      maybe: async () => classes[1],
      plain: () => classes,
      listed: () => classes,
    },
  },
  views,
);

const info = { fieldNodes: [], variableValues: {} } as unknown as GraphQLResolveInfo;
const context = { today } as GraphQLContext;
const call = (field: string, args: Record<string, unknown>) =>
  (resolvers.Thing![field] as (...all: unknown[]) => unknown)(
    { uuid: 't', __at: today },
    args,
    context,
    info,
  );
const uuids = async (value: unknown) => ((await value) as Source[]).map((record) => record.uuid);

describe("a link answered by a resolver of its own takes the link's filter, limit and cursor", () => {
  it('narrows and pages a list', async () => {
    expect(await call('many', {})).toBe(classes);
    expect(await uuids(call('many', { filter: { user_keys: ['second', 'third'] } }))).toEqual(['b', 'c']);
    expect(await uuids(call('many', { filter: { user_keys: ['second', 'third'] }, limit: 1 }))).toEqual([
      'b',
    ]);
  });

  it('gives its one object, null, or an error where OS2mo always has one', async () => {
    expect(await call('one', { filter: { user_keys: ['first'] } })).toBe(classes[0]);
    expect(await call('maybe', { filter: { user_keys: ['first'] } })).toBeNull();
    await expect(call('one', { limit: 0 })).rejects.toThrow('Thing.one always has its one object');
  });

  it("leaves a field without a bound filter, or one over an owner's listing (its own to filter), as it is", () => {
    expect(call('plain', { limit: 1 })).toBe(classes);
    expect(call('listed', { limit: 1 })).toBe(classes);
  });
});
