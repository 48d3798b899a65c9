import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { TraceContext } from '../observability/tracing.js';
import type { LegacyCall, LegacyClient } from './legacy-client.js';
import {
  createLegacyLoaders,
  createOrganisationCache,
  type LegacyLoaderOptions,
  type LegacyLoaders,
} from './legacy-loaders.js';

export interface LegacyLoadersPluginOptions {
  legacy: LegacyClient;
  /** Most legacy calls one GraphQL request may make (`GRAPHQL_MAX_LEGACY_CALLS`). */
  budget: number;
  /** How long the organisation's UUID is shared between requests. */
  organisationTtlMs?: number;
  /**
   * Whether a request's legacy calls are kept in `calls`, which only the upstream trace reads; every
   * request's are when not given. Keeping none spares a record per call.
   */
  recordCalls?: (request: Request) => boolean;
  /** The record of the backend (`DATABASE_URL`): told of each write, asked whose an object is. */
  record?: Pick<LegacyLoaderOptions, 'onWrite' | 'whereabouts'>;
}

/** What one GraphQL request knows of its legacy access. */
export interface LegacyRequestState {
  loaders: LegacyLoaders;
  /** Every legacy call made so far, for the upstream trace. */
  calls: LegacyCall[];
  /** Aborts the request's calls still in flight or queued once it has its answer (`answered`). */
  answered: AbortController;
}

/** Why a request's calls still waiting were stopped: its answer was made without them. */
function answeredReason(): DOMException {
  return new DOMException(
    'The GraphQL request has its answer; its remaining legacy calls are not needed.',
    'AbortError',
  );
}

/**
 * The request's own signal, and its answer: the calls stop when the client goes away or when the answer is made
 * without them. A request that fails (its legacy-call budget spent, a field's error) answers at once, while
 * calls it started may still wait for one of the pool's connections; a hundred such requests in a row left
 * 26,000 calls queued, 3.5 GB of them (issue 35).
 */
function untilAnswered(request: AbortSignal, answered: AbortController): AbortSignal {
  if (request.aborted) answered.abort(request.reason);
  else
    request.addEventListener('abort', () => answered.abort(request.reason), {
      once: true,
      signal: answered.signal,
    });
  return answered.signal;
}

/** What the plugin reads of the context: the request, and its id and trace when the route hands them over. */
interface RequestScope {
  request: Request;
  requestId?: string;
  traceContext?: TraceContext;
}

/** What the plugin adds to the GraphQL context. */
export interface LegacyContext {
  legacy: LegacyLoaders;
  calls: LegacyCall[];
}

/**
 * The legacy loaders of each GraphQL request, the way envelop's `useDataLoader` provides loaders: made
 * when the request's context is built, kept in a WeakMap keyed by that context (so nothing outlives the
 * request), and added to the context as `legacy` (and `calls`, for the upstream trace). They carry the
 * request's abort signal, its caller's `Authorization` (sent on when `LEGACY_CREDENTIALS=relay`), its
 * request id and trace (sent on as `X-Request-Id` and `traceparent`) and its budget.
 *
 * @example
 * createYoga({ schema, plugins: [useLegacyLoaders({ legacy, budget: 1000 }), useRbac(…)] });
 */
export function useLegacyLoaders(options: LegacyLoadersPluginOptions) {
  const organisation = createOrganisationCache(options.organisationTtlMs ?? 60_000);
  const states = new WeakMap<object, LegacyRequestState>();
  const plugin: Plugin<LegacyContext & RequestScope> = {
    onContextBuilding({ context, extendContext }) {
      const calls: LegacyCall[] = [];
      const answered = new AbortController();
      const loaders = createLegacyLoaders(options.legacy, {
        signal: untilAnswered(context.request.signal, answered),
        authorization: context.request.headers.get('authorization') ?? undefined,
        requestId: context.requestId,
        trace: context.traceContext,
        budget: options.budget,
        onCall: options.recordCalls?.(context.request) === false ? undefined : (call) => calls.push(call),
        organisation,
        ...options.record,
      });
      extendContext({ legacy: loaders, calls });
      states.set(context, { loaders, calls, answered });
    },
    onExecute({ args }) {
      const state = states.get(args.contextValue);
      return {
        onExecuteDone({ result, setResult }) {
          // Every field has its value: a call still in flight or queued serves no one.
          state?.answered.abort(answeredReason());
          // A request over its budget fails every field that still wanted a legacy call: say so once.
          if (!state?.loaders.overBudget() || isAsyncIterable(result) || !result.errors) return;
          const isBudget = (error: { extensions?: Record<string, unknown> }) =>
            error.extensions?.code === 'LEGACY_BUDGET_EXCEEDED';
          const first = result.errors.find(isBudget);
          setResult({
            ...result,
            errors: result.errors.filter((error) => !isBudget(error) || error === first),
          });
        },
      };
    },
  };
  return plugin;
}
