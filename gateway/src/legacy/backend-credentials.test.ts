import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCredentials } from './backend-credentials.js';
import { json, startStubBackend, type StubBackend } from './stub-backend.test-helpers.js';

let tokenEndpoint: StubBackend;
let issued = 0;
beforeAll(async () => {
  tokenEndpoint = await startStubBackend();
  tokenEndpoint.answer((_request, response) =>
    json(response, 200, { access_token: `token-${++issued}`, expires_in: 120, token_type: 'Bearer' }),
  );
});
afterAll(() => tokenEndpoint.close());

describe('backendCredentials', () => {
  it('relays only a bearer header, and none relays nothing', async () => {
    const relay = backendCredentials({ mode: 'relay' }, { timeoutMs: 30_000 });
    expect(await relay.header('Bearer abc')).toBe('Bearer abc');
    expect(await relay.header('Basic YTpi')).toBeUndefined();
    expect(await relay.header(undefined)).toBeUndefined();
    const none = backendCredentials({ mode: 'none' }, { timeoutMs: 30_000 });
    expect(await none.header('Bearer abc')).toBeUndefined();
  });

  it('keeps the gateway’s token, and refreshes it 30 s before it expires', async () => {
    let now = 0;
    const credentials = backendCredentials(
      {
        mode: 'client-credentials',
        tokenUrl: new URL(`${tokenEndpoint.url}/token`),
        clientId: 'gateway',
        clientSecret: 'secret',
      },
      { timeoutMs: 30_000, now: () => now },
    );
    const first = await credentials.header();
    now = 89_999;
    expect(await credentials.header()).toBe(first);
    now = 90_000;
    const second = await credentials.header();
    expect(second).not.toBe(first);
    expect(second).toMatch(/^Bearer token-\d+$/);
    expect(tokenEndpoint.received).toHaveLength(2);
  });
});
