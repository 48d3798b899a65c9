import { describe, expect, it } from 'vitest';
import type { GraphQLContext } from '../../context.js';
import { os2moMutations, type Os2moVersion } from './index.js';

const unit = '00000000-0000-4000-8000-00000000000a';
const type = '00000000-0000-4000-8000-00000000000b';

/** Runs one resolver of a version against a legacy service that records each write and answers `unit`. */
async function write(version: Os2moVersion, field: string, input: unknown) {
  const writes: { path: string; body: unknown }[] = [];
  const context = {
    legacy: {
      post: async (path: string, body: unknown) => {
        writes.push({ path, body });
        return unit;
      },
    },
  } as unknown as GraphQLContext;
  const resolve = os2moMutations(version).resolvers[field] as (
    parent: unknown,
    args: { input: unknown },
    context: GraphQLContext,
  ) => Promise<unknown>;
  expect(await resolve(undefined, { input }, context)).toEqual({ uuid: unit });
  return writes;
}

describe('v29 → v28: an end date is the last day again (migration.md "Version 29")', () => {
  const created = (version: Os2moVersion) =>
    write(version, 'org_unit_create', {
      uuid: unit,
      name: 'U',
      org_unit_type: type,
      validity: { from: '2021-01-01T00:00:00+01:00', to: '2023-03-03T00:00:00+01:00' },
    });

  it('reads validity.to as exclusive in v29 and v30, inclusive in v28 and older', async () => {
    for (const version of [30, 29] as const) {
      expect((await created(version))[0]!.body).toMatchObject({
        validity: { from: '2021-01-01', to: '2023-03-02' },
      });
    }
    for (const version of [28, 25, 21] as const) {
      expect((await created(version))[0]!.body).toMatchObject({
        validity: { from: '2021-01-01', to: '2023-03-03' },
      });
    }
  });

  it("reads a terminate's `to` the same way", async () => {
    const terminate = (version: Os2moVersion) =>
      write(version, 'engagement_terminate', { uuid: unit, to: '2026-01-01' });
    expect((await terminate(30))[0]!.body).toEqual({
      type: 'engagement',
      uuid: unit,
      validity: { to: '2025-12-31' },
    });
    expect((await terminate(28))[0]!.body).toEqual({
      type: 'engagement',
      uuid: unit,
      validity: { to: '2026-01-01' },
    });
  });
});

describe('v22 → v21: org_unit_update ignores null (migration.md "Version 22")', () => {
  const update = (version: Os2moVersion) =>
    write(version, 'org_unit_update', {
      uuid: unit,
      name: 'New',
      parent: null,
      validity: { from: '2020-01-01' },
    });

  it('clears a field given as null from v22 on', async () => {
    expect((await update(22))[0]!.body).toMatchObject({ data: { name: 'New', parent: null } });
  });

  it('keeps it in v21, as if it were left out', async () => {
    const [sent] = await update(21);
    expect((sent!.body as { data: object }).data).toEqual({
      uuid: unit,
      name: 'New',
      validity: { from: '2020-01-01', to: null },
    });
  });
});

describe('what a version does not have, it does not serve', () => {
  it("v21 has no list mutations, and v28 no engagement fraction, as OS2mo's printouts", () => {
    expect(os2moMutations(21).resolvers.engagements_create).toBeUndefined();
    expect(os2moMutations(22).resolvers.engagements_create).toBeDefined();
    expect(os2moMutations(28).typeDefs).not.toMatch(/fraction/);
    expect(os2moMutations(29).typeDefs).toMatch(/fraction: Int = null/);
  });
});
