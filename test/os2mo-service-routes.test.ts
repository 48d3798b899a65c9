import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classUuid, organisationUuid, unitUuid } from '../legacy-service/src/fixture/organisation.js';
import { oscar } from '../openapi/contract-fixture.js';
import { startTestStack, type TestStack } from './stack.js';

/**
 * Every route of OS2mo 2.4.0's `/service` routers (the committed list in
 * `test/fixtures/os2mo-2.4.0-service-routes.json`, each with its source line at that tag), sent through the
 * gateway with a token: each must reach the backend, and none may be answered 404 `E_NO_SUCH_ENDPOINT` (by the
 * gateway or by the stand-in, which serves them all as 2.4.0 does, its login helpers and address search too).
 */

interface Route {
  method: string;
  path: string;
  source: string;
  example: string;
  body?: unknown;
  form?: Record<string, string>;
}

const listed = JSON.parse(
  readFileSync(new URL('./fixtures/os2mo-2.4.0-service-routes.json', import.meta.url), 'utf8'),
) as { source: string; routes: Route[] };

const values: Record<string, string> = {
  '{org}': organisationUuid,
  '{unit}': unitUuid(2),
  '{parent}': unitUuid(1),
  '{person}': oscar,
  '{class}': classUuid('org_unit_type', 'office'),
  '{emailType}': classUuid('org_unit_address_type', 'unit_email'),
};
const fill = (text: string) => text.replace(/\{\w+\}/g, (name) => values[name] ?? name);

let stack: TestStack;
let token: string;
beforeAll(async () => {
  stack = await startTestStack({ rbacEnabled: false, legacyProxy: true });
  token = await stack.token('alice');
});
afterAll(async () => {
  await stack?.close();
});

describe("OS2mo 2.4.0's /service routes through the gateway", () => {
  it('lists every route once, each with its source line at 2.4.0', () => {
    expect(listed.source).toContain('tag 2.4.0');
    const keys = listed.routes.map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    // 50 routes of the service routers and the two of keycloak_router().
    expect(keys).toHaveLength(52);
    for (const route of listed.routes)
      expect(route.source, route.path).toMatch(/^backend\/mora\/.+\.py:\d+$/);
  });

  it.each(listed.routes.map((route) => [`${route.method} ${route.path} (${route.source})`, route] as const))(
    '%s reaches the backend',
    async (_label, route) => {
      const target = fill(route.example);
      const before = stack.legacyProxy!.requests.length;
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      let body: string | undefined;
      if (route.form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = new URLSearchParams(route.form).toString();
      } else if (route.body !== undefined) {
        headers['content-type'] = 'application/json';
        body = fill(JSON.stringify(route.body));
      }
      const response = await fetch(`${stack.gatewayUrl}${target}`, { method: route.method, headers, body });
      const text = await response.text();
      const reached = stack.legacyProxy!.requests.slice(before).map((request) => request.path.split('?')[0]);
      expect(reached, `${route.method} ${target} answered ${response.status} ${text}`).toContain(
        target.split('?')[0],
      );
      expect(text, `${route.method} ${target}`).not.toContain('E_NO_SUCH_ENDPOINT');
    },
  );

  it('forwards a path no release serves to the backend, and counts it in usage under its own label', async () => {
    const before = stack.legacyProxy!.requests.length;
    const path = `/service/ou/${values['{unit}']}/no-such-route`;
    const response = await fetch(`${stack.gatewayUrl}${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    // The 404 is the backend's: the gateway sent the request on.
    expect(response.status).toBe(404);
    expect(stack.legacyProxy!.requests.slice(before).map((request) => request.path)).toEqual([path]);
    const usage = (await stack.gateway.metrics.registry.getMetricsAsJSON()).find(
      (metric) => metric.name === 'gateway_usage_last_seen_timestamp_seconds',
    );
    expect(usage?.values.map((value) => value.labels.endpoint)).toContain(
      'GET /service/ou/{uuid}/no-such-route',
    );
  });
});
