import {
  execute,
  parse,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
} from 'graphql';
import type { Context, MiddlewareHandler } from 'hono';
import type { GatewayVariables } from '../../auth/bearer-auth.js';
import type { Principal } from '../../auth/token-verifier.js';
import type { ShadowConfig } from '../../config.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { createLegacyLoaders } from '../../legacy/legacy-loaders.js';
import type { LegacyCall, LegacyClient } from '../../legacy/legacy-client.js';
import { findDifferences, type Difference } from '../differences.js';
import { os2moData, os2moRoad } from '../os2mo-road.js';
import { shadowTarget, type ShadowTarget, type ShadowTargetKind } from './shadow-targets.js';
import type { GraphQLRequestBody } from '../subjects.js';
import { contractOperations } from '../../contract/contract-operations.generated.js';
import { serviceAttributor } from '../../contract/service-endpoints.js';

const attributeRead = serviceAttributor(contractOperations);

/** How one sampled `/service` read ended; every sampled read ends in exactly one of these. */
export type ShadowOutcome = 'match' | 'mismatch' | 'error' | 'dropped';

/** Why a sampled read was not compared. */
export type ShadowDropReason = 'queue_full' | 'too_large' | 'aborted' | 'closing';

/**
 * Why a `/service` read was not sampled at all: the shadow has no GraphQL equivalent for the endpoint, or for
 * the query flags it was read with; or its answer could not be compared (not `200`, not JSON, encoded, or
 * declared larger than `SHADOW_MAX_BODY_BYTES`).
 */
export type ShadowSkipReason = 'unsupported_endpoint' | 'unsupported_flags' | 'not_comparable';

/** Reads skipped, by the contract's endpoint template and reason. */
export interface ShadowSkipCount {
  endpoint: string;
  reason: ShadowSkipReason;
  count: number;
}

/** What `onResult` receives once per sampled read: hook metrics here (e.g. a counter labelled by `result`). */
export interface ShadowComparisonResult {
  result: ShadowOutcome;
  kind: ShadowTargetKind;
  /** The `/service` path and query that was read. */
  path: string;
  reason?: ShadowDropReason;
  /** For `error`: what went wrong, as a sentence. */
  error?: string;
  /** For `mismatch`: every difference. */
  differences?: Difference[];
}

/** Runs the equivalent GraphQL query; the default runs it in-process on the newest version's schema. */
export type ShadowExecutor = (
  request: GraphQLRequestBody,
  context: {
    principal: Principal;
    today: string;
    signal: AbortSignal;
    /** The sampled request's `Authorization`, for the legacy reads (`LEGACY_CREDENTIALS=relay`). */
    authorization?: string;
    /** The version asked: the compared one (v30), or v2 where the served v30 cannot answer the read yet. */
    version: string;
  },
) => Promise<ExecutionResult>;

/** The shadow comparison's configuration (`SHADOW_*`). */
export type ShadowSettings = ShadowConfig;

export interface ShadowHooks {
  /** Called once per sampled read with how it ended. Must not throw (a throw is ignored). */
  onResult?: (result: ShadowComparisonResult) => void;
  /** Called once per read the shadow skipped, with the endpoint template and why. Must not throw. */
  onSkip?: (skip: Omit<ShadowSkipCount, 'count'>) => void;
  executor?: ShadowExecutor;
  /** The sampling draw, `Math.random` by default. */
  random?: () => number;
}

export interface ShadowComparisonOptions extends ShadowSettings, ShadowHooks {
  legacy: LegacyClient;
  /** The compared version's executable schema (v30, OS2mo's), for the default executor. */
  schema: GraphQLSchema;
  /** Its name, as the workbench shows it. */
  version: string;
  /** v2's executable schema: on v30, a read the served v30 cannot answer yet is compared on v2. */
  fallbackSchema?: GraphQLSchema;
  clock?: () => Date;
}

export interface ShadowMismatch {
  time: string;
  request_id: string | undefined;
  kind: ShadowTargetKind;
  path: string;
  /** The version the read was compared on. */
  version: string;
  graphql: GraphQLRequestBody;
  difference_count: number;
  /** The first 50 differences. */
  differences: Difference[];
}

export interface ShadowError {
  time: string;
  request_id: string | undefined;
  kind: ShadowTargetKind;
  path: string;
  error: string;
}

/** What `GET /migration/shadow` shows. `counts.sampled` is always match + mismatch + error + dropped (+ pending). */
export interface ShadowSnapshot {
  enabled: boolean;
  sample_rate: number;
  version: string;
  counts: Record<'sampled' | ShadowOutcome | 'pending' | 'skipped', number>;
  /** Every read skipped (`counts.skipped` counts the sampled ones only), by endpoint and reason, most first. */
  skipped: ShadowSkipCount[];
  queue: { waiting: number; running: number; size: number; concurrency: number };
  keep: number;
  mismatches: ShadowMismatch[];
  errors: ShadowError[];
}

interface ShadowJob {
  target: ShadowTarget;
  path: string;
  requestId: string | undefined;
  principal: Principal;
  today: string;
  /** The sampled request's own credential: still valid for the rest of its life when the comparison runs. */
  authorization: string | undefined;
  body: Uint8Array[];
}

const maxDifferencesKept = 50;

/** GraphQL, in-process: the same resolvers and legacy loaders a `/graphql/vN` request uses, without HTTP. */
export function inProcessExecutor(options: { schema: GraphQLSchema; legacy: LegacyClient }): ShadowExecutor {
  // The shadow sends a handful of fixed queries; each is parsed and validated once.
  const documents = new Map<string, DocumentNode>();
  return async (request, { principal, today, signal, authorization }) => {
    let document = documents.get(request.query);
    if (!document) {
      document = parse(request.query);
      const errors = validate(options.schema, document);
      if (errors.length > 0) throw new Error(`the shadow query is invalid: ${errors[0]!.message}`);
      documents.set(request.query, document);
    }
    const calls: LegacyCall[] = [];
    const contextValue: GraphQLContext = {
      principal,
      today,
      calls,
      legacy: createLegacyLoaders(options.legacy, {
        signal,
        authorization,
        onCall: (call) => calls.push(call),
      }),
    };
    return execute({
      schema: options.schema,
      document,
      variableValues: request.variables,
      operationName: request.operationName,
      contextValue,
    });
  };
}

/**
 * Passes a response body through unchanged (the same chunks, with the reader's back-pressure) while keeping
 * a copy of at most `limit` bytes; `settle` learns once how the body ended.
 */
function tapBody(
  body: ReadableStream<Uint8Array>,
  limit: number,
  settle: (outcome: Uint8Array[] | 'too_large' | 'aborted') => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let copy: Uint8Array[] | null = [];
  let size = 0;
  let settled = false;
  const finish = (outcome: Uint8Array[] | 'too_large' | 'aborted') => {
    if (settled) return;
    settled = true;
    settle(outcome);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        finish('aborted');
        controller.error(error);
        return;
      }
      if (chunk.done) {
        controller.close();
        finish(copy ?? 'too_large');
        return;
      }
      if (copy !== null) {
        size += chunk.value.byteLength;
        if (size > limit) copy = null;
        else copy.push(chunk.value);
      }
      controller.enqueue(chunk.value);
    },
    cancel(reason) {
      finish('aborted');
      return reader.cancel(reason);
    },
  });
}

/** Resolves once the response has been written to the client (or its connection closed). */
function responseWritten(c: Context): Promise<void> {
  const outgoing = (
    c.env as { outgoing?: NodeJS.WritableStream & { writableFinished?: boolean } } | undefined
  )?.outgoing;
  if (!outgoing || typeof outgoing.once !== 'function' || outgoing.writableFinished) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      outgoing.removeListener('finish', done);
      outgoing.removeListener('close', done);
      resolve();
    };
    outgoing.once('finish', done);
    outgoing.once('close', done);
  });
}

const isJson = (contentType: string | null) => contentType !== null && /\bjson\b/i.test(contentType);

/**
 * Shadow comparison of live `/service` reads: a sample of the supported `GET`s (unit, unit managers,
 * employee, employee engagements) is, after its response has been sent, compared with the equivalent
 * GraphQL query run in-process. The legacy response is never changed, delayed or failed: its body streams
 * through unchanged while a bounded copy is kept, and the comparison runs later from a bounded queue.
 *
 * @example
 * const shadow = createShadowComparison({
 *   ...config.shadow,
 *   legacy,
 *   schema,
 *   version: 'v30',
 *   fallbackSchema: v2Schema,
 *   onResult: (result) => counter.inc({ result: result.result }),
 * });
 * app.use('/service/*', shadow.middleware); // after authentication, before the passthrough
 */
export function createShadowComparison(options: ShadowComparisonOptions) {
  const inProcess = new Map<string, ShadowExecutor>();
  const executor: ShadowExecutor =
    options.executor ??
    ((request, context) => {
      const schema = context.version === options.version ? options.schema : options.fallbackSchema;
      if (schema === undefined) throw new Error(`no ${context.version} schema to compare on`);
      let run = inProcess.get(context.version);
      if (run === undefined) {
        run = inProcessExecutor({ schema, legacy: options.legacy });
        inProcess.set(context.version, run);
      }
      return run(request, context);
    });
  const random = options.random ?? Math.random;
  const now = () => options.clock?.() ?? new Date();
  const counts: ShadowSnapshot['counts'] = {
    sampled: 0,
    match: 0,
    mismatch: 0,
    error: 0,
    dropped: 0,
    pending: 0,
    skipped: 0,
  };
  const mismatches: ShadowMismatch[] = [];
  const errors: ShadowError[] = [];
  const waiting: ShadowJob[] = [];
  const running = new Set<Promise<void>>();
  /** Requests the gateway makes to itself (the workbench's legacy reads): never sampled. */
  const internal = new WeakSet<Request>();
  const skipped = new Map<string, ShadowSkipCount>();
  const skip = (url: URL, reason: ShadowSkipReason) => {
    const { endpoint } = attributeRead('GET', url.pathname, url.searchParams);
    const key = `${endpoint}\n${reason}`;
    const entry = skipped.get(key) ?? { endpoint, reason, count: 0 };
    entry.count += 1;
    skipped.set(key, entry);
    try {
      options.onSkip?.({ endpoint, reason });
    } catch {
      // A metrics hook must never break the read.
    }
  };
  const closing = new AbortController();

  const keepNewest = <T>(list: T[], entry: T) => {
    if (options.keep === 0) return;
    list.unshift(entry);
    list.length = Math.min(list.length, options.keep);
  };

  const report = (result: ShadowComparisonResult) => {
    counts.pending -= 1;
    counts[result.result] += 1;
    try {
      options.onResult?.(result);
    } catch {
      // A metrics hook must never break the comparison.
    }
  };

  async function compare(job: ShadowJob): Promise<void> {
    const base = { kind: job.target.kind, path: job.path };
    const v2Request: GraphQLRequestBody = {
      ...job.target.request,
      variables: { ...job.target.request.variables, at: job.target.at ?? job.today },
    };
    // On v30 the read takes the OS2mo road: OS2mo's shape where the served v30 answers it, else v2.
    const road =
      options.version === 'v30' ? os2moRoad(v2Request, options.schema, job.target.forms) : undefined;
    const version = road?.version ?? options.version;
    const request = road?.request ?? v2Request;
    try {
      const legacyBody: unknown = JSON.parse(Buffer.concat(job.body).toString('utf8'));
      const signal = AbortSignal.any([closing.signal, AbortSignal.timeout(options.timeoutMs)]);
      const result = await executor(request, {
        principal: job.principal,
        today: job.today,
        signal,
        authorization: job.authorization,
        version,
      });
      if (result.errors?.length) throw new Error(result.errors[0]!.message);
      const data = road?.version === 'v30' ? road.asV2(os2moData(result.data)) : result.data;
      const differences = findDifferences(job.target.fromLegacy(legacyBody), job.target.fromGraphQL(data));
      if (differences.length === 0) {
        report({ ...base, result: 'match' });
        return;
      }
      keepNewest(mismatches, {
        time: now().toISOString(),
        request_id: job.requestId,
        ...base,
        version,
        graphql: request,
        difference_count: differences.length,
        differences: differences.slice(0, maxDifferencesKept),
      });
      report({ ...base, result: 'mismatch', differences });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      keepNewest(errors, { time: now().toISOString(), request_id: job.requestId, ...base, error: message });
      report({ ...base, result: 'error', error: message });
    }
  }

  const start = (job: ShadowJob) => {
    const run: Promise<void> = compare(job).finally(() => {
      running.delete(run);
      const next = waiting.shift();
      if (next) start(next);
    });
    running.add(run);
  };

  const enqueue = (job: ShadowJob) => {
    const dropped = (reason: ShadowDropReason) =>
      report({ result: 'dropped', reason, kind: job.target.kind, path: job.path });
    if (closing.signal.aborted) dropped('closing');
    else if (running.size < options.concurrency) start(job);
    else if (waiting.length < options.queueSize) waiting.push(job);
    else dropped('queue_full');
  };

  const middleware: MiddlewareHandler<{ Variables: GatewayVariables }> = async (c, next) => {
    if (options.sampleRate === 0 || c.req.method !== 'GET' || closing.signal.aborted) return next();
    const url = new URL(c.req.url);
    if (internal.has(c.req.raw)) return next();
    const target = shadowTarget(url.pathname, url.searchParams);
    if (!target) {
      // Said out loud rather than skipped silently: reads the shadow can never compare, by endpoint and why.
      const plain = shadowTarget(url.pathname, new URLSearchParams()) !== null;
      skip(url, plain ? 'unsupported_flags' : 'unsupported_endpoint');
      return next();
    }
    if (random() >= options.sampleRate) return next();
    const today = now().toISOString().slice(0, 10);
    await next();

    const response = c.res;
    const declared = Number(response.headers.get('content-length') ?? 0);
    const encoding = response.headers.get('content-encoding');
    if (
      response.status !== 200 ||
      response.body === null ||
      !isJson(response.headers.get('content-type')) ||
      (encoding !== null && encoding !== 'identity') ||
      declared > options.maxBodyBytes
    ) {
      counts.skipped += 1;
      skip(url, 'not_comparable');
      return;
    }
    counts.sampled += 1;
    counts.pending += 1;
    const path = `${url.pathname}${url.search}`;
    const requestId = c.get('requestId');
    const principal = c.get('principal');
    const authorization = c.req.header('authorization');
    const written = responseWritten(c);
    c.res = new Response(
      tapBody(response.body, options.maxBodyBytes, (outcome) => {
        if (outcome === 'too_large' || outcome === 'aborted') {
          report({ result: 'dropped', reason: outcome, kind: target.kind, path });
          return;
        }
        void written.then(() =>
          enqueue({ target, path, requestId, principal, today, authorization, body: outcome }),
        );
      }),
      response,
    );
  };

  return {
    middleware,
    /** Marks a request the gateway sends to itself, so it is not sampled. */
    exclude(request: Request): void {
      internal.add(request);
    },
    snapshot(): ShadowSnapshot {
      return {
        enabled: options.sampleRate > 0,
        sample_rate: options.sampleRate,
        version: options.version,
        counts: { ...counts },
        skipped: [...skipped.values()]
          .map((entry) => ({ ...entry }))
          .sort((a, b) => b.count - a.count || a.endpoint.localeCompare(b.endpoint)),
        queue: {
          waiting: waiting.length,
          running: running.size,
          size: options.queueSize,
          concurrency: options.concurrency,
        },
        keep: options.keep,
        mismatches: [...mismatches],
        errors: [...errors],
      };
    },
    /** Stops sampling, drops what waits, cancels and awaits what runs. */
    async close(): Promise<void> {
      closing.abort();
      for (const job of waiting.splice(0)) {
        report({ result: 'dropped', reason: 'closing', kind: job.target.kind, path: job.path });
      }
      await Promise.allSettled([...running]);
    },
  };
}

export type ShadowComparison = ReturnType<typeof createShadowComparison>;
