import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceQueryOneLine } from '../gateway/src/graphql/reference-query.js';
import { referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import { planOf, startCountingProxy } from '../test/counting-proxy.js';
import { postGraphQL, startTestStack, type TestStack, type UpstreamTrace } from '../test/stack.js';
import {
  everyUnitByHand,
  referenceByHand,
  v30EveryUnitQuery,
  v30AsV2,
  v30ReferenceQuery,
  type LegacyGet,
} from './v30-plans.js';

/**
 * The bench compares each v30 operation with a direct plan; the comparison is fair only if the plan makes
 * the legacy calls the gateway makes. Here both run on the stand-in: the gateway's calls from its upstream
 * trace, the plan's through a recording proxy, each call as a path and its dependent round.
 */
let stack: TestStack;
let authorization: string;
let proxy: Awaited<ReturnType<typeof startCountingProxy>>;
let pool: Pool;
beforeAll(async () => {
  stack = await startTestStack();
  authorization = `Bearer ${await stack.token('nora')}`;
  // The proxy holds calls in waves (a wave is one dependent round) after its default quiet time, as in the
  // peer tests and bench/plans.ts: 20 ms was the old overlap delay, which as a quiet time is the margin that
  // split one round's calls in two on a loaded CI machine.
  proxy = await startCountingProxy(stack.legacyUrl);
  pool = new Pool(proxy.url, { connections: 128 });
});
afterAll(async () => {
  await pool?.close();
  await proxy?.close();
  await stack?.close();
});

const get: LegacyGet = async (path) => {
  const response = await pool.request({ method: 'GET', path, headers: { authorization } });
  const body = await response.body.json();
  if (response.statusCode !== 200) throw new Error(`${path}: ${response.statusCode}`);
  return body;
};

/** The gateway's legacy calls for the query, from the second of two requests (the first also reads the organisation it keeps). */
async function gatewayPlan(query: string, variables: Record<string, unknown> = {}) {
  const ask = () => postGraphQL(stack, 'v30', { query, variables }, { authorization, trace: true });
  await ask();
  const { body } = await ask();
  expect(body.errors).toBeUndefined();
  const trace = body.extensions.upstream as UpstreamTrace;
  return {
    data: body.data,
    plan: trace.calls
      .map((call) => ({ path: call.path.split('?')[0]!, round: call.round }))
      .sort((a, b) => a.round - b.round || a.path.localeCompare(b.path)),
  };
}

async function byHand(work: () => Promise<unknown>) {
  const first = proxy.calls.length;
  const result = await work();
  const calls = proxy.calls.slice(first);
  expect(calls.every((call) => call.authorization === authorization)).toBe(true);
  return { result, plan: planOf(calls) };
}

describe("the bench's v30 direct plans make the gateway's legacy calls", () => {
  it('the reference query: 3 manager listings, then each manager’s engagements', async () => {
    const gateway = await gatewayPlan(v30ReferenceQuery, { uuids: referenceUnitUuids });
    const direct = await byHand(() => referenceByHand(get, referenceUnitUuids));
    expect(direct.plan).toEqual(gateway.plan);
    expect(gateway.plan).toHaveLength(6);
    expect(Math.max(...gateway.plan.map((call) => call.round))).toBe(2);
    // Both ask for the units the query names (the stand-in's reference units all have managers).
    expect(gateway.data.org_units.objects).toHaveLength(referenceUnitUuids.length);
    // v30 answers what v2 answers, as the bench checks before it measures.
    const v2 = await postGraphQL(
      stack,
      'v2',
      { query: referenceQueryOneLine, variables: { uuids: referenceUnitUuids } },
      { authorization },
    );
    expect(v2.body.errors).toBeUndefined();
    expect(v30AsV2(gateway.data)).toEqual(v2.body.data);
  });

  it('the one-at-a-time variant makes the same calls, one round each', async () => {
    const direct = await byHand(() => referenceByHand(get, referenceUnitUuids, false));
    const gateway = await gatewayPlan(v30ReferenceQuery, { uuids: referenceUnitUuids });
    expect(direct.plan.map((call) => call.path).sort()).toEqual(gateway.plan.map((call) => call.path).sort());
    expect(direct.plan.map((call) => call.round)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('every unit with its managers (limit unset): the whole listing, then each unit and its managers', async () => {
    const organisation = ((await get('/service/o/')) as { uuid: string }[])[0]!.uuid;
    const gateway = await gatewayPlan(v30EveryUnitQuery);
    const direct = await byHand(() => everyUnitByHand(get, organisation));
    const paths = (plan: { path: string }[]) => plan.map((call) => call.path).sort();
    expect(paths(direct.plan)).toEqual(paths(gateway.plan));
    // One listing in the first round; everything else waits for it and nothing waits for anything else.
    const listing = `/service/o/${organisation}/ou/`;
    for (const plan of [gateway.plan, direct.plan]) {
      expect(plan.filter((call) => call.round === 1).map((call) => call.path)).toEqual([listing]);
    }
    expect(Math.max(...gateway.plan.map((call) => call.round))).toBe(2);
    // The listing, then each unit the gateway answers and its managers.
    expect(direct.result).toBe(gateway.data.org_units.objects.length);
    expect(gateway.plan).toHaveLength(1 + 2 * gateway.data.org_units.objects.length);
  });
});
