import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphQL, startTestStack, type TestStack } from './stack.js';

/**
 * OS2mo's reads that come from the Service API's flags and side routes, through the whole stack over the
 * seeded stand-in: `version` (`GET /version/`).
 */
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
    { authorization: `Bearer ${token}` },
  );
  return body as { data: Record<string, any>; errors?: { message: string }[] };
}

describe('version', () => {
  it.each(['v30', 'v22'])('%s answers the Service API release; 2.x has no commit hash', async (version) => {
    const body = await ask(version, '{ version { mo_version mo_hash lora_version } }');
    expect(body.errors).toBeUndefined();
    expect(body.data.version).toEqual({ mo_version: '2.4.0', mo_hash: null, lora_version: null });
  });
});
