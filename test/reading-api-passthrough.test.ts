import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDevUsers } from '../legacy-service/src/fixture/dev-users.js';
import { startTestStack, type TestStack } from './stack.js';

/**
 * OS2mo 2.4.0's reading API (`backend/mora/api/v1/reading_endpoints.py`, mounted beside `/service` with the
 * same `auth` dependency in `backend/mora/app.py`) through the gateway: forwarded as `/service` is, with a
 * token, and counted in usage under its contract path.
 */

let stack: TestStack;
let token: string;
const [alice] = readDevUsers();

beforeAll(async () => {
  stack = await startTestStack({ legacyProxy: true });
  token = await stack.token('alice');
});
afterAll(() => stack?.close());

const viaGateway = (path: string, headers: Record<string, string> = { authorization: `Bearer ${token}` }) =>
  fetch(`${stack.gatewayUrl}${path}`, { headers });

/** The usage counter of an endpoint, as a scrape of this gateway reads it. */
async function usageCount(endpoint: string): Promise<number> {
  const metrics = await stack.gateway.metrics.registry.getMetricsAsJSON();
  const usage = metrics.find((metric) => metric.name === 'gateway_usage_requests_total');
  return (usage?.values ?? [])
    .filter((value) => value.labels.endpoint === endpoint)
    .reduce((total, value) => total + value.value, 0);
}

describe('/api/v1 through the gateway', () => {
  it('answers a read by UUID as the backend does', async () => {
    const path = `/api/v1/employee/by_uuid?uuid=${alice!.uuid}&validity=past`;
    const direct = await stack.legacyFetch(path);
    const through = await viaGateway(path);
    expect(through.status).toBe(200);
    expect(await through.json()).toEqual(await direct.json());
    const listing = await viaGateway('/api/v1/engagement?changed_since=9999-01-01');
    expect([listing.status, await listing.json()]).toEqual([200, []]);
  });

  it('refuses a read without a token before any backend call', async () => {
    const before = stack.legacyProxy!.count(/^\/api\/v1\//);
    const refused = await viaGateway('/api/v1/org_unit', {});
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: true, status: 401, error_key: 'E_UNAUTHORIZED' });
    expect(stack.legacyProxy!.count(/^\/api\/v1\//)).toBe(before);
  });

  it('refuses a write, as it refuses any write that is not a /service write', async () => {
    const refused = await fetch(`${stack.gatewayUrl}/api/v1/org_unit`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
  });

  it('counts each read under its contract path', async () => {
    const endpoint = 'GET /api/v1/address/by_uuid';
    expect(await usageCount(endpoint)).toBe(0);
    for (let call = 0; call < 3; call += 1) {
      const response = await viaGateway(`/api/v1/address/by_uuid?uuid=${alice!.uuid}`);
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    // A new usage series is exported as 0 twice (`exportedCount`), then with its count.
    const scrapes = [await usageCount(endpoint), await usageCount(endpoint), await usageCount(endpoint)];
    expect(scrapes).toEqual([0, 0, 3]);
  });
});
