import type { Browser, BrowserContext, Page } from 'playwright-core';
import { blockOffMachine, logInAs } from '../../test/chromium.js';

/** One GraphQL request the UI made, as the in-page fetch hook saw it. */
export interface RecordedRequest {
  /** The trial's step at the time (`unit page, tab address`). */
  step: string;
  operationName: string;
  query: string;
  variables: unknown;
  status: number;
  /** The first error's message, when the answer has errors (or the request failed). */
  firstError?: string;
}

/** What one user's walk through the UI saw. */
export interface WalkResult {
  user: string;
  requests: RecordedRequest[];
  /** Steps whose page showed the UI's load error ("Something went wrong"), with how many times. */
  failedSteps: { step: string; count: number }[];
  /** What each search listed, and what each form's submission answered. */
  notes: string[];
  /** Steps the walk could not take (an element never appeared), with why. */
  problems: string[];
  offMachine: string[];
}

export interface WalkPlan {
  origin: string;
  idpUrl: string;
  unit: { uuid: string; name: string };
  person: { uuid: string; name: string };
  /** What to submit in the create-address and rename-unit forms (the admin's walk); null: leave them. */
  submitForms: { renamedSuffix: string; addressValue: string } | null;
  /** Today's date as the UI's date inputs take it (`yyyy-mm-dd`). */
  today: string;
}

/**
 * Records every GraphQL fetch of the page in the Node process: playwright's `response.text()` may never
 * settle for the UI's fetches in Debian's Chromium, so the page reads its own answers and reports them.
 */
const fetchHook = `(() => {
  const original = window.fetch.bind(window);
  window.__graphqlPending = 0;
  window.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!/\\/graphql\\/v\\d+$/.test(new URL(url, location.href).pathname)) return original(input, init);
    window.__graphqlPending += 1;
    let body = {};
    try { body = JSON.parse(typeof init?.body === 'string' ? init.body : '{}'); } catch {}
    const record = { operationName: body.operationName ?? (/(?:query|mutation)\\s+(\\w+)/.exec(body.query ?? '')?.[1] ?? '(anonymous)'),
      query: body.query ?? '', variables: body.variables ?? null, status: 0 };
    try {
      const response = await original(input, init);
      record.status = response.status;
      try {
        const answer = await response.clone().json();
        if (answer.errors?.length) record.firstError = String(answer.errors[0].message);
      } catch { record.firstError = 'the answer is not JSON'; }
      return response;
    } catch (error) {
      record.firstError = 'fetch failed: ' + (error && error.message);
      throw error;
    } finally {
      window.__graphqlPending -= 1;
      window.__recordGraphQL(record);
    }
  };
})();`;

/** The UI's load error in English (the walk's locale) and in Danish, the UI's default. */
const loadError = /Something went wrong|Noget gik galt/i;

/** Waits until the page has had no GraphQL request in flight for a moment (at most `limitMs`). */
async function settle(page: Page, limitMs = 20_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    const pending = await page
      .evaluate(() => (window as unknown as { __graphqlPending?: number }).__graphqlPending ?? 0)
      .catch(() => 1);
    if (pending > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= 1200) return;
    await page.waitForTimeout(200);
  }
}

/** How often the page shows the UI's load error. */
async function loadErrors(page: Page): Promise<number> {
  return page.getByText(loadError).count();
}

/** Walks the UI as one user: tree, unit page and tabs, person page and tabs, both searches, the two forms. */
export async function walkUi(browser: Browser, user: string, plan: WalkPlan): Promise<WalkResult> {
  const context: BrowserContext = await browser.newContext({
    viewport: { width: 1400, height: 900 },
    locale: 'en-US',
  });
  const offMachine = await blockOffMachine(context);
  const result: WalkResult = { user, requests: [], failedSteps: [], notes: [], problems: [], offMachine };
  let step = 'login';
  await context.exposeBinding('__recordGraphQL', (_source, record: Omit<RecordedRequest, 'step'>) => {
    result.requests.push({ step, ...record });
  });
  await context.addInitScript(fetchHook);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);

  const look = async (name: string) => {
    step = name;
    await settle(page);
    const count = await loadErrors(page);
    if (count > 0) result.failedSteps.push({ step: name, count });
  };
  const attempt = async (name: string, work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      result.problems.push(`${name}: ${(error as Error).message.split('\n')[0]}`);
    }
  };

  try {
    await page.goto(`${plan.origin}/`);
    await logInAs(page, plan.idpUrl, user);
    await page.waitForURL((url) => url.origin === plan.origin, { timeout: 30_000 });
    await look('organisation tree');
    // The tree's nodes are links to their unit pages, each around a list item.
    const nodes = await page.locator('a[href*="/organisation/"]:has(> li)').count();
    result.notes.push(`organisation tree: ${nodes} units shown`);

    await attempt('unit page', () =>
      visitWithTabs(
        page,
        `${plan.origin}/organisation/${plan.unit.uuid}`,
        'unit page',
        look,
        (name) => (step = name),
      ),
    );
    await attempt('person page', () =>
      visitWithTabs(
        page,
        `${plan.origin}/employee/${plan.person.uuid}`,
        'person page',
        look,
        (name) => (step = name),
      ),
    );
    await attempt('search for a person', async () => {
      step = 'search for a person';
      result.notes.push(
        `search for a person (${plan.person.name.split(' ')[0]}): ${await search(page, plan.person.name.split(' ')[0]!, false)} results`,
      );
    });
    await attempt('search for a unit', async () => {
      step = 'search for a unit';
      result.notes.push(
        `search for a unit (${plan.unit.name}): ${await search(page, plan.unit.name, true)} results`,
      );
    });
    const forms = plan.submitForms;
    if (forms) {
      await attempt('create-address form', () =>
        createAddress(page, plan, forms.addressValue, look, (name) => (step = name)),
      );
      await attempt('rename-unit form', () =>
        renameUnit(page, plan, forms.renamedSuffix, look, (name) => (step = name)),
      );
      for (const form of ['CreateAddress', 'UpdateOrgUnit']) {
        const sent = result.requests.filter((request) => request.operationName === form);
        result.notes.push(
          sent.length === 0
            ? `${form}: not submitted`
            : `${form}: ${sent.map((request) => request.firstError ?? 'succeeded').join('; ')}`,
        );
      }
    }
  } catch (error) {
    result.problems.push(`${step}: ${(error as Error).message.split('\n')[0]}`);
  } finally {
    await context.close();
  }
  return result;
}

/** Opens a page, looks at it, then clicks each of its tabs and looks at each. */
async function visitWithTabs(
  page: Page,
  url: string,
  name: string,
  look: (step: string) => Promise<void>,
  setStep: (step: string) => void,
): Promise<void> {
  setStep(name);
  await page.goto(url);
  await page.locator('a.tab').first().waitFor();
  await look(name);
  const tabs = await page
    .locator('a.tab')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
  for (const [index, tab] of tabs.entries()) {
    setStep(`${name}, tab ${tab.replace('#', '')}`);
    await page.locator('a.tab').nth(index).click();
    await look(`${name}, tab ${tab.replace('#', '')}`);
  }
}

/** Types into the navbar's search (the unit search after flipping its switch); answers how many items it lists. */
async function search(page: Page, text: string, units: boolean): Promise<number> {
  const toggle = page.locator('.navbar input.toggle');
  if ((await toggle.isChecked()) !== units) await toggle.click();
  const input = page.locator('.navbar input#autocomplete');
  await input.fill('');
  await input.pressSequentially(text, { delay: 40 });
  await settle(page);
  return page.locator('.svelte-select-list .item').count();
}

async function createAddress(
  page: Page,
  plan: WalkPlan,
  value: string,
  look: (step: string) => Promise<void>,
  setStep: (step: string) => void,
): Promise<void> {
  setStep('create-address form');
  await page.goto(`${plan.origin}/organisation/${plan.unit.uuid}/create/address`);
  await page.locator('input#from').waitFor();
  if (!(await page.locator('input#from').inputValue())) await page.fill('input#from', plan.today);
  await look('create-address form');
  const typeSelect = page
    .locator('div.pb-3', { has: page.locator('label[for="address-type"]') })
    // The innermost wrapper is the last in document order; its select is the address type's.
    .last()
    .locator('.svelte-select')
    .first();
  await typeSelect.click();
  const items = page.locator('.svelte-select-list .item');
  await items.first().waitFor();
  const plain = items.filter({ hasText: /mail|phone|telefon|web|url/i });
  await ((await plain.count()) > 0 ? plain.first() : items.first()).click();
  await page.locator('input#value').fill(value);
  setStep('create-address form, submitted');
  await page.locator('form button[type=submit]').first().click();
  await look('create-address form, submitted');
}

async function renameUnit(
  page: Page,
  plan: WalkPlan,
  suffix: string,
  look: (step: string) => Promise<void>,
  setStep: (step: string) => void,
): Promise<void> {
  setStep('rename-unit form');
  await page.goto(`${plan.origin}/organisation/${plan.unit.uuid}/edit/unit`);
  await page.locator('input#name').waitFor();
  await look('rename-unit form');
  if (!(await page.locator('input#from').inputValue())) await page.fill('input#from', plan.today);
  await page.locator('input#name').fill(`${plan.unit.name}${suffix}`);
  setStep('rename-unit form, submitted');
  await page.locator('form button[type=submit]').first().click();
  await look('rename-unit form, submitted');
}
