import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoopbackProxy } from './loopback-proxy.js';
import { startTestStack, type TestStack } from './stack.js';

/**
 * A client that starts a body and stops sending it is cut off after `GATEWAY_BODY_TIMEOUT_MS`, on GraphQL as
 * on `/service` (issue 20, item 6: GraphQL bodies were held for as long as Node's 300 s default allowed).
 * The gateway answers 408 and closes the connection; nothing reaches the legacy service.
 */

let stack: TestStack;
let legacy: LoopbackProxy;
let token: string;
beforeAll(async () => {
  stack = await startTestStack({ legacyProxy: true, gatewayEnv: { GATEWAY_BODY_TIMEOUT_MS: '300' } });
  legacy = stack.legacyProxy!;
  token = await stack.token('alice');
});
afterAll(() => stack?.close());

interface StalledAnswer {
  status: number;
  connection: string | undefined;
  body: any;
}

/**
 * POSTs the first bytes of a body to `path` and sends nothing more; resolves once the gateway has answered
 * and closed the connection (a gateway that keeps it open leaves this pending, and the test times out).
 */
function stalledUpload(path: string, lengthDeclared: boolean): Promise<StalledAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${stack.gatewayUrl}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(lengthDeclared ? { 'content-length': '1000' } : {}),
      },
    });
    outgoing.write('{"query": "{ __typename');
    outgoing.on('error', reject);
    outgoing.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => {
        const answer = {
          status: response.statusCode ?? 0,
          connection: response.headers.connection,
          body: JSON.parse(text) as unknown,
        };
        // The gateway closes its end: the socket closes without the client ending the upload.
        if (response.socket.closed) resolve(answer);
        else response.socket.once('close', () => resolve(answer));
      });
    });
  });
}

describe.each([
  ['with a Content-Length', true],
  ['sent in chunks', false],
])('a stalled upload %s', (_, lengthDeclared) => {
  it('is cut off on GraphQL with the status and code /service gives, and the connection is closed', async () => {
    const before = legacy.count();
    const service = await stalledUpload('/service/details/create', lengthDeclared);
    expect(service.status).toBe(408);
    expect(service.body.error_key).toBe('E_REQUEST_TIMEOUT');
    expect(service.connection).toBe('close');

    for (const version of ['v1', 'v2']) {
      const graphql = await stalledUpload(`/graphql/${version}`, lengthDeclared);
      expect(graphql.status).toBe(service.status);
      expect(graphql.connection).toBe('close');
      expect(graphql.body.errors).toHaveLength(1);
      expect(graphql.body.errors[0].extensions).toEqual({ code: 'REQUEST_TIMEOUT' });
      expect(graphql.body.errors[0].message).toMatch(/not sent in time/);
    }
    expect(legacy.count()).toBe(before);
  });
});
