import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildSchema } from 'graphql';
import { launchChromium, CHROMIUM } from '../test/chromium.js';
import { buildNaldo } from './os2mo-ui/naldo-build.js';
import { walkUi, type WalkResult } from './os2mo-ui/drive-ui.js';
import { formatReport, type PageCost } from './os2mo-ui/report.js';
import { startTrialStack, type TrialStack } from './os2mo-ui/trial-stack.js';
import { countValidDocuments, uiOperations } from './os2mo-ui/ui-documents.js';

/**
 * `npm run os2mo-ui:trial -- <os2mo-naldo checkout or its git dir> [--keep-running]`: builds OS2mo's web UI,
 * serves it and the development stack on one origin, counts which of its GraphQL documents validate against
 * the gateway's v29, walks it in Chromium as alice (admin, forms submitted) and nora (no role), and prints
 * what succeeded, what failed and why, and what each page costs in legacy calls. See docs/os2mo-ui.md.
 */

const usage = `Usage: npm run os2mo-ui:trial -- SOURCE [--keep-running]

Builds OS2mo's web UI (os2mo-naldo) from SOURCE, a checkout or its git directory (reused when built before, in
OS2MO_UI_BUILD_DIR, default the system's temporary folder), serves it and the development stack on one origin,
walks it in Chromium as alice and nora, and prints what worked, what failed and why, and each page's cost in
legacy calls. See docs/os2mo-ui.md.

  --keep-running   leave the UI and the stack serving after the report (Ctrl+C stops them)
  --help, -h       this text
Ports: OS2MO_UI_PORT, OS2MO_UI_APP_PORT, GATEWAY_PORT, IDP_PORT, LEGACY_PORT (default: free ones).
`;
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(usage);
  process.exit(0);
}
const keepRunning = args.includes('--keep-running');
const unknown = args.filter((arg) => arg.startsWith('-') && arg !== '--keep-running');
const source = args.find((arg) => !arg.startsWith('-'));
if (source === undefined || unknown.length > 0) {
  process.stderr.write(
    `${unknown.length > 0 ? `Unknown option ${unknown.join(', ')}` : 'No os2mo-naldo source given'}.\n\n${usage}`,
  );
  process.exit(2);
}
const buildRoot = process.env['OS2MO_UI_BUILD_DIR'] || join(tmpdir(), 'os2mo-ui-trial');
const say = (line: string) => console.log(line);
/** Set once SIGINT or SIGTERM has begun to stop the stack. */
let interrupted = false;

/** A token from the password grant of the development realm (password = username). */
async function tokenFor(stack: TrialStack, username: string): Promise<string> {
  const response = await fetch(`${stack.idpUrl}/auth/realms/org/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: 'org-frontend',
      username,
      password: username,
    }),
  });
  const { access_token: token } = (await response.json()) as { access_token?: string };
  if (!token) throw new Error(`The identity provider gave ${username} no token (${response.status}).`);
  return token;
}

async function graphql(
  stack: TrialStack,
  token: string,
  version: string,
  query: string,
  variables?: unknown,
  trace = false,
) {
  const response = await fetch(`${stack.gatewayUrl}/graphql/${version}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      ...(trace ? { 'x-upstream-trace': '1' } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as {
    data?: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- each caller reads what it asked for
    errors?: { message: string }[];
    extensions?: { upstream?: { requests: number; rounds: number } };
  };
}

/** A unit with a manager (the README's reference units) and that manager: the pages the walk visits. */
async function pagesToVisit(stack: TrialStack, token: string) {
  const reference = await fetch(`${stack.gatewayUrl}/browser/reference-units`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const { units } = (await reference.json()) as { units: string[] };
  const answer = await graphql(
    stack,
    token,
    'v30',
    'query Pages($uuids: [UUID!]) { org_units(filter: {uuids: $uuids}) { objects { uuid current { name managers { person { uuid name } } } } } }',
    { uuids: units },
  );
  for (const unit of answer.data?.org_units?.objects ?? []) {
    const person = unit.current?.managers?.[0]?.person?.[0];
    if (person)
      return {
        unit: { uuid: unit.uuid as string, name: unit.current.name as string },
        person: person as { uuid: string; name: string },
      };
  }
  throw new Error(`No unit with a manager to visit: ${JSON.stringify(answer.errors ?? answer.data)}`);
}

/** The values the admin's walk submits (`drive-ui.ts` types them into the forms). */
const renamedSuffix = ' (renamed by the UI trial)';
const addressValue = 'ui-trial@example.org';

/**
 * Whether the forms' writes are in the backend: the unit's name as of today, and an address of the unit with
 * the value the walk typed, each read back through the gateway.
 */
async function readBack(
  stack: TrialStack,
  token: string,
  plan: { unit: { uuid: string; name: string }; today: string },
): Promise<string[]> {
  const answer = await graphql(
    stack,
    token,
    'v30',
    `
      query ReadBack($units: [UUID!], $at: DateTime) {
        org_units(filter: { uuids: $units, from_date: $at }) {
          objects {
            current(at: $at) {
              name
            }
          }
        }
        addresses(filter: { org_units: $units, from_date: $at }) {
          objects {
            current(at: $at) {
              value
            }
          }
        }
      }
    `,
    { units: [plan.unit.uuid], at: plan.today },
  );
  if (answer.errors) return [`read back: failed (${answer.errors[0]!.message})`];
  const name = answer.data.org_units.objects[0]?.current?.name as string | undefined;
  const values = (answer.data.addresses.objects as { current: { value: string } | null }[]).map(
    (address) => address.current?.value,
  );
  const wanted = `${plan.unit.name}${renamedSuffix}`;
  return [
    name === wanted
      ? `read back: the unit is named "${name}" from ${plan.today}`
      : `read back: the rename is not in the backend (the unit is named "${name}")`,
    values.includes(addressValue)
      ? `read back: the unit has the address ${addressValue}`
      : `read back: the unit has no address ${addressValue}`,
  ];
}

/** Each page's queries (not the forms' mutations) replayed once with the upstream trace. */
async function pageCosts(stack: TrialStack, token: string, walk: WalkResult): Promise<PageCost[]> {
  const pages = new Map<string, Map<string, { query: string; variables: unknown }>>();
  for (const request of walk.requests) {
    if (/^\s*mutation\b/.test(request.query)) continue;
    const page = request.step.replace(/, tab .*$/, '').replace(/, submitted$/, '');
    const operations = pages.get(page) ?? new Map();
    operations.set(`${request.operationName} ${JSON.stringify(request.variables)}`, request);
    pages.set(page, operations);
  }
  const costs: PageCost[] = [];
  for (const [page, operations] of pages) {
    const cost: PageCost = { page, calls: 0, rounds: 0, operations: [] };
    for (const [key, { query, variables }] of operations) {
      const upstream = (await graphql(stack, token, 'v29', query, variables, true)).extensions?.upstream;
      const calls = upstream?.requests ?? 0;
      const rounds = upstream?.rounds ?? 0;
      cost.calls += calls;
      cost.rounds = Math.max(cost.rounds, rounds);
      cost.operations.push({ name: key.split(' ')[0]!, calls, rounds });
    }
    costs.push(cost);
  }
  return costs;
}

/**
 * Today as OS2mo's UI counts it: its date store is the day in Europe/Copenhagen (`web/src/lib/stores/date.ts`),
 * so between midnight there and midnight UTC its forms write from tomorrow's UTC date.
 */
function uiToday(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Copenhagen' }).format(new Date());
}

async function main(): Promise<void> {
  const naldo = buildNaldo(resolve(source!), buildRoot, say);
  say(
    `os2mo-naldo ${naldo.version.slice(0, 12)}: ${naldo.reused ? 'reusing the build in' : 'built in'} ${naldo.web}`,
  );
  const stack = await startTrialStack(naldo.web);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await stack.close();
  };
  // Ctrl+C, or SIGTERM from whatever runs the trial: the stack stops with it (and, should the trial die
  // without a word, each of its processes stops by itself: scripts/stack-processes.ts).
  const onSignal = (code: number) => () => {
    interrupted = true;
    void stop().then(() => process.exit(code));
  };
  process.once('SIGINT', onSignal(130));
  process.once('SIGTERM', onSignal(143));
  // Said once the signals are handled: whatever waits for this line may stop the trial the moment it reads it
  // (on a loaded machine, before the statement after it here has run).
  say(
    `The UI and the gateway on ${stack.origin}; identity provider ${stack.idpUrl}; output in ${stack.logFile}`,
  );
  try {
    const token = await tokenFor(stack, 'alice');
    const sdl = await (await fetch(`${stack.gatewayUrl}/graphql/v29/schema.graphql`)).text();
    const { operations, unparsable } = uiOperations(join(naldo.web, 'src'));
    for (const problem of unparsable) say(`cannot parse: ${problem}`);
    const documents = countValidDocuments(operations, buildSchema(sdl));
    // The gateway's own sentence for each failing document (a validation error is never executed).
    const reasons = new Map<string, string>();
    for (const failing of documents.failing) {
      const operation = operations.find((each) => each.name === failing.name && each.file === failing.file)!;
      const { print } = await import('graphql');
      const answer = await graphql(stack, token, 'v29', print(operation.document));
      const explained = answer.errors?.find((error) => error.message.startsWith("OS2mo's GraphQL has"));
      if (explained) reasons.set(`${failing.file}#${failing.name}`, explained.message);
    }

    const plan = {
      ...(await pagesToVisit(stack, token)),
      origin: stack.origin,
      idpUrl: stack.idpUrl,
      today: uiToday(),
    };
    say(
      `Walking ${CHROMIUM}: unit ${plan.unit.name} (${plan.unit.uuid}), person ${plan.person.name} (${plan.person.uuid})`,
    );
    const browser = await launchChromium();
    const walks: WalkResult[] = [];
    try {
      walks.push(await walkUi(browser, 'alice', { ...plan, submitForms: { renamedSuffix, addressValue } }));
      walks.push(await walkUi(browser, 'nora', { ...plan, submitForms: null }));
    } finally {
      await browser.close();
    }
    walks[0]!.notes.push(...(await readBack(stack, token, plan)));
    const costs = await pageCosts(stack, token, walks[0]!);
    say('');
    say(formatReport(documents, walks, costs, reasons));
    if (keepRunning) {
      say(
        `\nStill serving the UI on ${stack.origin} (users alice, nora, oscar; password = username). Ctrl+C stops it.`,
      );
      return;
    }
  } catch (error) {
    await stop();
    throw error;
  }
  await stop();
}

main().catch((error: unknown) => {
  // Stopped by a signal: the walk fails as its stack goes away; the signal's handler exits once it is down.
  if (interrupted) return;
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
