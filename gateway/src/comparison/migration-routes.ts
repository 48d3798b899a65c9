import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { bearerAuth, type GatewayVariables } from '../auth/bearer-auth.js';
import type { TokenVerifier } from '../auth/token-verifier.js';
import { GatewayError } from '../errors/gateway-error.js';
import { legacyErrorHandler, type UnexpectedErrorLog } from '../errors/legacy-error-body.js';
import { payloadTooLarge } from '../errors/payload-too-large.js';
import { ComparisonError } from './comparison-error.js';
import { dataVersionHeader } from './data-version.js';
import { gatewayTransport } from './gateway-transport.js';
import type { CoverageReport } from './coverage/coverage.js';
import type { ShadowComparison } from './shadow/shadow.js';
import type { UsageConfig } from '../usage/usage-config.js';
import type { UsageRecorder } from '../usage/usage-recorder.js';
import type { GraphQLSchema } from 'graphql';
import {
  comparisonVersions,
  maxSubjectUuids,
  type ComparisonSubject,
  type ComparisonVersion,
} from './subjects.js';
import { workbenchRuns, type WorkbenchRunKey } from './workbench-runs.js';

export interface MigrationRouteOptions {
  verifier: TokenVerifier;
  realm: string;
  /** The gateway's public address; the workbench's reads are addressed to it. */
  publicUrl: string;
  /** The gateway app itself: the workbench's reads go through `/service` and `/graphql/vN` in-process. */
  gatewayFetch: (request: Request) => Response | Promise<Response>;
  /** The versions this gateway serves; the workbench compares those it knows the shape of. */
  versions: string[];
  shadow: ShadowComparison;
  /** Who calls what, for the retirement report; the workbench's own reads are marked so they are left out. */
  usage: {
    recorder: UsageRecorder;
    config: UsageConfig;
    schemas: { version: string; schema: GraphQLSchema }[];
    clock?: () => Date;
  };
  /** Told about failures that are not a `GatewayError`; the client sees only `E_UNKNOWN`. */
  logUnexpected: UnexpectedErrorLog;
  /** With RBAC on (`IDP_RBAC_ENABLED`), the workbench's JSON routes are for the role `admin` only. */
  rbacEnabled: boolean;
  /** Today, for the runs' cache key (reads without `at` are today's); tests pin it. */
  clock?: () => Date;
}

/** The role that may use the workbench's routes while RBAC is on: they read everything, at any cost. */
export const workbenchRole = 'admin';

/** The header saying whether a run's answer was kept (`hit`), shared with the run under way, or run now. */
export const workbenchCacheHeader = 'X-Migration-Cache';

const comparisonBodyLimit = 64 * 1024;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const invalid = (description: string) =>
  new GatewayError(400, 'BAD_USER_INPUT', description, { errorKey: 'E_INVALID_INPUT' });

/** A list of UUIDs from JSON: an array, or one string with commas, spaces or newlines between them. */
function uuidList(value: unknown): string[] | undefined {
  const items =
    typeof value === 'string' ? value.split(/[\s,]+/) : Array.isArray(value) ? value.map(String) : undefined;
  return items?.map((item) => item.trim().toLowerCase()).filter((item) => item.length > 0);
}

/**
 * The JSON side of the migration workbench, behind the bearer token:
 * `POST /migration/compare` (`{units | employees, version}`) runs the comparison of the legacy reads with the
 * GraphQL query for the caller, with the caller's token; `GET /migration/shadow` shows the shadow
 * comparison's counters and its last mismatches; `GET /migration/coverage` is the coverage report of every
 * `/service` endpoint of the contract; `GET /migration/usage` the retirement report (who calls what, verdicts). The page itself is `GET /migration` (browser routes).
 *
 * @example
 * app.route('/', migrationRoutes({ verifier, realm, publicUrl, gatewayFetch: app.fetch, versions, shadow }));
 */
export function migrationRoutes(options: MigrationRouteOptions): Hono<{ Variables: GatewayVariables }> {
  const app = new Hono<{ Variables: GatewayVariables }>();
  const versions = comparisonVersions.filter((version) => options.versions.includes(version));
  const newest = versions[versions.length - 1];
  const bearer = bearerAuth({ verifier: options.verifier, realm: options.realm });
  const authenticate: MiddlewareHandler<{ Variables: GatewayVariables }> = async (c, next) =>
    bearer(c, async () => {
      if (options.rbacEnabled && !c.get('principal').roles.includes(workbenchRole)) {
        throw new GatewayError(
          403,
          'FORBIDDEN',
          `The migration workbench's reports are for the role "${workbenchRole}": they read the whole organisation.`,
        );
      }
      await next();
    });
  const runs = workbenchRuns({ clock: options.clock });
  const clock = options.clock ?? (() => new Date());

  app.get('/migration/shadow', authenticate, (c) => c.json(options.shadow.snapshot()));

  /** The workbench's transport: the caller's token, in-process, never sampled by the shadow comparison. */
  const transportFor = (authorization: string) =>
    gatewayTransport({
      baseUrl: options.publicUrl,
      authorization,
      fetch: (request) => {
        options.shadow.exclude(request);
        options.usage.recorder.markInternal(request);
        return options.gatewayFetch(request);
      },
    });

  /**
   * Runs `work` once per key and data version (`workbenchRuns`). The data version is what the backend names
   * in `X-Data-Version` on one cheap read (the stand-in does; OS2mo does not, and then answers are kept for
   * a minute); `?refresh=true` runs again regardless.
   */
  const cachedResult = async (
    c: Context<{ Variables: GatewayVariables }>,
    key: Pick<WorkbenchRunKey, 'route' | 'arguments'>,
    work: (transport: ReturnType<typeof transportFor>) => Promise<unknown>,
  ) => {
    const authorization = c.req.header('authorization')!;
    const probe = new Request(`${options.publicUrl.replace(/\/+$/, '')}/service/o/`, {
      headers: { accept: 'application/json', authorization },
    });
    options.shadow.exclude(probe);
    options.usage.recorder.markInternal(probe);
    const dataVersion = (await options.gatewayFetch(probe)).headers.get(dataVersionHeader);
    try {
      return await runs.run(
        { ...key, day: clock().toISOString().slice(0, 10), roles: c.get('principal').roles },
        dataVersion,
        () => work(transportFor(authorization)),
        c.req.query('refresh') === 'true',
      );
    } catch (error) {
      if (!(error instanceof ComparisonError)) throw error;
      throw new GatewayError(502, 'COMPARISON_FAILED', error.message);
    }
  };
  const cachedRun = async (...args: Parameters<typeof cachedResult>) => {
    const { result, cache } = await cachedResult(...args);
    args[0].header(workbenchCacheHeader, cache);
    return args[0].json(result as object);
  };
  // The coverage report, kept per data version like every run: the retirement report joins it too.
  const coverageRun = (c: Context<{ Variables: GatewayVariables }>) =>
    cachedResult(c, { route: 'coverage', arguments: {} }, async (transport) => {
      const { coverageReport } = await import('./coverage/coverage.js');
      return coverageReport({ transport });
    });

  // Every /service endpoint of the contract, its GraphQL replacement and whether equality is proven.
  // Loaded on first use: the report (with the YAML parser and the contract it reads) is a workbench tool,
  // and most gateways never run it, so it stays out of the process until someone does.
  app.get('/migration/coverage', authenticate, async (c) => {
    const { result, cache } = await coverageRun(c);
    c.header(workbenchCacheHeader, cache);
    return c.json(result as object);
  });

  // Who still calls each /service endpoint and version, joined with the coverage report into verdicts.
  app.get('/migration/usage', authenticate, async (c) => {
    try {
      const { retirementReport } = await import('./retirement/retirement-report.js');
      const { recorder, config, schemas, clock } = options.usage;
      return c.json(
        await retirementReport({
          config,
          recorder,
          versions: schemas,
          coverage: async () => (await coverageRun(c)).result as CoverageReport,
          now: clock?.() ?? new Date(),
        }),
      );
    } catch (error) {
      if (!(error instanceof ComparisonError)) throw error;
      throw new GatewayError(502, 'USAGE_UNAVAILABLE', error.message);
    }
  });

  app.post(
    '/migration/compare',
    bodyLimit({
      maxSize: comparisonBodyLimit,
      onError: () => {
        throw payloadTooLarge('A comparison request is at most 64 KiB.', comparisonBodyLimit);
      },
    }),
    authenticate,
    async (c) => {
      let body: Record<string, unknown>;
      try {
        body = (await c.req.json()) as Record<string, unknown>;
        if (typeof body !== 'object' || body === null) throw new Error('not an object');
      } catch {
        throw invalid('Send a JSON object such as {"units": ["<uuid>"], "version": "v2"}.');
      }
      const units = uuidList(body['units']);
      const employees = uuidList(body['employees'] ?? body['employee']);
      if (
        (units === undefined || units.length === 0) === (employees === undefined || employees.length === 0)
      ) {
        throw invalid('Give either "units" or "employees": a list of UUIDs.');
      }
      const uuids = (units?.length ? units : employees)!;
      const bad = uuids.find((uuid) => !uuidPattern.test(uuid));
      if (bad !== undefined) throw invalid(`"${bad}" is not a UUID.`);
      if (new Set(uuids).size > maxSubjectUuids) {
        throw invalid(`At most ${maxSubjectUuids} UUIDs per comparison.`);
      }
      const version = body['version'] ?? newest;
      if (typeof version !== 'string' || !(versions as readonly string[]).includes(version)) {
        throw invalid(`"version" must be one of ${versions.join(', ')}.`);
      }
      const subject: ComparisonSubject = units?.length
        ? { kind: 'org_units', uuids }
        : { kind: 'employees', uuids };

      return cachedRun(
        c,
        { route: 'compare', arguments: { kind: subject.kind, uuids, version } },
        async (transport) => {
          // Loaded on first use, as the coverage report: comparing is a workbench tool.
          const { compareLegacyWithGraphQL } = await import('./compare.js');
          return compareLegacyWithGraphQL({ subject, version: version as ComparisonVersion, transport });
        },
      );
    },
  );

  app.onError(legacyErrorHandler(options.logUnexpected));
  return app;
}
