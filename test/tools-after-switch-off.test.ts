import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodes, runCompareCommand } from '../gateway/src/comparison/cli/compare-command.js';
import type { CoverageReport } from '../gateway/src/comparison/coverage/coverage.js';
import type { UsageReport } from '../gateway/src/comparison/retirement/usage-report.js';
import { referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import { clientToken } from './idp-tokens.js';
import { startTestStack, type TestStack } from './stack.js';

/**
 * The issue's "tools survive the switch-off": with the whole of `/service` retired, callers get `410`, yet the
 * coverage report, the retirement report and the unit comparison still read `/service` (the workbench
 * in-process, the CLI as the development tool client `dev-tools`, which it reads as by default and `npm start`
 * names in `USAGE_TOOL_CLIENTS`), and the tools' reads are not counted as anyone's usage; an integration's are.
 */
const folder = mkdtempSync(join(tmpdir(), 'tools-after-switch-off-'));
const configFile = join(folder, 'deprecation.yaml');
writeFileSync(
  configFile,
  `
endpoints:
  - endpoint: /service/*
    deprecated: 2026-01-01
    retired: true
`,
);

const unit = referenceUnitUuids[0]!;
/** A coverage run reads every /service endpoint (about 1,300 calls): seconds alone, minutes on a loaded machine. */
const coverageRunMs = 240_000;
let stack: TestStack;
/** The integration client's token (client credentials): an integration, never taken for a tool. */
let integrationToken: string;
/** The development tools' client's token: the configured tool client. */
let toolToken: string;
/** What the gateway answered callers after the switch-off, one call each (`beforeAll`). */
let refused: Record<'user' | 'integration' | 'integrationAsTool' | 'toolWithoutHeader', Response>;
beforeAll(async () => {
  stack = await startTestStack({
    rbacEnabled: false,
    gatewayEnv: { DEPRECATION_CONFIG: configFile, USAGE_TOOL_CLIENTS: 'dev-tools' },
  });
  integrationToken = await clientToken(stack.idp.issuer, 'integration');
  toolToken = await clientToken(stack.idp.issuer, 'dev-tools');
  const read = (token: string, tool: boolean) =>
    fetch(`${stack.gatewayUrl}/service/ou/${unit}/`, {
      headers: { authorization: `Bearer ${token}`, ...(tool ? { 'x-gateway-tool': 'compare-cli' } : {}) },
    });
  // Callers refused, one call each: what the retirement report is for, whichever test reads it first. The
  // integration sending the tool header is still the integration; the tool client without it is a caller too.
  refused = {
    user: await read(await stack.token('alice'), false),
    integration: await read(integrationToken, false),
    integrationAsTool: await read(integrationToken, true),
    toolWithoutHeader: await read(toolToken, false),
  };
});
afterAll(() => stack.close());

/** What the CLI says, and only that, when it reads as the development tool client. */
const readsAsTool =
  'No token given: reading as the development tool client "dev-tools" (client credentials).\n';

/** The CLI in-process with no token option: as the development tool client, as after `npm start`. */
async function compare(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCompareCommand(
    [...args, '--gateway', stack.gatewayUrl],
    { IDP_URL: stack.idpUrl },
    { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) },
  );
  return { code, stdout, stderr };
}

describe('the comparison tools after /service is switched off', () => {
  it('refuses callers, an integration with the tool header and the tool client without it too', async () => {
    expect(refused.user.status).toBe(410);
    expect(((await refused.user.json()) as { error_key: string }).error_key).toBe('E_GONE');
    expect(refused.integration.status).toBe(410);
    expect(refused.integrationAsTool.status).toBe(410);
    expect(refused.toolWithoutHeader.status).toBe(410);
    const asTool = await fetch(`${stack.gatewayUrl}/service/ou/${unit}/`, {
      headers: { authorization: `Bearer ${toolToken}`, 'x-gateway-tool': 'compare-cli' },
    });
    expect(asTool.status).toBe(200);
    await asTool.arrayBuffer();
  });

  it(
    "runs the workbench's coverage and retirement reports",
    async () => {
      const authorization = `Bearer ${await stack.token('alice')}`;
      const coverage = await fetch(`${stack.gatewayUrl}/migration/coverage`, { headers: { authorization } });
      expect(coverage.status).toBe(200);
      const report = (await coverage.json()) as CoverageReport;
      // Read through both roads: a refused /service read would leave the endpoint unproven.
      expect(report.totals.proven).toBeGreaterThan(30);
      expect(report.endpoints.some((entry) => JSON.stringify(entry).includes('E_GONE'))).toBe(false);

      const usage = await fetch(`${stack.gatewayUrl}/migration/usage`, { headers: { authorization } });
      expect(usage.status).toBe(200);
      const retirement = (await usage.json()) as UsageReport;
      // The refused calls (beforeAll) are what the report is for; the reports' own reads are no one's.
      const unitRead = retirement.endpoints.find((entry) => entry.endpoint === 'GET /service/ou/{uuid}/')!;
      expect(unitRead.clients).toMatchObject([
        { client: 'integration', count: 2 },
        { client: 'dev-tools', count: 1 },
        { client: 'org-frontend', count: 1 },
      ]);
      const callers = retirement.endpoints.flatMap((entry) => entry.clients);
      expect(callers).toHaveLength(3);
    },
    coverageRunMs,
  );

  it(
    'runs the CLI: --coverage, --units and --usage',
    async () => {
      // Made (0 or 1 by what it found), never "could not be made" (2).
      const coverage = await compare(['--coverage', '--json']);
      expect(coverage.stderr).toBe(readsAsTool);
      expect(coverage.code).not.toBe(exitCodes.unusable);
      const report = JSON.parse(coverage.stdout) as CoverageReport;
      expect(report.totals.proven).toBeGreaterThan(30);
      expect(coverage.code).toBe(report.totals.different === 0 ? exitCodes.equal : exitCodes.different);

      const units = await compare(['--units', unit, '--json']);
      expect(units.stderr).toBe(readsAsTool);
      expect(units.code).not.toBe(exitCodes.unusable);
      expect(units.stdout).not.toContain('E_GONE');

      const usage = await compare(['--usage', '--json']);
      expect(usage.stderr).toBe(readsAsTool);
      // Made, and not "switch off": callers were refused (beforeAll), so /service is still called.
      expect(usage.code).toBe(exitCodes.different);
      const retirement = JSON.parse(usage.stdout) as UsageReport;
      // The CLI's own reads (the tool header from the tool client) are counted apart: still the four calls.
      const unitRead = retirement.endpoints.find((entry) => entry.endpoint === 'GET /service/ou/{uuid}/')!;
      expect(unitRead.count).toBe(4);
      expect(retirement.endpoints.flatMap((entry) => entry.clients)).toHaveLength(3);
    },
    coverageRunMs,
  );
});
