import type { CprReadPolicy } from '../cpr/cpr-policy.js';
import type { ServerResponse } from 'node:http';
import { readGatewayConfig } from '../config.js';
import { json, type StubBackend, type StubRequest } from '../legacy/stub-backend.test-helpers.js';
import { createRbacPolicy } from '../rbac/rbac-policy.js';
import { createLegacyClient, type LegacyClient } from '../legacy/legacy-client.js';
import { buildVersions, type GraphQLVersion } from './versions.js';
import type { Observability } from '../observability/index.js';
import { createVersionServer, type VersionServer } from './yoga.js';

/**
 * A small organisation for the tests beside graphql/: two units under one organisation, a manager of the
 * first (with the person and manager type a legacy manager record embeds) and that person's engagement.
 */
export const stubOrg = {
  organisation: '0a000000-0000-4000-8000-000000000000',
  unit: '0a000000-0000-4000-8000-000000000001',
  otherUnit: '0a000000-0000-4000-8000-000000000002',
  person: '0a000000-0000-4000-8000-000000000003',
  managerType: '0a000000-0000-4000-8000-000000000004',
  jobFunction: '0a000000-0000-4000-8000-000000000005',
} as const;

const validity = { from: '2020-01-01', to: null };
const units = [
  { uuid: stubOrg.unit, name: 'Finance', user_key: 'finance', validity },
  { uuid: stubOrg.otherUnit, name: 'Payroll', user_key: 'payroll', validity },
];
const person = { uuid: stubOrg.person, name: 'Anne Hansen', givenname: 'Anne', surname: 'Hansen' };
const managerType = { uuid: stubOrg.managerType, user_key: 'head', name: 'Head' };
const jobFunction = { uuid: stubOrg.jobFunction, user_key: 'accountant', name: 'Accountant' };

/** Answers the legacy reads of the stub organisation, and 404 in the legacy error body otherwise. */
export function answerStubOrg(request: StubRequest, response: ServerResponse): void {
  const url = new URL(request.url, 'http://stub');
  const path = url.pathname;
  if (path === '/service/o/') return json(response, 200, [{ uuid: stubOrg.organisation, name: 'Org' }]);
  if (path === `/service/o/${stubOrg.organisation}/ou/`) {
    const start = Number(url.searchParams.get('start') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? 0) || units.length;
    return json(response, 200, {
      items: units.slice(start, start + limit),
      offset: start,
      total: units.length,
    });
  }
  const unit = units.find((candidate) => path === `/service/ou/${candidate.uuid}/`);
  if (unit) return json(response, 200, { ...unit, parent: null });
  if (path === `/service/ou/${stubOrg.unit}/details/manager`) {
    return json(response, 200, [
      {
        uuid: '0a000000-0000-4000-8000-000000000010',
        person,
        manager_type: managerType,
        org_unit: units[0],
        responsibility: [],
        validity,
      },
    ]);
  }
  if (path === `/service/ou/${stubOrg.otherUnit}/details/manager`) return json(response, 200, []);
  if (path === `/service/e/${stubOrg.person}/details/engagement`) {
    return json(response, 200, [
      {
        uuid: '0a000000-0000-4000-8000-000000000011',
        person,
        org_unit: units[0],
        job_function: jobFunction,
        engagement_type: null,
        validity,
      },
    ]);
  }
  return json(response, 404, {
    error: true,
    status: 404,
    error_key: 'E_NOT_FOUND',
    description: `No ${path}.`,
  });
}

/** A GraphQL answer as the tests read it: its data is whatever the query selected. */
export interface GraphQLAnswer {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the shape is what each test asserts
  data?: any;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[];
  extensions?: Record<string, unknown>;
}

export interface StubbedVersions {
  legacy: LegacyClient;
  /** Each version with its server, oldest first, as `versionRoutes` takes them. */
  versions: { version: GraphQLVersion; server: VersionServer }[];
  servers: Map<string, VersionServer>;
  /** POSTs one GraphQL request to a version, as a signed-in admin; the JSON answer and its status. */
  ask(
    version: string,
    query: string,
    options?: { variables?: Record<string, unknown>; headers?: Record<string, string> },
  ): Promise<{ status: number; body: GraphQLAnswer }>;
  close(): Promise<void>;
}

/** Every version's Yoga server in front of `backend`, configured as the gateway configures them. */
export function stubbedVersions(
  backend: Pick<StubBackend, 'url'>,
  options: {
    responseTimeoutMs?: number;
    upstreamTrace?: boolean;
    legacyCallBudget?: number;
    /** The logger and metrics the servers report to, for tests that read what is logged. */
    observability?: Observability;
    /** Who is served CPR numbers; the asking admin has the roles `admin` only. */
    cprReads?: CprReadPolicy;
  } = {},
): StubbedVersions {
  const legacy = createLegacyClient({
    url: new URL(backend.url),
    connectTimeoutMs: 1000,
    responseTimeoutMs: options.responseTimeoutMs ?? 2000,
    auth: { mode: 'none' },
  });
  // The gateway's own defaults, so the tests run the versions as production does.
  const defaults = readGatewayConfig({});
  const versions = buildVersions().map((version) => ({
    version,
    server: createVersionServer(version, {
      legacy,
      legacyCallBudget: options.legacyCallBudget ?? defaults.graphqlLimits.maxLegacyCalls,
      upstreamTrace: options.upstreamTrace ?? true,
      introspection: true,
      hardening: { limits: defaults.graphqlLimits, fieldSuggestions: false },
      rbac: createRbacPolicy({ enabled: false }),
      clock: () => new Date('2024-06-01T12:00:00Z'),
      observability: options.observability,
      cprReads: options.cprReads,
    }),
  }));
  const servers = new Map(versions.map(({ version, server }) => [version.name, server]));
  return {
    legacy,
    versions,
    servers,
    async ask(version, query, { variables, headers = {} } = {}) {
      const server = servers.get(version)!;
      const response = await server.fetch(
        new Request(`http://gateway.test/graphql/${version}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
          body: JSON.stringify({ query, variables }),
        }),
        {
          principal: {
            subject: 'admin',
            username: 'admin',
            clientId: 'test',
            roles: ['admin'],
            employeeUuid: undefined,
          },
        },
      );
      return { status: response.status, body: (await response.json()) as GraphQLAnswer };
    },
    close: () => legacy.close(),
  };
}
