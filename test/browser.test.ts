import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './processes.js';
import { startTestStack, type TestStack } from './stack.js';

const CHROMIUM = '/usr/bin/chromium';
const artifacts = join(repoRoot, 'test-artifacts');
// Outside CI a machine without Debian's chromium skips this file; in CI a missing browser is a failure.
const skip = !existsSync(CHROMIUM) && !process.env['CI'];
if (skip) console.warn(`browser.test.ts skipped: ${CHROMIUM} is missing (apt-get install -y chromium).`);

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The text Monaco shows in an editor, with its non-breaking spaces made plain. */
const editorText = (page: Page, selector: string) =>
  page
    .locator(`${selector} .view-lines`)
    .first()
    .innerText()
    .then((text) => text.replace(/\u00a0/g, ' '));

describe.skipIf(skip)('the browser tools in Chromium', () => {
  let stack: TestStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** Requests that tried to leave the machine: each one is a failure. */
  const offMachine: string[] = [];
  /** What the pages logged as errors, shown when an assertion fails. */
  const pageProblems: string[] = [];

  beforeAll(async () => {
    await mkdir(artifacts, { recursive: true });
    stack = await startTestStack();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
      timeout: 30_000,
    });
    context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if ((url.protocol === 'http:' || url.protocol === 'https:') && loopbackHosts.has(url.hostname)) {
        return route.continue();
      }
      offMachine.push(url.href);
      return route.abort('blockedbyclient');
    });
    page = await context.newPage();
    page.setDefaultTimeout(30_000);
    // Content Security Policy violations and script errors show up here; messages can embed whole data: URLs.
    page.on('pageerror', (error) => pageProblems.push(`page error: ${error.message.slice(0, 300)}`));
    page.on('console', (message) => {
      if (message.type() === 'error') pageProblems.push(`console: ${message.text().slice(0, 300)}`);
    });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('sends /graphql to the login, then runs the reference query in GraphiQL v2 with the token', async () => {
    await page.goto(`${stack.gatewayUrl}/graphql`);
    await page.waitForURL((url) => url.origin === new URL(stack.idpUrl).origin);
    await page.fill('#username', 'alice');
    await page.fill('#password', 'alice');
    await page.click('button[type=submit]');

    await page.waitForURL(`${stack.gatewayUrl}/graphql/v2`);
    await expect.poll(() => page.locator('#session-user').textContent()).toBe('alice');
    await page.locator('.graphiql-container .graphiql-query-editor .view-lines').first().waitFor();
    expect(await editorText(page, '.graphiql-query-editor')).toMatch(/query ReferenceQuery \{\s+org_units\(/);

    const answered = page.waitForResponse(
      (response) =>
        response.url() === `${stack.gatewayUrl}/graphql/v2` &&
        /ReferenceQuery/.test(response.request().postData() ?? ''),
    );
    await page.click('.graphiql-execute-button');
    const response = await answered;
    expect(response.request().headers()['authorization']).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    expect(response.status()).toBe(200);
    const body = await response.json();
    expect(body.errors).toBeUndefined();
    const managerType = body.data.org_units.objects
      .flatMap((unit: any) => unit.managers)
      .map((manager: any) => manager.manager_type.user_key)[0];
    expect(managerType).toEqual(expect.any(String));

    await expect
      .poll(() => editorText(page, '.graphiql-response'), { timeout: 30_000 })
      .toMatch(/"objects": \[/);
    expect(await editorText(page, '.graphiql-response')).toContain(`"user_key": "${managerType}"`);
    await page.screenshot({ path: join(artifacts, 'graphiql.png') });
    expect(pageProblems).toEqual([]);
  }, 90_000);

  it('draws the newest version in Voyager for the signed-in user', async () => {
    await page.goto(`${stack.gatewayUrl}/voyager`);
    await expect.poll(() => page.locator('#session-user').textContent()).toBe('alice');
    // Voyager names each drawn type's group `TYPE::{name}` and its heading `TYPE_TITLE::{name}`.
    const orgUnitTitle = page.locator('svg g.node [id="TYPE_TITLE::OrgUnit"]');
    await orgUnitTitle.waitFor({ timeout: 60_000 });
    expect((await orgUnitTitle.textContent())?.trim()).toBe('OrgUnit');
    expect(await page.locator('svg g.node').count()).toBeGreaterThan(5);
    await page.screenshot({ path: join(artifacts, 'voyager.png') });
    expect(pageProblems).toEqual([]);
  }, 90_000);

  it('made no request off this machine', () => {
    expect(offMachine).toEqual([]);
  });
});
