import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium: the browser tests drive it, never a downloaded one. */
export const CHROMIUM = '/usr/bin/chromium';

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether a browser test file must skip: outside CI a machine without Debian's chromium skips it (with a
 * warning naming the file); in CI a missing browser is a failure.
 */
export function chromiumMissing(testFile: string): boolean {
  const missing = !existsSync(CHROMIUM) && !process.env['CI'];
  if (missing) console.warn(`${testFile} skipped: ${CHROMIUM} is missing (apt-get install -y chromium).`);
  return missing;
}

/**
 * How long a page may take for one step (a navigation, a click's answer, an element): a bound for a machine
 * under load, far above what a step takes; a test waits on the page's condition, never on the clock.
 */
export const pageWaitMs = 120_000;

/** Headless Chromium with its own background traffic (updates, sync, QUIC) switched off. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
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
    timeout: pageWaitMs,
  });
}

/**
 * Lets the context's pages reach only loopback HTTP(S) and aborts everything else; returns the list of
 * requests that tried to leave the machine, each one a failure for the test to assert on.
 */
export async function blockOffMachine(context: BrowserContext): Promise<string[]> {
  const offMachine: string[] = [];
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if ((url.protocol === 'http:' || url.protocol === 'https:') && loopbackHosts.has(url.hostname)) {
      return route.continue();
    }
    offMachine.push(url.href);
    return route.abort('blockedbyclient');
  });
  return offMachine;
}

/** A new page of the context, and the list of what it logs as errors (shown when an assertion fails). */
export async function openPage(context: BrowserContext): Promise<{ page: Page; pageProblems: string[] }> {
  const page = await context.newPage();
  page.setDefaultTimeout(pageWaitMs);
  const pageProblems: string[] = [];
  // Content Security Policy violations and script errors show up here; messages can embed whole data: URLs.
  page.on('pageerror', (error) => pageProblems.push(`page error: ${error.message.slice(0, 300)}`));
  page.on('console', (message) => {
    if (message.type() === 'error') pageProblems.push(`console: ${message.text().slice(0, 300)}`);
  });
  return { page, pageProblems };
}

/** Signs in on the identity provider's login page the page was sent to; dev users' passwords are their names. */
export async function logInAs(page: Page, idpUrl: string, username: string): Promise<void> {
  await page.waitForURL((url) => url.origin === new URL(idpUrl).origin);
  await page.fill('#username', username);
  await page.fill('#password', username);
  await page.click('button[type=submit]');
}
