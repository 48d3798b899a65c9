import { beforeAll, describe, expect, it } from 'vitest';
import { referenceUnitUuids, unitUuid } from '../legacy-service/src/fixture/organisation.js';
import { postGraphQL, sharedReadOnlyStack, type TestStack, type UpstreamTrace } from './stack.js';

/**
 * The legacy calls a query costs, read from the opt-in upstream trace: only the calls the selection needs,
 * each once per GraphQL request, independent ones in the same round.
 */
let stack: TestStack;
let token: string;
beforeAll(async () => {
  stack = await sharedReadOnlyStack();
  token = await stack.token('nora');
});

type Trace = UpstreamTrace;

async function plan(query: string, variables: Record<string, unknown> = {}): Promise<Trace> {
  const { body } = await postGraphQL(
    stack,
    'v2',
    { query, variables },
    { authorization: `Bearer ${token}`, trace: true },
  );
  expect(body.errors).toBeUndefined();
  const upstream = body.extensions.upstream as Trace;
  const paths = upstream.calls.map((call) => call.path);
  expect(new Set(paths).size, 'no legacy call is made twice').toBe(paths.length);
  return upstream;
}

const shape = (trace: Trace) =>
  trace.calls
    .map((call) => `${call.round} ${call.path.split('?')[0]!.replace(/[0-9a-f-]{36}/g, '{uuid}')}`)
    .sort();

describe('upstream plans', () => {
  it('makes a call once even when aliases ask for the same data twice', async () => {
    const trace = await plan(
      `query Twice($uuid: UUID!) {
        a: org_units(filter: { uuids: [$uuid] }) { objects { name managers { uuid } } }
        b: org_units(filter: { uuids: [$uuid] }) { objects { name managers { manager_type { user_key } } } }
      }`,
      { uuid: referenceUnitUuids[0] },
    );
    expect(shape(trace)).toEqual(['1 /service/ou/{uuid}/details/manager']);
  });

  it('reads every unit link of a wide selection in one round', async () => {
    const trace = await plan(
      `query Wide($uuids: [UUID!]) {
        org_units(filter: { uuids: $uuids }) {
          objects { name managers { uuid } owners { uuid } engagements { uuid } itusers { uuid } children { uuid } }
        }
      }`,
      { uuids: referenceUnitUuids },
    );
    expect(trace.rounds).toBe(1);
    expect(trace.requests).toBe(18);
    expect(shape(trace)).toEqual(
      [
        '/service/ou/{uuid}/',
        '/service/ou/{uuid}/children',
        '/service/ou/{uuid}/details/engagement',
        '/service/ou/{uuid}/details/it',
        '/service/ou/{uuid}/details/manager',
        '/service/ou/{uuid}/details/owner',
      ]
        .flatMap((path) => Array(3).fill(`1 ${path}`))
        .sort(),
    );
  });

  it('goes one round deeper per dependent level and uses embedded records instead of reading them', async () => {
    const trace = await plan(
      `query Deep($uuid: UUID!) {
        org_units(filter: { uuids: [$uuid] }) {
          objects { children { name managers { employee { name engagements { job_function { name } org_unit { name } } } } } }
        }
      }`,
      { uuid: unitUuid(0) },
    );
    // Round 1: the unit and its children; 2: each child's managers; 3: each manager's engagements.
    expect(trace.rounds).toBe(3);
    const paths = shape(trace);
    expect(paths.filter((path) => path.startsWith('1 '))).toEqual([
      '1 /service/ou/{uuid}/',
      '1 /service/ou/{uuid}/children',
    ]);
    expect(
      paths
        .filter((path) => path.startsWith('2 '))
        .every((path) => path === '2 /service/ou/{uuid}/details/manager'),
    ).toBe(true);
    expect(
      paths
        .filter((path) => path.startsWith('3 '))
        .every((path) => path === '3 /service/e/{uuid}/details/engagement'),
    ).toBe(true);
    // Employee names, job functions and units come from what the legacy records embed.
    expect(paths.some((path) => /\/service\/e\/\{uuid\}\/$|\/service\/c\//.test(path))).toBe(false);
  });

  it('starts a round only after the calls it depends on have answered', async () => {
    const trace = await plan(
      `query Reference($uuids: [UUID!]) {
        org_units(filter: { uuids: $uuids }) { objects { name managers { employee { engagements { uuid } } } } }
      }`,
      { uuids: referenceUnitUuids },
    );
    expect(trace.rounds).toBe(2);
    const round = (n: number) => trace.calls.filter((call) => call.round === n);
    const firstAnswered = Math.max(...round(1).map((call) => call.started_ms + call.duration_ms));
    // The trace rounds to 0.01 ms; allow for it.
    expect(Math.min(...round(2).map((call) => call.started_ms))).toBeGreaterThanOrEqual(firstAnswered - 0.02);
    // Within a round, every call is issued before any of them has answered.
    const lastIssued = Math.max(...round(1).map((call) => call.started_ms));
    expect(lastIssued).toBeLessThan(Math.min(...round(1).map((call) => call.started_ms + call.duration_ms)));
  });

  it('looks the organisation up once for many pages, so a page costs one round before its links', async () => {
    const query = `{ org_units(limit: 5) { objects { name managers { uuid } } } }`;
    await plan(query); // may be the first to need the organisation
    const trace = await plan(query);
    expect(trace.rounds).toBe(2);
    expect(
      trace.calls.filter((call) => call.path.startsWith('/service/o/') && call.path.includes('/ou/')),
    ).toHaveLength(1);
    expect(trace.calls.some((call) => call.path === '/service/o/')).toBe(false);
  });
});
