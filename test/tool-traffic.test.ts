import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EndpointUsage, UsageReport } from '../gateway/src/comparison/retirement/usage-report.js';
import { DEFAULT_INTEGRATION_CLIENT_SECRET } from '../idp/src/realm-builder.js';
import { startTestStack, type TestStack } from './stack.js';

/**
 * `X-Gateway-Tool` hides a call from the retirement report only when the client named in `USAGE_TOOL_CLIENTS`
 * sends it (here `integration`, standing for the comparison CLI's client); a browser user sending it is still
 * counted as its own client, and the report's own reads never count as anyone's usage.
 */

const unit = 'f41291dc-2a78-5663-957a-efb8d5ed9a0e';
let stack: TestStack;
let nora: string;
let tool: string;

beforeAll(async () => {
  stack = await startTestStack({ rbacEnabled: false, gatewayEnv: { USAGE_TOOL_CLIENTS: 'integration' } });
  nora = await stack.token('nora');
  const response = await fetch(`${stack.idp.issuer}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: 'integration',
      client_secret: DEFAULT_INTEGRATION_CLIENT_SECRET,
    }),
  });
  tool = ((await response.json()) as { access_token: string }).access_token;
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

async function read(token: string, path: string): Promise<void> {
  const response = await fetch(`${stack.gatewayUrl}${path}`, {
    headers: { authorization: `Bearer ${token}`, 'x-gateway-tool': 'compare-cli' },
  });
  expect(response.status).toBe(200);
  await response.arrayBuffer();
}

async function report(): Promise<UsageReport> {
  const response = await fetch(`${stack.gatewayUrl}/migration/usage`, {
    headers: { authorization: `Bearer ${nora}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as UsageReport;
}

const byEndpoint = (usage: UsageReport, endpoint: string): EndpointUsage =>
  usage.endpoints.find((entry) => entry.endpoint === endpoint)!;

describe('the tool header', () => {
  it('is believed from a tool client only, and the report reading itself adds nothing', async () => {
    for (let i = 0; i < 3; i += 1) await read(nora, `/service/ou/${unit}/`);
    for (let i = 0; i < 2; i += 1) await read(tool, `/service/ou/${unit}/`);

    const first = await report();
    expect(byEndpoint(first, 'GET /service/ou/{uuid}/').clients).toMatchObject([
      { client: 'org-frontend', count: 3 },
    ]);
    expect(first.tool_requests).toBe(2);

    const second = await report();
    expect(second.tool_requests).toBe(2);
    const counted = (usage: UsageReport) =>
      [...usage.endpoints, ...usage.versions].reduce((sum, entry) => sum + entry.count, 0);
    expect(counted(second)).toBe(3);
  });
});
