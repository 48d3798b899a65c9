import { beforeAll, describe, expect, it } from 'vitest';
import { sharedReadOnlyStack, type TestStack } from './stack.js';

/**
 * Mistakes in how a client sends its request are 400s with a code and a sentence that says what to fix, on
 * the whole stack (observer, access log and all) and on every served version: they were 500
 * "Unexpected error." (issue 20, item 8).
 */

let stack: TestStack;
let token: string;
beforeAll(async () => {
  stack = await sharedReadOnlyStack();
  token = await stack.token('nora');
});

const accept = 'application/graphql-response+json';

async function answer(response: Response) {
  const body = (await response.json()) as {
    data?: unknown;
    errors: { message: string; extensions: unknown }[];
  };
  return { status: response.status, body };
}

const get = async (version: string, parameters: Record<string, string>) =>
  answer(
    await fetch(`${stack.gatewayUrl}/graphql/${version}?${new URLSearchParams(parameters).toString()}`, {
      headers: { authorization: `Bearer ${token}`, accept },
    }),
  );

const post = async (version: string, body: unknown) =>
  answer(
    await fetch(`${stack.gatewayUrl}/graphql/${version}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, accept, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );

function expectRefused(refused: Awaited<ReturnType<typeof answer>>, code: string, message: RegExp): void {
  expect(refused.status).toBe(400);
  expect(refused.body.data).toBeUndefined();
  expect(refused.body.errors).toHaveLength(1);
  expect(refused.body.errors[0]!.extensions).toEqual({ code });
  expect(refused.body.errors[0]!.message).toMatch(message);
}

describe.each(['v1', 'v2'])('client mistakes on %s', (version) => {
  it('refuses a GET whose variables or extensions are not JSON, naming the parameter', async () => {
    for (const name of ['variables', 'extensions']) {
      const refused = await get(version, { query: '{ __typename }', [name]: '{not json' });
      expectRefused(refused, 'BAD_REQUEST', new RegExp(`\`${name}\` parameter is not JSON`));
    }
  });

  it('refuses an operationName that is a number or an object', async () => {
    for (const operationName of [5, { name: 'Q' }]) {
      const refused = await post(version, { query: 'query Q { __typename }', operationName });
      expectRefused(refused, 'BAD_REQUEST', /`operationName` must be a string/);
    }
  });

  it('refuses a subscription, which the schema does not have, over POST and GET', async () => {
    const query = 'subscription S { __typename }';
    expectRefused(await post(version, { query }), 'SUBSCRIPTIONS_NOT_SUPPORTED', /no subscriptions/);
    expectRefused(await get(version, { query }), 'SUBSCRIPTIONS_NOT_SUPPORTED', /no subscriptions/);
  });

  it('still answers the same requests sent correctly', async () => {
    const fine = await get(version, { query: 'query Q { __typename }', variables: '{}', operationName: 'Q' });
    expect(fine.status).toBe(200);
    expect(fine.body.data).toEqual({ __typename: 'Query' });
  });
});

describe.each(['v2', 'v30'])('a body that is not JSON on %s', (version) => {
  it('is 415 with a code and a sentence naming the type to send, not an empty answer', async () => {
    for (const type of ['text/plain', undefined]) {
      const response = await fetch(`${stack.gatewayUrl}/graphql/${version}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, accept, ...(type ? { 'content-type': type } : {}) },
        body: type ? '{ org_units { objects { uuid } } }' : new Uint8Array([123, 125]),
      });
      expect(response.status).toBe(415);
      const body = (await response.json()) as { errors: { message: string; extensions: unknown }[] };
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0]!.extensions).toEqual({ code: 'UNSUPPORTED_MEDIA_TYPE' });
      expect(body.errors[0]!.message).toMatch(
        /send \{"query": …\} as JSON with Content-Type: application\/json/,
      );
      if (type) expect(body.errors[0]!.message).toContain('A body of type text/plain');
    }
  });
});
