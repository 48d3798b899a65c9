import { parseArgs } from 'node:util';
import { compareLegacyWithGraphQL, type ComparisonReport } from '../compare.js';
import { ComparisonError, statusReason } from '../comparison-error.js';
import { coverageReport, type CoverageReport } from '../coverage/coverage.js';
import { formatCoverage } from '../coverage/coverage-text.js';
import { gatewayTransport } from '../gateway-transport.js';
import { formatReport } from '../report-text.js';
import type { UsageReport } from '../retirement/usage-report.js';
import { formatUsage } from '../retirement/usage-text.js';
import {
  DEFAULT_GATEWAY_URL,
  DEFAULT_IDP_URL,
  gatewayUrlFromEnv,
  StackAddressError,
} from './stack-addresses.js';
import { tokenFromIdp } from './token-grant.js';
import {
  comparisonVersions,
  maxSubjectUuids,
  type ComparisonSubject,
  type ComparisonVersion,
} from '../subjects.js';

/** How long `--usage` waits for `GET /migration/usage`, which makes a coverage run before it answers. */
export const usageReportTimeoutMs = 300_000;

/** Exit codes: usable as a CI step's result. */
export const exitCodes = { equal: 0, different: 1, unusable: 2 } as const;

export interface CommandOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** How far a long run (`--coverage`) is, one sentence at a time; the CLI shows it on a terminal only. */
  progress?: (sentence: string) => void;
}

export interface CompareCommandDependencies {
  fetch?: (request: Request) => Response | Promise<Response>;
  /** Called between the legacy reads and the GraphQL query (tests change a legacy record here). */
  betweenReads?: () => void | Promise<void>;
}

const USAGE = `Usage:
  npm run compare -- --units UUID[,UUID…] [--version v30] [--gateway URL] [token options] [--json]
  npm run compare -- --employees UUID[,UUID…] [--version v30] [--gateway URL] [token options] [--json]
  npm run compare -- --coverage [--gateway URL] [token options] [--json]
  npm run compare -- --usage [--gateway URL] [token options] [--json]

Reads the same data through the gateway's /service passthrough (the legacy requests an integration makes)
and with one GraphQL query, then prints both side by side, the saving, and whether the data is equal.

  --units, --employees   what to compare: org units (managers, manager types, job functions) or employees
                         (engagements), then every detail listing of each (/service/{ou|e}/UUID/details/TYPE)
                         against the GraphQL field serving it; at most ${maxSubjectUuids} UUIDs
  --coverage             every /service endpoint of the legacy contract, the GraphQL query that replaces it,
                         and whether equality is proven on the current data (GraphQL v30 where it answers, else v2, on a sample of
                         units and people)
  --usage                the retirement report: who calls each /service endpoint, GraphQL version and
                         deprecated field, how often and when last, its replacement and a verdict
                         (GET /migration/usage; exit 0 only when /service can be switched off)
  --version              ${comparisonVersions.join(' or ')} (default ${comparisonVersions[comparisonVersions.length - 1]})
  --gateway              the gateway (default GATEWAY_URL, GATEWAY_PUBLIC_URL, http://localhost:GATEWAY_PORT
                         or ${DEFAULT_GATEWAY_URL}: what "npm start" reads)
  --json                 print the whole comparison as JSON instead of tables

Token options (first that applies):
  --token TOKEN          an access token (or GATEWAY_TOKEN)
  --user NAME            password grant at the identity provider [--password PASSWORD, default NAME]
  --client ID            client credentials grant [--secret SECRET, default the client's development
                         secret: IDP_DEV_TOOLS_CLIENT_SECRET for dev-tools, IDP_PAYROLL_CLIENT_SECRET for
                         payroll, else IDP_INTEGRATION_CLIENT_SECRET]
  (none)                 the development realm's tool client "dev-tools" (client credentials): the one
                         npm start names in USAGE_TOOL_CLIENTS, so its reads are not counted as anyone's
                         use of /service and still work once /service is switched off
  The identity provider is IDP_URL, IDP_PUBLIC_URL or http://localhost:IDP_PORT (default ${DEFAULT_IDP_URL}),
  realm --realm (default org).

Exit status: 0 the data is equal (--coverage: every covered read endpoint), 1 it differs, 2 the comparison
could not be made.
`;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

class UsageError extends Error {}

function readUuids(option: string, value: string): string[] {
  const uuids = value
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter((item) => item.length > 0);
  const bad = uuids.find((uuid) => !uuidPattern.test(uuid));
  if (bad !== undefined) throw new UsageError(`${option}: "${bad}" is not a UUID.`);
  if (uuids.length === 0) throw new UsageError(`${option} needs at least one UUID.`);
  if (new Set(uuids).size > maxSubjectUuids) {
    throw new UsageError(`${option}: at most ${maxSubjectUuids} UUIDs per comparison.`);
  }
  return uuids;
}

function readGatewayUrl(value: string): string {
  const trimmed = value.trim().replace(/\/+$/, '');
  if (!URL.canParse(trimmed) || !/^https?:\/\//.test(trimmed)) {
    throw new UsageError(`--gateway must be an http(s) URL such as ${DEFAULT_GATEWAY_URL}, got "${value}".`);
  }
  return trimmed;
}

/**
 * The development realm's client the CLI reads as when no token option is given, a client of the tools' own
 * (`idp/src/realm-representation.ts`): `npm start` names it in `USAGE_TOOL_CLIENTS`, so the gateway believes its
 * tool header (its reads are counted apart from every integration's, and pass a switch-off).
 */
export const developmentToolClient = 'dev-tools';

/** A token from the options' grant; with no options, the development tool client's, said out loud. */
function developmentToken(
  values: { user?: string; password?: string; client?: string; secret?: string; realm?: string },
  env: Record<string, string | undefined>,
  output: CommandOutput,
  fetchImpl: typeof fetch,
): Promise<string> {
  if (values.user === undefined && values.client === undefined) {
    output.stderr(
      `No token given: reading as the development tool client "${developmentToolClient}" (client credentials).\n`,
    );
    return tokenFromIdp({ ...values, client: developmentToolClient }, env, fetchImpl);
  }
  return tokenFromIdp(values, env, fetchImpl);
}

/**
 * What to do when the gateway refuses the CLI's reads with 410: `/service` is switched off for the client it read
 * as, which the gateway does not take for a tool.
 */
function retiredHint(client: string | undefined): string {
  const readAs = client === undefined ? 'a user or a given token' : `the client "${client}"`;
  return (
    ` The comparison tools read /service after a switch-off only as a tool client, and this run read as ${readAs}.` +
    ` Leave out --token, --user and --client to read as the development tool client "${developmentToolClient}"` +
    ` (client credentials, secret IDP_DEV_TOOLS_CLIENT_SECRET), and set USAGE_TOOL_CLIENTS=${developmentToolClient}` +
    ' on the gateway (npm start does; a gateway of your own: the client your tools read as, one of IDP_ALLOWED_CLIENTS).'
  );
}

/**
 * `npm run compare`: compares the legacy reads with the GraphQL query for the given units or employees and
 * returns the exit code (0 equal, 1 different, 2 not comparable, with a sentence saying why).
 */
export async function runCompareCommand(
  argv: string[],
  env: Record<string, string | undefined>,
  output: CommandOutput,
  dependencies: CompareCommandDependencies = {},
): Promise<number> {
  let subject: ComparisonSubject | null;
  let version: ComparisonVersion;
  let gatewayUrl: string;
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        units: { type: 'string' },
        employees: { type: 'string' },
        employee: { type: 'string' },
        version: { type: 'string' },
        gateway: { type: 'string' },
        token: { type: 'string' },
        user: { type: 'string' },
        password: { type: 'string' },
        client: { type: 'string' },
        secret: { type: 'string' },
        realm: { type: 'string' },
        json: { type: 'boolean' },
        coverage: { type: 'boolean' },
        usage: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
    if (values.help) {
      output.stdout(USAGE);
      return exitCodes.equal;
    }
    const employees = values.employees ?? values.employee;
    if (values.usage && (values.coverage || values.units !== undefined || employees !== undefined)) {
      throw new UsageError(
        "--usage reads the gateway's own report: leave out --coverage, --units and --employees.",
      );
    }
    if (values.coverage && (values.units !== undefined || employees !== undefined)) {
      throw new UsageError('--coverage samples units and people itself: leave out --units and --employees.');
    }
    if (!values.coverage && !values.usage && (values.units === undefined) === (employees === undefined)) {
      throw new UsageError('Give either --units or --employees, or --coverage, or --usage.');
    }
    subject =
      values.coverage || values.usage
        ? null
        : values.units !== undefined
          ? { kind: 'org_units', uuids: readUuids('--units', values.units) }
          : { kind: 'employees', uuids: readUuids('--employees', employees!) };
    const requested = values.version ?? comparisonVersions[comparisonVersions.length - 1]!;
    if (!(comparisonVersions as readonly string[]).includes(requested)) {
      throw new UsageError(`--version must be ${comparisonVersions.join(' or ')}, got "${requested}".`);
    }
    version = requested as ComparisonVersion;
    gatewayUrl = values.gateway === undefined ? gatewayUrlFromEnv(env) : readGatewayUrl(values.gateway);
  } catch (error) {
    if (error instanceof StackAddressError) {
      output.stderr(`${error.message}\n`);
      return exitCodes.unusable;
    }
    output.stderr(`${(error as Error).message}\n\n${USAGE}`);
    return exitCodes.unusable;
  }

  const send = dependencies.fetch ?? ((request: Request) => fetch(request));
  let report: ComparisonReport | undefined;
  let coverage: CoverageReport | undefined;
  let usage: UsageReport | undefined;
  // The client the run reads as, for the 410's hint: none for a user's or a given token.
  const givenToken = values.token !== undefined || Boolean(env['GATEWAY_TOKEN']);
  const readAs =
    givenToken || values.user !== undefined ? undefined : (values.client ?? developmentToolClient);
  try {
    const token =
      values.token ??
      (env['GATEWAY_TOKEN'] || undefined) ??
      (await developmentToken(values, env, output, async (input, init) => send(new Request(input, init))));
    const transport = gatewayTransport({
      baseUrl: gatewayUrl,
      authorization: `Bearer ${token}`,
      fetch: send,
      tool: 'compare-cli',
      // The retirement report proves every endpoint's replacement before it answers (a coverage run, about
      // 1,300 reads in the gateway): one request of seconds alone, past a minute on a loaded machine.
      ...(values.usage ? { timeoutMs: usageReportTimeoutMs } : {}),
    });
    if (values.usage) {
      const answer = await transport.getService('/migration/usage');
      const body = answer.body as { description?: unknown };
      if (answer.status !== 200) {
        throw new ComparisonError(
          statusReason(answer.status),
          `the gateway answered ${answer.status} to /migration/usage${typeof body?.description === 'string' ? `: ${body.description}` : ''}`,
        );
      }
      usage = answer.body as UsageReport;
    } else if (subject === null) {
      coverage = await coverageReport({
        transport,
        betweenReads: dependencies.betweenReads,
        onProgress: output.progress,
      });
    } else {
      report = await compareLegacyWithGraphQL({
        subject,
        version,
        transport,
        betweenReads: dependencies.betweenReads,
      });
    }
  } catch (error) {
    if (!(error instanceof ComparisonError)) throw error;
    const hint =
      error.reason === 'unreachable'
        ? ' Start the stack with "npm start" or pass --gateway.'
        : error.reason === 'unauthorized'
          ? ' Pass a valid --token, --user or --client.'
          : error.reason === 'retired'
            ? retiredHint(readAs)
            : '';
    output.stderr(`Cannot compare: ${error.message}${hint}\n`);
    return exitCodes.unusable;
  }

  if (usage !== undefined) {
    output.stdout(values.json ? `${JSON.stringify(usage, null, 2)}\n` : formatUsage(usage, gatewayUrl));
    return usage.verdict.kind === 'switch_off' ? exitCodes.equal : exitCodes.different;
  }
  if (coverage !== undefined) {
    output.stdout(
      values.json ? `${JSON.stringify(coverage, null, 2)}\n` : formatCoverage(coverage, gatewayUrl),
    );
    return coverage.totals.different === 0 ? exitCodes.equal : exitCodes.different;
  }
  const compared = report!;
  output.stdout(values.json ? `${JSON.stringify(compared, null, 2)}\n` : formatReport(compared, gatewayUrl));
  return compared.verdict.equal && (compared.details?.verdict.equal ?? true)
    ? exitCodes.equal
    : exitCodes.different;
}
