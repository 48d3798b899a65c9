import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGatewayApp, type GatewayApp } from '../gateway/src/app.js';
import { compareLegacyWithGraphQL } from '../gateway/src/comparison/compare.js';
import { gatewayTransport } from '../gateway/src/comparison/gateway-transport.js';
import { inProcessExecutor, type ShadowExecutor } from '../gateway/src/comparison/shadow/shadow.js';
import { buildVersions } from '../gateway/src/graphql/versions.js';
import { createLegacyClient, type LegacyClient } from '../gateway/src/legacy/legacy-client.js';
import { referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import {
  blockOffMachine,
  chromiumMissing,
  launchChromium,
  logInAs,
  openPage,
  pageWaitMs,
} from './chromium.js';
import { changeManagerType, type ManagerTypeChange } from './legacy-edits.js';
import { repoRoot } from './processes.js';
import { startTestStack, type TestStack } from './stack.js';

const artifacts = join(repoRoot, 'test-artifacts');
const skip = chromiumMissing('workbench.test.ts');

/** The cells of every row of a table on the page, as text. */
/** A test's bound: several page steps, each bounded by `pageWaitMs`. */
const testTimeoutMs = 4 * pageWaitMs;

/**
 * What a test looked at, for a person: the window scrolled to `selector`. A full page is taken only when a
 * test fails: once the coverage and usage tables are on the page it is about 20,000 pixels tall, and each
 * full-page capture cost Chromium 1–7 CPU-seconds (18 MB a picture).
 */
async function screenshot(page: Page, name: string, selector: string): Promise<void> {
  await page.locator(selector).first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(artifacts, `${name}.png`) });
}

const tableRows = (page: Page, selector: string) =>
  page
    .locator(`${selector} > tbody > tr`)
    .evaluateAll((rows) =>
      rows.map((row) => [...row.children].map((cell) => (cell as HTMLElement).innerText.trim())),
    );

describe.skipIf(skip)('the migration workbench in Chromium', () => {
  let stack: TestStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  /** A second gateway on the same legacy service whose shadow comparison meets a changed record. */
  let mismatching: GatewayApp | undefined;
  let legacyClient: LegacyClient | undefined;
  let offMachine: string[];
  let pageProblems: string[];

  beforeAll(async () => {
    await mkdir(artifacts, { recursive: true });
    stack = await startTestStack({ gatewayEnv: { SHADOW_SAMPLE_RATE: '1' } });
    token = await stack.token('alice');
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    offMachine = await blockOffMachine(context);
    ({ page, pageProblems } = await openPage(context));

    // Live reads an integration makes: the shadow comparison samples every one of them. Nothing else reads
    // /service through the stack's gateway (the workbench's own reads are never sampled, nor counted as usage),
    // so the tests below find these three, in whatever order they run.
    for (const unit of referenceUnitUuids) {
      const read = await fetch(`${stack.gatewayUrl}/service/ou/${unit}/details/manager`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(read.status).toBe(200);
      await read.arrayBuffer();
    }

    // Every test starts on the workbench, signed in as alice.
    await page.goto(`${stack.gatewayUrl}/migration`);
    await logInAs(page, stack.idpUrl, 'alice');
    await page.waitForURL(`${stack.gatewayUrl}/migration`);
  }, testTimeoutMs);

  // The whole page as a failed test left it.
  beforeEach(({ task, onTestFailed }) => {
    onTestFailed(async () => {
      const name = task.name.replace(/[^a-z]+/gi, '-').slice(0, 60);
      await page.screenshot({ path: join(artifacts, `workbench-failed-${name}.png`), fullPage: true });
    });
  });

  // Whatever a test did on the page, nothing left the machine.
  afterEach(() => {
    expect(offMachine).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await mismatching?.close();
    await legacyClient?.close();
    await stack?.close();
  });

  it(
    'signs in, compares the reference units side by side and finds them equal',
    async () => {
      await expect.poll(() => page.locator('#session-user').textContent()).toBe('alice');
      await expect.poll(() => page.locator('nav a[aria-current=page]').textContent()).toBe('Workbench');

      // The page opens with the units the gateway finds at its backend: the first ones with a manager.
      const found = await fetch(`${stack.gatewayUrl}/browser/reference-units`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const { units } = (await found.json()) as { units: string[] };
      expect(units).toHaveLength(3);
      for (const unit of units) {
        // Straight from the legacy service, so the shadow comparison does not sample these reads.
        const managers = await fetch(`${stack.legacyUrl}/service/ou/${unit}/details/manager`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(((await managers.json()) as unknown[]).length, unit).toBeGreaterThan(0);
      }
      await expect.poll(() => page.inputValue('#subject-uuids')).toBe(units.join('\n'));
      // The side-by-side view opens on OS2mo's v30 (v1 and v2 stay selectable).
      expect(await page.inputValue('#version')).toBe('v30');
      const answered = page.waitForResponse(
        (response) => response.url() === `${stack.gatewayUrl}/migration/compare`,
      );
      await page.click('#compare');
      const response = await answered;
      expect(response.request().headers()['authorization']).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
      expect(response.status()).toBe(200);

      await expect
        .poll(() => page.locator('#verdict').innerText())
        .toMatch(/^Equal — the legacy and the GraphQL data/);
      const legacyCalls = await tableRows(page, '#legacy-calls');
      expect(
        legacyCalls.map(([round, method, path, status]) => [
          round,
          method,
          path!.replace(/[0-9a-f-]{36}/g, '{uuid}'),
          status,
        ]),
      ).toEqual([
        ...Array(3).fill(['1', 'GET', '/service/ou/{uuid}/details/manager', '200']),
        ...Array(3).fill(['2', 'GET', '/service/e/{uuid}/details/engagement', '200']),
      ]);
      const totals = await tableRows(page, '#totals');
      expect(totals[0]).toEqual(['requests', '6', '1']);
      expect(totals[1]![1]).toMatch(/^[\d,]+ B$/);
      expect(totals[2]![2]).toMatch(/^[\d,.]+ ms$/);
      expect(await page.locator('#saving').innerText()).toMatch(
        /^6 legacy requests → 1 GraphQL request \(83% fewer\)/,
      );

      expect(await page.locator('#graphql-query').innerText()).toMatch(
        /query OrgUnitComparison\(.*\) \{\s+org_units\(/,
      );
      const graphqlResponse = JSON.parse(await page.locator('#graphql-response').innerText());
      // v30's answer in OS2mo's shape: each object a response with its `current` version.
      const managerType = graphqlResponse.data.org_units.objects[0].current.managers[0].manager_type.user_key;
      expect(managerType).toEqual(expect.any(String));
      expect(await page.locator('#graphql-side h3', { hasText: 'Upstream trace' }).innerText()).toBe(
        'Upstream trace: 6 legacy calls in 2 rounds',
      );
      expect(await tableRows(page, '#upstream-calls')).toHaveLength(6);

      // A legacy call opens to its raw JSON.
      await page.locator('#legacy-calls details summary').first().click();
      const raw = JSON.parse(await page.locator('#legacy-calls details[open] pre').innerText());
      expect(raw[0].manager_type.user_key).toBe(managerType);

      // The three live reads were compared in the background and matched.
      await page.click('#shadow-refresh');
      await expect.poll(() => page.locator('#shadow-counts [data-count=match] strong').innerText()).toBe('3');
      expect(await page.locator('#shadow-counts [data-count=sampled] strong').innerText()).toBe('3');
      expect(await page.locator('#shadow-mismatches-empty').isVisible()).toBe(true);

      await screenshot(page, 'workbench', '#verdict');
      expect(pageProblems).toEqual([]);
    },
    testTimeoutMs,
  );

  it(
    'shows each difference with its path and both values',
    async () => {
      // A real comparison during which a manager's type changes between the legacy reads and the GraphQL query,
      // as the page would receive it.
      const unit = referenceUnitUuids[1]!;
      let change: ManagerTypeChange | undefined;
      // Its /service reads go to the legacy service itself: through the gateway, the shadow comparison would sample
      // them as they race the change, and the first test would find a mismatch that is this test's.
      const direct = (request: Request) =>
        request.url.startsWith(`${stack.gatewayUrl}/service/`)
          ? stack.legacyFetch(request.url.slice(stack.gatewayUrl.length))
          : fetch(request);
      const report = await compareLegacyWithGraphQL({
        subject: { kind: 'org_units', uuids: referenceUnitUuids },
        version: 'v1',
        transport: gatewayTransport({
          baseUrl: stack.gatewayUrl,
          authorization: `Bearer ${token}`,
          fetch: direct,
        }),
        betweenReads: async () => {
          change = await changeManagerType(stack.legacyFetch, unit);
        },
      });
      expect(report.verdict.equal).toBe(false);
      const withChange = (route: Route) => route.fulfill({ json: report });
      await page.route(`${stack.gatewayUrl}/migration/compare`, withChange);
      try {
        await page.selectOption('#version', 'v1');
        await page.click('#compare');
        await expect.poll(() => page.locator('#verdict > p').innerText()).toBe('Different — 1 difference:');
        expect(await tableRows(page, '#differences')).toEqual([
          [
            `org_units[${unit}].managers[${change!.managerUuid}].manager_type.user_key`,
            JSON.stringify(change!.before),
            JSON.stringify(change!.after),
          ],
        ]);
        await screenshot(page, 'workbench-differences', '#differences');
      } finally {
        await page.unroute(`${stack.gatewayUrl}/migration/compare`, withChange);
        // The page as the other tests find it: on v30.
        await page.selectOption('#version', 'v30');
      }
      expect(pageProblems).toEqual([]);
    },
    testTimeoutMs,
  );

  it(
    'lists the last shadow mismatches',
    async () => {
      const unit = referenceUnitUuids[2]!;
      legacyClient = createLegacyClient(stack.gateway.config.legacy);
      // The version the shadow asks (v30, or v2 where the OS2mo road falls back), run in-process.
      const executors = new Map(
        buildVersions().map((version) => [
          version.name,
          inProcessExecutor({ schema: version.schema, legacy: legacyClient! }),
        ]),
      );
      const realExecutor: ShadowExecutor = (request, context) =>
        executors.get(context.version)!(request, context);
      let change: ManagerTypeChange | undefined;
      mismatching = createGatewayApp(
        {
          ...stack.gateway.config,
          logLevel: 'silent',
          shadow: { ...stack.gateway.config.shadow, sampleRate: 1 },
        },
        {
          shadow: {
            executor: async (request, context) => {
              change ??= await changeManagerType(stack.legacyFetch, unit);
              return realExecutor(request, context);
            },
          },
        },
      );
      const path = `/service/ou/${unit}/details/manager`;
      const read = await mismatching.app.request(path, { headers: { authorization: `Bearer ${token}` } });
      expect(read.status).toBe(200);
      await read.arrayBuffer();
      await expect.poll(() => mismatching!.shadow.snapshot().counts.mismatch).toBe(1);

      // The page asks that gateway for its shadow comparison. The stack's own shadow may hold a mismatch of its
      // own from the test before (its reads raced that test's change), so the rows are read only after the page
      // has been answered by this gateway.
      let answered!: () => void;
      const served = new Promise<void>((resolve) => (answered = resolve));
      const fromMismatching = async (route: Route) => {
        const answer = await mismatching!.app.request('/migration/shadow', {
          headers: { authorization: route.request().headers()['authorization'] ?? '' },
        });
        await route.fulfill({ status: answer.status, json: await answer.json() });
        answered();
      };
      await page.route(`${stack.gatewayUrl}/migration/shadow`, fromMismatching);
      try {
        await page.click('#shadow-refresh');
        await served;
        await expect
          .poll(() => page.locator('#shadow-counts [data-count=mismatch] strong').innerText())
          .toBe('1');
        const [row] = await tableRows(page, '#shadow-mismatches');
        expect(row![1]).toBe(`GET ${path}`);
        expect(row![2]).toContain(`managers[${change!.managerUuid}].manager_type.user_key`);
        expect(row![2]).toContain(JSON.stringify(change!.before));
        expect(row![2]).toContain(JSON.stringify(change!.after));
        await screenshot(page, 'workbench-shadow', '#shadow-mismatches');
      } finally {
        await page.unroute(`${stack.gatewayUrl}/migration/shadow`, fromMismatching);
      }
      expect(pageProblems).toEqual([]);
    },
    testTimeoutMs,
  );

  // One test for both reports: the retirement report joins the coverage run the first one made (kept per data
  // version). Apart, the tests that change a manager's type could run between them and make the second run
  // the coverage report again (~1,350 legacy reads).
  it(
    'shows the coverage report of every /service endpoint, then who still calls what, with a chart of calls per client per day',
    async () => {
      const answered = page.waitForResponse(
        (response) => response.url() === `${stack.gatewayUrl}/migration/coverage`,
      );
      await page.click('#coverage-run');
      expect((await answered).status()).toBe(200);
      await expect.poll(() => page.locator('#coverage-endpoints > tbody > tr').count()).toBeGreaterThan(40);
      expect(await page.locator('#coverage-meaning').innerText()).toMatch(/^Covered: a GraphQL query/);
      expect(await page.locator('#coverage-totals').innerText()).toMatch(/ 0 different, /);
      const rows = await tableRows(page, '#coverage-endpoints');
      const row = (endpoint: string) => rows.find((cells) => cells[1] === endpoint);
      expect(row('GET /service/ou/{uuid}/details/address')?.[0]).toBe('proven');
      expect(row('GET /service/e/{uuid}/details/it')?.[0]).toBe('proven');
      expect(row('GET /service/e/cpr_lookup/')?.slice(0, 2)).toEqual([
        'proven',
        'GET /service/e/cpr_lookup/',
      ]);
      // The query on the version the proof ran on, and that version (on v2, why not v30, from OS2mo's schema).
      expect(row('GET /service/e/cpr_lookup/')?.[2]).toMatch(
        /^cpr_lookup\(cpr_number: \$cpr_number\) \{ name \}\s*Proven on v2, not v30: OS2mo has no place for it \(`Query.cpr_lookup`/,
      );
      expect(row('GET /service/ou/{uuid}/details/manager')?.[2]).toMatch(
        /^org_units\(filter: \{uuids: \[\$uuid\]\}\) \{ objects \{ current \{ managers_response \{ objects \{ current .*\s*Proven on v30 \(OS2mo's GraphQL\)/,
      );
      await screenshot(page, 'workbench-coverage', '#coverage-endpoints');

      // Who still calls what, joined with the coverage report above.
      const usageAnswered = page.waitForResponse(
        (response) => response.url() === `${stack.gatewayUrl}/migration/usage`,
        // The report joins the coverage run kept just above; were it run again, a busy machine takes a while.
        { timeout: 3 * pageWaitMs },
      );
      await page.click('#usage-run');
      expect((await usageAnswered).status()).toBe(200);
      await expect.poll(() => page.locator('#usage-endpoints > tbody > tr').count()).toBeGreaterThan(40);
      // The manager listings the tests above read with alice's token (the browser client); the workbench's and
      // the coverage report's own reads are not among them.
      const usageRows = await tableRows(page, '#usage-endpoints');
      const managers = usageRows.find((cells) => cells[1] === 'GET /service/ou/{uuid}/details/manager')!;
      expect(managers[0]).toBe('in use by 1 client (org-frontend)');
      const counted = /^org-frontend: (\d+) calls, last \d{4}-\d{2}-\d{2}T/.exec(managers[2]!);
      expect(Number(counted?.[1])).toBeGreaterThanOrEqual(referenceUnitUuids.length);
      expect(await page.locator('#usage-source').innerText()).toMatch(/this replica only, since it started/);
      expect(await page.locator('#usage-verdict').innerText()).toMatch(/^\/service is still in use/);
      // One bar today for the one client, as tall as all its calls (/service and GraphQL).
      const versions = await tableRows(page, '#usage-versions');
      const calls = [...usageRows, ...versions].reduce(
        (sum, cells) => sum + Number(/: (\d+) calls?,/.exec(cells[2]!)?.[1] ?? 0),
        0,
      );
      const bars = await page
        .locator('#usage-chart rect.usage-bar')
        .evaluateAll((rects) =>
          rects.map((rect) => [rect.getAttribute('data-client'), rect.getAttribute('data-count')]),
        );
      expect(bars).toEqual([['org-frontend', String(calls)]]);
      await screenshot(page, 'workbench-usage', '#usage-chart');
      expect(pageProblems).toEqual([]);
    },
    testTimeoutMs,
  );
});
