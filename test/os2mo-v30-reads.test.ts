import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import { postGraphQL, startTestStack, type TestStack, type UpstreamTrace } from './stack.js';

/** OS2mo's v30 reads over the stand-in: the response model, windows, paging and the reference plan. */
let stack: TestStack;
let token: string;
beforeAll(async () => {
  stack = await startTestStack();
  token = await stack.token('nora');
});
afterAll(() => stack.close());

async function ask(version: string, query: string, variables: Record<string, unknown> = {}) {
  const { body } = await postGraphQL(
    stack,
    version,
    { query, variables },
    { authorization: `Bearer ${token}`, trace: true },
  );
  return body as {
    data: Record<string, any>;
    errors?: { message: string; extensions?: { code?: string } }[];
    extensions: { upstream: UpstreamTrace };
  };
}

const shape = (trace: UpstreamTrace) =>
  trace.calls
    .map((call) => `${call.round} ${call.path.split('?')[0]!.replace(/[0-9a-f-]{36}/g, '{uuid}')}`)
    .sort();

describe('v30: the reference query in OS2mo’s shape', () => {
  const query = `query Reference($uuids: [UUID!]) {
    org_units(filter: { uuids: $uuids }) {
      objects { current { name managers { manager_type { user_key } person { name engagements { job_function { user_key } } } } } }
    }
  }`;

  it('costs 6 legacy requests in 2 rounds, as the hand-written plan does', async () => {
    const body = await ask('v30', query, { uuids: referenceUnitUuids });
    expect(body.errors).toBeUndefined();
    expect(body.extensions.upstream.rounds).toBe(2);
    expect(body.extensions.upstream.requests).toBe(6);
    expect(shape(body.extensions.upstream)).toEqual([
      ...Array(3).fill('1 /service/ou/{uuid}/details/manager'),
      ...Array(3).fill('2 /service/e/{uuid}/details/engagement'),
    ]);
  });

  it('answers what v2 answers, with `person` as a list', async () => {
    const v30 = await ask('v30', query, { uuids: referenceUnitUuids });
    const v2 = await ask(
      'v2',
      `query($uuids: [UUID!]) { org_units(filter: { uuids: $uuids }) { objects { name managers { manager_type { user_key } employee { name engagements { job_function { user_key } } } } } } }`,
      { uuids: referenceUnitUuids },
    );
    const fromV2 = v2.data.org_units.objects.map((unit: any) => ({
      name: unit.name,
      managers: unit.managers.map((manager: any) => ({
        manager_type: manager.manager_type,
        person: manager.employee === null ? null : [manager.employee],
      })),
    }));
    expect(v30.data.org_units.objects.map((response: any) => response.current)).toEqual(fromV2);
    expect(fromV2).toHaveLength(3);
  });
});
