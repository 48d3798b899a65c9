import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredOmissionsOf } from '../gateway/src/graphql/os2mo/ledger/index.js';
import { NOT_SERVED_CODE, notServedMessage } from '../gateway/src/graphql/os2mo/omission-errors.js';
import { startTestStack, type TestStack } from './stack.js';

/**
 * Issue 27, item 6: a query for something OS2mo has and the gateway declares left out is told so, with the
 * reason and a code, on both roads a request can take: the JSON POST that skips Yoga's HTTP layer and
 * Yoga's own (a GET).
 */
describe('a query for a declared omission, through the stack', () => {
  let stack: TestStack;
  let authorization: string;

  beforeAll(async () => {
    stack = await startTestStack();
    authorization = `Bearer ${await stack.token('alice')}`;
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });

  const roads = {
    'a JSON POST': (version: string, query: string) =>
      fetch(`${stack.gatewayUrl}/graphql/${version}`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      }),
    'a GET': (version: string, query: string) =>
      fetch(`${stack.gatewayUrl}/graphql/${version}?${new URLSearchParams({ query })}`, {
        headers: { authorization, accept: 'application/json' },
      }),
  };

  describe.each(Object.entries(roads))('%s', (_road, send) => {
    it.each([
      ['v30', '{ access_log { objects { uuid } } }', 'Query.access_log'],
      [
        'v29',
        '{ employees(filter: { registration_time: "2020-01-01" }) { objects { uuid } } }',
        'EmployeeFilter.registration_time',
      ],
      ['v25', '{ auditlog { objects { id } } }', 'Query.auditlog'],
    ])('%s: %s names the coordinate and the reason', async (version, query, coordinate) => {
      const response = await send(version, query);
      const body = (await response.json()) as { errors: { message: string; extensions: object }[] };
      expect(body.errors).toEqual([
        expect.objectContaining({
          message: notServedMessage(coordinate, declaredOmissionsOf(version)![coordinate]!),
          extensions: expect.objectContaining({ code: NOT_SERVED_CODE, coordinate }),
        }),
      ]);
    });

    it("keeps graphql-js's message for a typo, and for a name the version's OS2mo lacks", async () => {
      for (const [version, query] of [
        ['v30', '{ org_unitz { objects { uuid } } }'],
        ['v30', '{ auditlog { objects { id } } }'],
      ] as const) {
        const body = (await (await send(version, query)).json()) as {
          errors: { message: string; extensions: { code: string } }[];
        };
        expect(body.errors.map((error) => error.extensions.code)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
        expect(body.errors[0]!.message).toMatch(/^Cannot query field "\w+" on type "Query"\./);
      }
    });
  });
});
