import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EndpointUsage, UsageReport } from '../gateway/src/comparison/retirement/usage-report.js';
import { clientToken } from './idp-tokens.js';
import { startTestStack, type TestStack } from './stack.js';

/**
 * `X-Gateway-Tool` hides a call from the retirement report only when the client named in `USAGE_TOOL_CLIENTS`
 * sends it (`dev-tools`, the comparison CLI's own client, as `npm start` names it); an integration or a browser
 * user sending it is still counted as its own client, and the report's own reads never count as anyone's usage.
 */

const unit = 'f41291dc-2a78-5663-957a-efb8d5ed9a0e';
let stack: TestStack;
let nora: string;
let integration: string;
let tool: string;

beforeAll(async () => {
  stack = await startTestStack({ rbacEnabled: false, gatewayEnv: { USAGE_TOOL_CLIENTS: 'dev-tools' } });
  nora = await stack.token('nora');
  integration = await clientToken(stack.idp.issuer, 'integration');
  tool = await clientToken(stack.idp.issuer, 'dev-tools');
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

/**
 * The report proves each endpoint's replacement on the current data (a coverage run, about 1,300 reads) before it
 * answers: seconds alone, minutes on a loaded machine (it timed out at 30 s under a load of 20 on two cores).
 */
const reportRunsMs = 240_000;

const byEndpoint = (usage: UsageReport, endpoint: string): EndpointUsage =>
  usage.endpoints.find((entry) => entry.endpoint === endpoint)!;

describe('the tool header', () => {
  it(
    'is believed from the tool client only, and the report reading itself adds nothing',
    async () => {
      for (let i = 0; i < 3; i += 1) await read(nora, `/service/ou/${unit}/`);
      for (let i = 0; i < 4; i += 1) await read(integration, `/service/ou/${unit}/`);
      for (let i = 0; i < 2; i += 1) await read(tool, `/service/ou/${unit}/`);

      const first = await report();
      // The integration's real reads count as its own, header or not; only the tool client's are set apart.
      expect(byEndpoint(first, 'GET /service/ou/{uuid}/').clients).toMatchObject([
        { client: 'integration', count: 4 },
        { client: 'org-frontend', count: 3 },
      ]);
      expect(first.tool_requests).toBe(2);

      const second = await report();
      expect(second.tool_requests).toBe(2);
      const counted = (usage: UsageReport) =>
        [...usage.endpoints, ...usage.versions].reduce((sum, entry) => sum + entry.count, 0);
      expect(counted(second)).toBe(7);
    },
    reportRunsMs,
  );
});
