import { beforeAll, describe, expect, it } from 'vitest';
import { referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import { sharedReadOnlyStack, type TestStack } from './stack.js';

// Issue 20, item 9: answers behind a token hold personal data (names, CPR numbers); without
// `Cache-Control: no-store` a browser or a shared proxy may keep them.

let stack: TestStack;
let authorization: string;
beforeAll(async () => {
  stack = await sharedReadOnlyStack();
  authorization = `Bearer ${await stack.token('alice')}`;
});

const query = '{ org_units(filter: {uuids: ["' + referenceUnitUuids[0] + '"]}) { objects { name } } }';
const json = { 'content-type': 'application/json', accept: 'application/json' };

describe('Cache-Control: no-store on every authenticated answer', () => {
  const roads: [string, () => Promise<Response>][] = [
    ['GET /service/o/', () => fetch(`${stack.gatewayUrl}/service/o/`, { headers: { authorization } })],
    [
      'GET /service/ou/{uuid}/details/engagement',
      () =>
        fetch(`${stack.gatewayUrl}/service/ou/${referenceUnitUuids[0]}/details/engagement`, {
          headers: { authorization },
        }),
    ],
    [
      'a /service business error',
      () =>
        fetch(`${stack.gatewayUrl}/service/ou/00000000-0000-4000-8000-000000000000/`, {
          headers: { authorization },
        }),
    ],
    [
      'POST /graphql/v2',
      () =>
        fetch(`${stack.gatewayUrl}/graphql/v2`, {
          method: 'POST',
          headers: { ...json, authorization },
          body: JSON.stringify({ query }),
        }),
    ],
    [
      'GET /graphql/v1',
      () =>
        fetch(`${stack.gatewayUrl}/graphql/v1?query=${encodeURIComponent(query)}`, {
          headers: { accept: 'application/json', authorization },
        }),
    ],
    [
      'POST /migration/compare',
      () =>
        fetch(`${stack.gatewayUrl}/migration/compare`, {
          method: 'POST',
          headers: { ...json, authorization },
          body: JSON.stringify({ units: referenceUnitUuids, version: 'v2' }),
        }),
    ],
    [
      'GET /migration/shadow',
      () => fetch(`${stack.gatewayUrl}/migration/shadow`, { headers: { authorization } }),
    ],
  ];

  for (const [road, send] of roads) {
    it(road, async () => {
      const response = await send();
      await response.arrayBuffer();
      expect(response.headers.get('cache-control'), road).toBe('no-store');
    });
  }
});
