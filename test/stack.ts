import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { readGatewayConfig } from '../gateway/src/config.js';
import { startGateway, type RunningGateway } from '../gateway/src/server.js';
import { developmentRealm } from '../idp/src/dev-realm.js';
import { DEV_REALM_USERS_FILE } from '../idp/src/realm-env.js';
import { parseRealmUsers, type RealmUser } from '../idp/src/realm-users.js';
import { sharedFirstKey } from '../idp/src/test-support.js';
import { startIdp, type RunningIdp } from '../idp/src/server.js';
import { startLegacyService, type LegacyServer } from '../legacy-service/src/server.js';
import { seedDefaultFixture } from '../legacy-service/src/testing.js';
import { accessToken } from './idp-tokens.js';
import { startLoopbackProxy, type LoopbackProxy } from './loopback-proxy.js';

export interface TestStack {
  /** The gateway as a browser reaches it: `http://localhost:{port}`, the origin the realm allows. */
  gatewayUrl: string;
  idpUrl: string;
  legacyUrl: string;
  legacy: LegacyServer;
  idp: RunningIdp;
  gateway: RunningGateway;
  /** A direct call to the legacy service (which checks tokens, as OS2mo does) with the admin's token. */
  legacyFetch(path: string, init?: RequestInit): Promise<Response>;
  /** An access token for a development user (password = username) from the password grant. */
  token(username: string): Promise<string>;
  /** With `legacyProxy`: every request the gateway sent to the legacy service. */
  legacyProxy?: LoopbackProxy;
  /** With `jwksProxy`: the gateway's JWKS fetches, and a switch that makes the identity provider unreachable. */
  jwksProxy?: LoopbackProxy;
  close(): Promise<void>;
}

export interface TestStackOptions {
  rbacEnabled?: boolean;
  /** Extra gateway environment, e.g. `{ GRAPHQL_REMOVED_VERSIONS: 'v0' }`. */
  gatewayEnv?: Record<string, string>;
  clock?: () => Date;
  /**
   * Route the gateway's legacy calls through a counting proxy (`stack.legacyProxy`); `notFound` paths it answers
   * 404 itself, as a backend without them would (OS2mo before 2.4.0 has no `/api/v1`).
   */
  legacyProxy?: boolean | { notFound: RegExp };
  /**
   * A backend in front of the legacy service that the gateway calls instead (e.g. one that reads requests as
   * uvicorn does: `startUvicornLikeBackend`); closed with the stack.
   */
  legacyFront?: (legacyUrl: string) => Promise<{ url: string; close(): Promise<void> }>;
  /** Route the gateway's JWKS fetches through a counting proxy (`stack.jwksProxy`), down at start if asked. */
  jwksProxy?: boolean | { down: boolean };
  /** Where the identity provider keeps its signing keys (`keys.json`), for tests that forge tokens with them. */
  idpKeysDir?: string;
  /** Users added to alice, oscar and nora. Give each password = username, so `token(username)` works. */
  realmUsers?: RealmUser[];
  /** The folder the legacy service's data folder is made in (default: the system's temporary folder). */
  dataParent?: string;
}

/**
 * The whole stack on loopback ports the OS chooses: the legacy service over a fresh copy of the fixture,
 * the development identity provider (RBAC on unless told otherwise) and the gateway in front of both.
 */
export async function startTestStack(options: TestStackOptions = {}): Promise<TestStack> {
  const rbacEnabled = options.rbacEnabled ?? true;
  const dataDir = await mkdtemp(join(options.dataParent ?? tmpdir(), 'stack-legacy-'));
  // As the legacy service seeds an empty folder on its first start, from the process's one seeded snapshot.
  await seedDefaultFixture(dataDir);
  let legacy: LegacyServer | undefined;
  let idp: RunningIdp | undefined;
  let gateway: RunningGateway;
  let legacyProxy: LoopbackProxy | undefined;
  let legacyFront: { url: string; close(): Promise<void> } | undefined;
  let jwksProxy: LoopbackProxy | undefined;
  try {
    // The gateway listens first: the realm's redirect URIs need its port, its configuration the IdP's.
    gateway = await startGateway({
      clock: options.clock,
      config: async (port) => {
        const gatewayUrl = `http://localhost:${port}`;
        idp = await startIdp({
          realm: developmentRealm({
            rbacEnabled,
            gatewayPublicUrl: gatewayUrl,
            ...(options.realmUsers === undefined
              ? {}
              : {
                  users: [
                    ...parseRealmUsers(readFileSync(DEV_REALM_USERS_FILE, 'utf8'), DEV_REALM_USERS_FILE),
                    ...options.realmUsers,
                  ],
                }),
          }),
          ...(options.idpKeysDir === undefined ? {} : { keysDir: options.idpKeysDir }),
          // The process's one first key, not an RSA key made per stack (0.1–0.3 CPU-s each); rotations make new ones.
          generateKey: sharedFirstKey(),
        });
        // The legacy service checks tokens as OS2mo does; the gateway relays each caller's token to it.
        legacy = await startLegacyService({
          dataDir,
          // The stack's tests never crash the machine under the store, so a write need not wait for the disk
          // (a third of the RBAC matrix's time); durability.test.ts and crash.test.ts test the fsync'ed store.
          fsync: false,
          clock: options.clock,
          auth: {
            enabled: true,
            issuer: idp.issuer,
            jwksUrl: new URL(idp.jwksUri),
            clockToleranceSeconds: 5,
            // Tests rotate keys and sign with the new one at once (no activation delay): let the backend refetch.
            jwksCooldownMs: 0,
          },
        });
        if (options.legacyProxy) {
          legacyProxy = await startLoopbackProxy(
            legacy.url,
            typeof options.legacyProxy === 'object' ? options.legacyProxy : {},
          );
        }
        if (options.legacyFront) legacyFront = await options.legacyFront(legacy.url);
        if (options.jwksProxy) {
          jwksProxy = await startLoopbackProxy(`http://127.0.0.1:${idp.port}`, {
            down: typeof options.jwksProxy === 'object' && options.jwksProxy.down,
          });
        }
        return readGatewayConfig({
          GATEWAY_PORT: String(port),
          GATEWAY_PUBLIC_URL: gatewayUrl,
          LEGACY_URL: legacy.url,
          IDP_SCHEMA: 'http',
          IDP_HOST: 'localhost',
          IDP_PORT: String(idp.port),
          IDP_REALM: 'org',
          IDP_RBAC_ENABLED: String(rbacEnabled),
          // Access logs of in-process gateways would drown the test output.
          LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
          ...(legacyProxy ? { LEGACY_URL: legacyProxy.url } : {}),
          ...(legacyFront ? { LEGACY_URL: legacyFront.url } : {}),
          ...(jwksProxy ? { IDP_JWKS_URL: `${jwksProxy.url}${new URL(idp.jwksUri).pathname}` } : {}),
          ...options.gatewayEnv,
        });
      },
    });
  } catch (error) {
    await jwksProxy?.close();
    await legacyProxy?.close();
    await legacyFront?.close();
    await idp?.close();
    await legacy?.close();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const runningIdp = idp!;
  const runningLegacy = legacy!;

  const token = (username: string) => accessToken(runningIdp.issuer, username);

  return {
    gatewayUrl: `http://localhost:${gateway.port}`,
    idpUrl: runningIdp.url,
    legacyUrl: runningLegacy.url,
    legacy: runningLegacy,
    legacyFetch: async (path, init = {}) => {
      const headers = new Headers(init.headers);
      headers.set('authorization', `Bearer ${await token('alice')}`);
      return fetch(`${runningLegacy.url}${path}`, { ...init, headers });
    },
    idp: runningIdp,
    gateway,
    token,
    ...(legacyProxy ? { legacyProxy } : {}),
    ...(jwksProxy ? { jwksProxy } : {}),
    close: async () => {
      await gateway.close();
      await jwksProxy?.close();
      await legacyProxy?.close();
      await legacyFront?.close();
      await runningIdp.close();
      await runningLegacy.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The shared stack of this process, started by the first file that asks for it. */
let shared: Promise<TestStack> | undefined;

/**
 * One stack with the default options for every file of this process that only reads: never written to, so
 * what one file sees does not depend on which ran before it. Its `close()` does nothing: it stops with the
 * process (the stack project runs its files in one process per worker), and its data folder is removed
 * with the project's (`shared-stacks-setup.ts`).
 */
export function sharedReadOnlyStack(): Promise<TestStack> {
  shared ??= startTestStack({ dataParent: inject('sharedStacksDir') }).then((stack) => ({
    ...stack,
    close: async () => {},
  }));
  return shared;
}

/** One legacy call as the gateway's upstream trace (`X-Upstream-Trace: 1`) lists it. */
export interface UpstreamCall {
  method: string;
  path: string;
  status: number;
  round: number;
  started_ms: number;
  duration_ms: number;
}

/** The upstream trace of one GraphQL request: every legacy call, and how many dependent rounds they took. */
export interface UpstreamTrace {
  requests: number;
  rounds: number;
  calls: UpstreamCall[];
}

/**
 * POSTs a GraphQL request to the stack's `/graphql/{version}` with `authorization`, and the upstream trace
 * when asked; answers the status, the body as sent (for tests that check what it leaks) and as JSON.
 */
export async function postGraphQL(
  stack: Pick<TestStack, 'gatewayUrl'>,
  version: string,
  request: { query: string; variables?: Record<string, unknown> },
  options: { authorization: string; trace?: boolean },
) {
  const response = await fetch(`${stack.gatewayUrl}/graphql/${version}`, {
    method: 'POST',
    headers: {
      authorization: options.authorization,
      'content-type': 'application/json',
      ...(options.trace ? { 'x-upstream-trace': '1' } : {}),
    },
    body: JSON.stringify(request),
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test reads the shape it asked for
    body: JSON.parse(text) as any,
  };
}

/** An operation's `data` on v30 with a bearer token; an answer with `errors` fails the test with them. */
export async function graphqlData<T>(
  gatewayUrl: string,
  token: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const { body } = await postGraphQL(
    { gatewayUrl },
    'v30',
    { query, variables },
    { authorization: `Bearer ${token}` },
  );
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data as T;
}

/** A GraphQL answer's body as a test reads it: `data` holds the shape the query asked for, when there is one. */
export interface GraphQLAnswer {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test reads the shape it asked for
  data?: Record<string, any> | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: { code?: string } }[];
}

/** An answer to a request that asked for the upstream trace (`X-Upstream-Trace: 1`). */
export interface TracedGraphQLAnswer extends GraphQLAnswer {
  extensions: { upstream: UpstreamTrace };
}

/** A development user signed in to a stack: their token, and GraphQL requests made with it. */
export interface GraphQLSession<Answer extends GraphQLAnswer = GraphQLAnswer> {
  /** The user's access token, for requests `ask` does not make. */
  token: string;
  /** POSTs `query` to the stack's `/graphql/{version}` as the user and answers the body. */
  ask(version: string, query: string, variables?: Record<string, unknown>): Promise<Answer>;
}

/** A session whose every request asks for the upstream trace: `signIn(stack, user, { trace: true })`. */
export type TracedGraphQLSession = GraphQLSession<TracedGraphQLAnswer>;

/**
 * Signs a development user in to the stack (the password grant, password = username); with `trace`, every
 * request of the session asks for the upstream trace and its answer carries it.
 */
export async function signIn(stack: TestStack, username: string): Promise<GraphQLSession>;
export async function signIn(
  stack: TestStack,
  username: string,
  options: { trace: true },
): Promise<TracedGraphQLSession>;
export async function signIn(
  stack: TestStack,
  username: string,
  options: { trace?: boolean } = {},
): Promise<GraphQLSession<GraphQLAnswer | TracedGraphQLAnswer>> {
  const token = await stack.token(username);
  return {
    token,
    ask: async (version, query, variables = {}) => {
      const { body } = await postGraphQL(
        stack,
        version,
        { query, variables },
        { authorization: `Bearer ${token}`, trace: options.trace },
      );
      return body;
    },
  };
}
