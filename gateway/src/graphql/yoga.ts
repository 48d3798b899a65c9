import { NoSchemaIntrospectionCustomRule } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import type { LegacyClient } from '../legacy/legacy-client.js';
import { useLegacyLoaders, type LegacyLoadersPluginOptions } from '../legacy/use-legacy-loaders.js';
import { loggerFor, useOperationObservation, type Observability } from '../observability/index.js';
import { useRbac } from '../rbac/graphql-rbac.js';
import type { RbacPolicy } from '../rbac/rbac-policy.js';
import type { DeprecationNotice } from '../deprecation/deprecation-notice.js';
import { useCompiledExecution } from './compiled-execution.js';
import { useDeprecationNotices } from './deprecation-notices.js';
import { cprRequestIds, everyoneReadsCpr, mayReadCpr, type CprReadPolicy } from '../cpr/cpr-policy.js';
import type { GraphQLContext, GraphQLEvents } from './context.js';
import { defaultMaxCprNumbers, emptyTally } from '../cpr/cpr-search.js';
import { useCprSearches } from './cpr-searches.js';
import type { ServerContext } from './server-context.js';

export type { ServerContext };
import { useLegacyErrors } from './errors.js';
import type { DocumentBudget } from './document-budget.js';
import { useGraphqlOverHttp } from './over-http.js';
import { coveredByExchange, ParamsExchange } from './params-exchange.js';
import { useHardening, type HardeningOptions } from './hardening/index.js';
import { declaredOmissionsOf } from './os2mo/ledger/index.js';
import { useOmissionErrors } from './os2mo/omission-errors.js';
import { useRequestChecks } from './request-checks.js';
import { upstreamTraceRequested, useUpstreamTrace } from './upstream-trace.js';
import type { GraphQLVersion } from './versions.js';

export interface VersionServerOptions {
  legacy: LegacyClient;
  /** The record of the backend (`DATABASE_URL`): told of each write, asked whose an object is. */
  record?: LegacyLoadersPluginOptions['record'];
  /** Most legacy calls one request may make (`GRAPHQL_MAX_LEGACY_CALLS`). */
  legacyCallBudget: number;
  upstreamTrace: boolean;
  introspection: boolean;
  /** Query limits and field suggestions, from the configuration. */
  hardening: HardeningOptions;
  /** Decides every mutation's legacy write (the same policy as `/service`). */
  rbac: RbacPolicy;
  clock?: () => Date;
  /** Operation metrics and the access log's operation fields. */
  observability?: Observability;
  /** Set when this version is deprecated: results then say so in `extensions.deprecations`. */
  deprecation?: DeprecationNotice;
  /** The parsed-document cache all versions share (`createDocumentBudget`); Yoga's own per version without. */
  documents?: DocumentBudget;
  /** Who is served CPR numbers (`CPR_READ_ROLES`); everyone, as OS2mo, when not given. */
  cprReads?: CprReadPolicy;
  /** OS2mo's event system (`DATABASE_URL`): without, its fields answer `DATABASE_NOT_CONFIGURED`. */
  events?: GraphQLEvents;
  /**
   * Whether a plain JSON POST skips Yoga's HTTP layer (`ParamsExchange`); default true. Only tests set it
   * false, to answer the same requests on Yoga's own road and compare.
   */
  paramsExchange?: boolean;
}

/** Refuses `__schema`/`__type` queries when introspection is switched off (production). */
function useNoIntrospection(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(NoSchemaIntrospectionCustomRule);
    },
  };
}

/** Each version server's way to answer parameters the route has already read, without Yoga's HTTP layer. */
const paramsExchanges = new WeakMap<object, ParamsExchange>();

/**
 * One Yoga server per version at `/graphql/{name}`: JSON POST (and GET for queries), no GraphiQL of its
 * own (the gateway serves one with login), no batching, errors masked unless they are our GraphQLErrors.
 */
export function createVersionServer(version: GraphQLVersion, options: VersionServerOptions) {
  const deprecationNotices = useDeprecationNotices({
    schema: version.schema,
    ...(options.deprecation ? { version: { ...options.deprecation, versionName: version.name } } : {}),
  });
  const paramsExchange = new ParamsExchange();
  const omissions = declaredOmissionsOf(version.name);
  const requestChecks = useRequestChecks();
  const plugins = [
    paramsExchange.plugin,
    // First among the result hooks, so its errors keep their locations through every later rebuild; it has
    // no parse or validation hooks, so the hardening below still sees a document before anything else.
    useCompiledExecution(version.schema),
    // Before the error mapping and the observer: a request that could not run is the client's mistake.
    useGraphqlOverHttp(),
    // Before the cost check, so too many CPR numbers is refused as that, not as a costly query.
    useCprSearches({
      maxNumbers: options.cprReads?.maxNumbersPerRequest ?? defaultMaxCprNumbers,
      version: version.name,
    }),
    // First to parse and validate, so an abusive document is refused before any other plugin sees it.
    useHardening(options.hardening),
    // A name OS2mo has and this version leaves out is answered with the reason, not as a typo.
    ...(omissions ? [useOmissionErrors(omissions)] : []),
    // Before every plugin that reads the request's parameters (the observer below does).
    requestChecks,
    // Results pass through plugins in this order: legacy failures get their codes before the loaders
    // fold budget errors into one and before the observer, which then logs only what is unexpected.
    useLegacyErrors(),
    // Before RBAC, which guards the loaders' writes.
    useLegacyLoaders({
      legacy: options.legacy,
      budget: options.legacyCallBudget,
      recordCalls: (request) => upstreamTraceRequested(options.upstreamTrace, request),
      record: options.record,
    }),
    useUpstreamTrace({ enabled: options.upstreamTrace }),
    useRbac({ policy: options.rbac }),
    ...(options.introspection ? [] : [useNoIntrospection()]),
    ...(deprecationNotices ? [deprecationNotices] : []),
    ...(options.observability
      ? [useOperationObservation({ version: version.name, observability: options.observability })]
      : []),
  ];
  // Every plugin of ours, and every plugin one adds at start, runs the same on the exchange's road as on Yoga's,
  // or the server does not start. The request checks' parse hook refuses only bodies `plainJsonParams` already
  // leaves to Yoga's road.
  const served = coveredByExchange(plugins, [requestChecks]);
  const server = createYoga<ServerContext, GraphQLContext>({
    schema: version.schema,
    graphqlEndpoint: `/graphql/${version.name}`,
    graphiql: false,
    landingPage: false,
    batching: false,
    ...(options.documents ? { parserAndValidationCache: options.documents.forVersion(version.name) } : {}),
    // CORS is the Hono app's (CORS_ORIGINS); Yoga's default would reflect any Origin on GraphQL answers.
    cors: false,
    maskedErrors: true,
    logging: false,
    // The route reads every body whole within GATEWAY_MAX_BODY_BYTES before Yoga sees it (413 past it), so
    // Yoga's own limit only piped each body through a stream and an AbortController a second time.
    maxRequestBodySize: false,
    // `legacy` and `calls` are added by `useLegacyLoaders`.
    context: ({ principal, request, requestId }) =>
      ({
        principal,
        today: (options.clock?.() ?? new Date()).toISOString().slice(0, 10),
        log: options.observability ? loggerFor(options.observability, request) : undefined,
        cpr: {
          mayRead: mayReadCpr(options.cprReads ?? everyoneReadsCpr, principal),
          ids: cprRequestIds(requestId, request.headers.get('x-request-id')),
          search: emptyTally(),
        },
        events: options.events,
      }) as GraphQLContext,
    plugins: served,
  });
  if (options.paramsExchange !== false) paramsExchanges.set(server, paramsExchange);
  return server;
}

export type VersionServer = ReturnType<typeof createVersionServer>;

/** How `exchangeWithYoga` answers a request whose parameters the route has read (`ParamsExchange`). */
export function paramsExchangeOf(server: VersionServer): ParamsExchange | undefined {
  return paramsExchanges.get(server);
}
