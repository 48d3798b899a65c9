import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCompareCommand } from '../gateway/src/comparison/cli/compare-command.js';
import { gatewayTransport } from '../gateway/src/comparison/gateway-transport.js';
import { readGatewayConfig } from '../gateway/src/config.js';
import { createLogger } from '../gateway/src/observability/logger.js';
import { startGateway, type RunningGateway } from '../gateway/src/server.js';
import type { EndpointUsage, UsageReport } from '../gateway/src/comparison/retirement/usage-report.js';
import { startIdp, type RunningIdp } from '../idp/src/server.js';
import { startLegacyService, type LegacyServer } from '../legacy-service/src/server.js';
import { accessToken, clientToken } from './idp-tokens.js';
import { freePort } from './processes.js';
import { startPrometheus, type PrometheusForTests } from './prometheus.js';

/**
 * The issue's "done when": two integrations (the development realm's confidential clients `integration` and
 * `payroll`) and a browser user (nora, through `org-frontend`) call a mix of /service endpoints and GraphQL
 * versions through two gateway replicas that a real Prometheus scrapes; the retirement report read from
 * Prometheus names each client with its endpoints, counts and last calls, and leaves out the comparison tools.
 */

const metricsToken = 'usage-scrape-token-0123456789';
const unit = 'f41291dc-2a78-5663-957a-efb8d5ed9a0e';
let dataDir: string;
let legacy: LegacyServer;
let idp: RunningIdp;
let prometheus: PrometheusForTests;
const gateways: RunningGateway[] = [];
const tokens: Record<'integration' | 'payroll' | 'nora' | 'tools', string> = {
  integration: '',
  payroll: '',
  nora: '',
  tools: '',
};
let started: number;

async function call(gateway: RunningGateway, who: keyof typeof tokens, path: string, graphql?: string) {
  const response = await fetch(`${gateway.url}${path}`, {
    method: graphql === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${tokens[who]}`, 'content-type': 'application/json' },
    body: graphql === undefined ? undefined : JSON.stringify({ query: graphql }),
  });
  expect(response.status, `${who} ${path}`).toBe(200);
  await response.arrayBuffer();
}

beforeAll(async () => {
  started = Date.now() / 1000;
  dataDir = await mkdtemp(join(tmpdir(), 'usage-retirement-'));
  legacy = await startLegacyService({ dataDir });
  // The development realm: its two confidential clients are the two integrations.
  idp = await startIdp();
  const prometheusPort = await freePort();
  for (let replica = 0; replica < 2; replica += 1) {
    gateways.push(
      await startGateway({
        logger: createLogger({ level: 'silent' }),
        config: readGatewayConfig({
          GATEWAY_PORT: '0',
          LEGACY_URL: legacy.url,
          IDP_HOST: '127.0.0.1',
          IDP_PORT: String(idp.port),
          IDP_ISSUER: idp.issuer,
          METRICS_TOKEN: metricsToken,
          USAGE_PROMETHEUS_URL: `http://127.0.0.1:${prometheusPort}`,
          // The comparison CLI below runs as the development tools' client: its tool header is believed.
          USAGE_TOOL_CLIENTS: 'dev-tools',
        }),
      }),
    );
  }
  prometheus = await startPrometheus({
    port: prometheusPort,
    targets: gateways.map((gateway) => gateway.url),
    token: metricsToken,
  });
  await prometheus.targetsUp(2);
  tokens.integration = await clientToken(idp.issuer, 'integration');
  tokens.payroll = await clientToken(idp.issuer, 'payroll');
  tokens.nora = await accessToken(idp.issuer, 'nora');
  tokens.tools = await clientToken(idp.issuer, 'dev-tools');
}, 120_000);

afterAll(async () => {
  await prometheus?.close();
  for (const gateway of gateways) await gateway.close();
  await idp?.close();
  await legacy?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const byEndpoint = (report: UsageReport, endpoint: string): EndpointUsage =>
  report.endpoints.find((entry) => entry.endpoint === endpoint)!;

describe('who still calls /service, across two replicas and a real Prometheus', () => {
  it('names each client with its endpoints, counts and last call, and leaves out the comparison tools', async () => {
    const [a, b] = gateways as [RunningGateway, RunningGateway];
    for (let i = 0; i < 3; i += 1) await call(a, 'integration', `/service/ou/${unit}/`);
    for (let i = 0; i < 2; i += 1) await call(b, 'integration', `/service/ou/${unit}/`);
    await call(b, 'integration', `/service/ou/${unit}/details/manager?inherit_manager=1`);
    await call(
      a,
      'payroll',
      '/graphql/v1',
      `{ org_units(filter: { uuids: ["${unit}"] }) { objects { name } } }`,
    );
    for (let i = 0; i < 2; i += 1) await call(b, 'payroll', '/service/o/');
    for (let i = 0; i < 2; i += 1) {
      await call(
        b,
        'nora',
        '/graphql/v2',
        `{ org_units(filter: { uuids: ["${unit}"] }) { objects { name } } }`,
      );
    }
    await call(a, 'nora', `/service/ou/${unit}/details/engagement?validity=past`);
    const calls = 3 + 2 + 1 + 1 + 2 + 2 + 1;
    // Every series scraped past its first two exports at 0 before the workbench's comparison, which keeps the
    // gateway busy: two scrapes of a new series timed out in a row (this Prometheus allows 400 ms) would lose
    // its first calls to increase(). The check below still finds a tool's calls if they were counted.
    await prometheus.until(async () => {
      const [total] = await prometheus.query('sum(gateway_usage_requests_total)');
      return Number(total?.value[1]) === calls;
    }, `the ${calls} calls scraped`);

    // The comparison tools: the CLI's reads (marked by its transport) and the workbench's (in-process).
    const cli = gatewayTransport({
      baseUrl: a.url,
      authorization: `Bearer ${tokens.tools}`,
      tool: 'compare-cli',
    });
    for (let i = 0; i < 4; i += 1) expect((await cli.getService(`/service/ou/${unit}/`)).status).toBe(200);
    const workbench = await fetch(`${a.url}/migration/compare`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.nora}`, 'content-type': 'application/json' },
      body: JSON.stringify({ units: [unit], version: 'v2' }),
    });
    expect(workbench.status).toBe(200);

    // Every call scraped, and the series long enough that increase()'s extrapolation rounds away.
    await prometheus.until(async () => {
      const [total] = await prometheus.query('sum(gateway_usage_requests_total)');
      const [samples] = await prometheus.query('min(count_over_time(gateway_usage_requests_total[1h]))');
      return Number(total?.value[1]) === calls && Number(samples?.value[1]) >= 20;
    }, `all ${calls} calls scraped`);

    const answer = await fetch(`${a.url}/migration/usage`, {
      headers: { authorization: `Bearer ${tokens.nora}` },
    });
    expect(answer.status).toBe(200);
    const report = (await answer.json()) as UsageReport;
    const now = Date.now() / 1000;
    expect(report.source.kind).toBe('prometheus');

    const unitRead = byEndpoint(report, 'GET /service/ou/{uuid}/');
    // Both replicas added up; the CLI's four reads of the same endpoint (as dev-tools) are no one's.
    expect(unitRead.clients).toMatchObject([{ client: 'integration', count: 5, flags: ['none'] }]);
    const lastSeen = Date.parse(unitRead.clients[0]!.last_seen!) / 1000;
    expect(lastSeen).toBeGreaterThanOrEqual(Math.floor(started));
    expect(lastSeen).toBeLessThanOrEqual(now);
    expect(unitRead.verdict).toEqual({ kind: 'in_use', text: 'in use by 1 client (integration)' });

    const managers = byEndpoint(report, 'GET /service/ou/{uuid}/details/manager');
    expect(managers.clients).toMatchObject([{ client: 'integration', count: 1, flags: ['inherit_manager'] }]);
    expect(managers.replacement.unproven_flags).toEqual(['inherit_manager']);
    expect(byEndpoint(report, 'GET /service/o/').clients).toMatchObject([{ client: 'payroll', count: 2 }]);
    expect(byEndpoint(report, 'GET /service/ou/{uuid}/details/engagement').clients).toMatchObject([
      { client: 'org-frontend', count: 1, flags: ['validity=past'] },
    ]);
    // Every served version is listed; only v1 and v2 were called.
    const called = report.versions.filter((version) => version.clients.length > 0);
    expect(called.map((version) => [version.version, version.clients])).toMatchObject([
      ['v1', [{ client: 'payroll', count: 1, flags: ['query'] }]],
      ['v2', [{ client: 'org-frontend', count: 2, flags: ['query'] }]],
    ]);
    expect(report.versions.map((version) => version.version)).toContain('v30');
    // An endpoint nobody called: but Prometheus holds only this test's minutes of the 90-day window, so the
    // report will not call it safe to switch off (the unit tests move the window past that).
    expect(report.source.since).toBeDefined();
    expect(byEndpoint(report, 'GET /service/o/{org}/it/').verdict).toMatchObject({
      kind: 'too_little_history',
      text: expect.stringMatching(
        /^no calls in the \d+ minutes? the usage covers, which is less than the window \(90 days\)/,
      ),
    });
    // Every client's calls are in the report, and nothing else: the tools' reads are counted apart.
    const counted = [...report.endpoints, ...report.versions].reduce((sum, entry) => sum + entry.count, 0);
    expect(counted).toBe(calls);
    expect(report.tool_requests).toBeGreaterThanOrEqual(4);
    expect(report.verdict.text).toBe(
      '/service is still in use: 4 endpoints called by 3 clients (integration, org-frontend, payroll) within the last 90 days.',
    );
    expect(report.daily.reduce((sum, entry) => sum + entry.count, 0)).toBe(calls);

    const printed: string[] = [];
    const exit = await runCompareCommand(
      ['--usage', '--gateway', b.url, '--token', tokens.nora],
      {},
      { stdout: (text) => printed.push(text), stderr: (text) => printed.push(text) },
    );
    expect(exit).toBe(1);
    const text = printed.join('');
    expect(text).toMatch(
      /every replica the Prometheus server of USAGE_PROMETHEUS_URL scrapes, over the last 90 days \(it holds them since /,
    );
    expect(text).toMatch(/GET \/service\/ou\/\{uuid\}\/ {2}5 calls\n {6}clients: integration 5×/);
    expect(text).toMatch(/Verdict: \/service is still in use/);
  }, 180_000);
});
