import { finished } from 'node:stream';
import { Pool, errors as undiciErrors, type Dispatcher } from 'undici';
import type { TraceContext, Tracing } from '../observability/tracing.js';
import { backendCredentials, type LegacyAuth } from './backend-credentials.js';
import {
  clientHeader,
  clientResponseHeaders,
  upstreamRequestHeaders,
  type AnswerHeaders,
  type ClientHeaders,
  type ClientView,
} from './forward-headers.js';
import {
  LegacyCredentialError,
  LegacyPathNotFoundError,
  LegacyResponseError,
  LegacyTimeoutError,
  LegacyUnavailableError,
} from './legacy-errors.js';

/** A call to the legacy service as the upstream trace reports it. */
export interface LegacyCall {
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  round: number;
  /** When the call was issued, in ms after the GraphQL request's legacy access was set up. */
  started_ms: number;
}

export {
  LegacyBudgetExceededError,
  LegacyCredentialError,
  LegacyPathNotFoundError,
  LegacyResponseError,
  LegacyTimeoutError,
  LegacyUnavailableError,
} from './legacy-errors.js';

export interface LegacyClientOptions {
  url: URL;
  connectTimeoutMs: number;
  responseTimeoutMs: number;
  /** Connections kept open to the legacy service. */
  connections?: number;
  /** How calls authenticate to the legacy service; `relay` (the caller's token) unless told otherwise. */
  auth?: LegacyAuth;
  /** Told about every finished call, `json()` and passthrough alike (metrics). */
  observeCall?: (call: ObservedLegacyCall) => void;
  /** A span per call, its `traceparent` sent on (`OTEL_EXPORTER_OTLP_ENDPOINT`); none when not given. */
  tracing?: Tracing;
}

/** A finished legacy call as metrics see it: no path, so labels stay bounded. */
export interface ObservedLegacyCall {
  method: string;
  /** The response's status class, or why there was no complete response. */
  statusClass: '1xx' | '2xx' | '3xx' | '4xx' | '5xx' | 'timeout' | 'error';
  durationMs: number;
}

/** Whether the readiness probe (`LEGACY_READINESS_*`) got an up status in time; the reason says what went wrong, not where. */
export type LegacyHealth = { ok: true } | { ok: false; reason: string };

/** A readiness request to the backend (`LEGACY_READINESS_*`): which answers count as up. */
export interface LegacyProbe {
  method: 'GET' | 'HEAD';
  /** Path below `LEGACY_URL` (its own path prefix is kept), with a query if needed. */
  path: string;
  /** Statuses that prove the backend answers; anything else, redirects included, is "answered N". */
  upStatuses: number[];
}

export interface LegacyRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  signal?: AbortSignal;
  /** The caller's `Authorization` header, which `LEGACY_CREDENTIALS=relay` sends on. */
  authorization?: string;
  /** The gateway request's id, sent on as `X-Request-Id` so the backend's logs can be joined with ours. */
  requestId?: string;
  /** The gateway request's trace: the call's span is its child. */
  trace?: TraceContext;
  /** Receives each finished call, for the upstream trace and metrics. */
  onCall?: (call: Omit<LegacyCall, 'round' | 'started_ms'>) => void;
}

/** A `/service` request as the passthrough hands it on. */
export interface ForwardRequest {
  method: string;
  /** Path and query as the client sent them, e.g. `/service/o/?limit=1`. */
  target: string;
  /** The client's headers; `upstreamRequestHeaders` decides which go on. */
  headers: ClientHeaders;
  /** The whole body, already read: a connection is taken only once the body is complete. */
  body?: Uint8Array;
  /** Aborts the call: an `AbortSignal`, or an emitter of `abort` as undici also accepts (see `connectionGone`). */
  signal?: AbortSignal | Dispatcher.RequestOptions['signal'];
  /** What the gateway saw of the client, for `X-Forwarded-*`. */
  client: ClientView;
  requestId?: string;
  /** The gateway request's trace: the call's span is its child. */
  trace?: TraceContext;
  /** Replaces the legacy origin in `Location`. */
  publicUrl: string;
  /** Asks for an answer without content coding, because the gateway reads it (CPR numbers). */
  identityEncoding?: boolean;
}

/** The legacy answer, for the client: status, the headers it may see, and the body as it arrives. */
export interface ForwardResponse {
  status: number;
  headers: AnswerHeaders;
  /** The declared `Content-Length`, when the answer has one. */
  length: number | undefined;
  body: Dispatcher.ResponseData['body'];
}

function declaredLength(header: string | string[] | undefined): number | undefined {
  const length = typeof header === 'string' ? Number(header) : Number.NaN;
  return Number.isInteger(length) && length >= 0 ? length : undefined;
}

/**
 * A connection that broke before any answer: the backend closed a kept-alive socket as the request went out
 * (a burst after an idle spell meets sockets the server has just let go), or reset it.
 */
function isBrokenConnection(error: unknown): boolean {
  if (error instanceof undiciErrors.SocketError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ECONNRESET' || code === 'EPIPE';
}

/**
 * Sends a request, once more when it is a read (GET or HEAD, which the Service API never changes anything
 * for) whose connection broke before any answer: a read must not fail because the pool picked a socket the
 * backend had just closed. A write is never sent twice.
 */
async function requestOnFreshConnection(
  dispatcher: Dispatcher,
  options: Dispatcher.RequestOptions,
): Promise<Dispatcher.ResponseData> {
  try {
    return await dispatcher.request(options);
  } catch (error) {
    if (!mayResend(options.method, error, options.signal as AbortSignal | undefined)) throw error;
    return dispatcher.request(options);
  }
}

/**
 * The one rule for sending a call again: a read (GET or HEAD, which the Service API never changes anything
 * for) whose connection broke before any answer, and whose caller has not gone away.
 */
function mayResend(method: string, error: unknown, signal: AbortSignal | undefined): boolean {
  return (method === 'GET' || method === 'HEAD') && isBrokenConnection(error) && signal?.aborted !== true;
}

/** A legacy answer read whole: its status and its body as text. */
interface WholeAnswer {
  status: number;
  bytes: Buffer;
}

/**
 * The calls in flight under each caller's signal, with one abort listener per signal however many calls
 * share it: an EventTarget compares each new listener with every one it holds, so a listener per call made a
 * request that fans out to thousands of legacy calls quadratic (a sixth of the gateway's CPU in v30's read of
 * every unit).
 */
const callsUnder = new WeakMap<AbortSignal, Set<WholeAnswerHandler>>();

function follow(signal: AbortSignal, handler: WholeAnswerHandler): void {
  let calls = callsUnder.get(signal);
  if (calls === undefined) {
    const under = new Set<WholeAnswerHandler>();
    calls = under;
    callsUnder.set(signal, under);
    signal.addEventListener(
      'abort',
      () => {
        for (const call of under) call.handleEvent();
        under.clear();
      },
      { once: true },
    );
  }
  calls.add(handler);
}

/**
 * One call whose answer is read whole, straight from undici's handler callbacks: the body's chunks are
 * kept and decoded once at the end, with no readable stream, no body mixin and no abort listener per call
 * (`request()` makes all three). `answeredAt` tells a failure after the answer began from one before it.
 */
class WholeAnswerHandler implements Dispatcher.DispatchHandler {
  status = 0;
  private readonly chunks: Buffer[] = [];
  private controller: Dispatcher.DispatchController | undefined;

  constructor(
    private readonly settle: (error: Error | null, answer?: WholeAnswer) => void,
    private readonly signal: AbortSignal | undefined,
  ) {
    if (signal) follow(signal, this);
  }

  /** The caller's signal aborted: the call stops where it is. */
  handleEvent(): void {
    this.controller?.abort(abortReason(this.signal));
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.signal?.aborted) controller.abort(abortReason(this.signal));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number): void {
    this.status = statusCode;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.signal) callsUnder.get(this.signal)?.delete(this);
    const { chunks } = this;
    const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    this.settle(null, { status: this.status, bytes });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.signal) callsUnder.get(this.signal)?.delete(this);
    this.settle(error);
  }
}

function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new undiciErrors.RequestAbortedError();
}

/**
 * Sends a request and reads its answer whole; a read whose connection broke before any answer is sent once
 * more, as `requestOnFreshConnection` does for streamed answers.
 */
function exchangeWhole(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  signal: AbortSignal | undefined,
  retried = false,
): Promise<WholeAnswer> {
  return new Promise<WholeAnswer>((resolve, reject) => {
    const handler = new WholeAnswerHandler((error, answer) => {
      if (error === null) return resolve(answer!);
      if (retried || handler.status !== 0 || !mayResend(options.method, error, signal)) return reject(error);
      resolve(exchangeWhole(dispatcher, options, signal, true));
    }, signal);
    dispatcher.dispatch(options, handler);
  });
}

/** A status as the metrics' `status_class` label: `2xx` … `5xx`. */
function statusClass(status: number): ObservedLegacyCall['statusClass'] {
  return `${Math.min(Math.max(Math.floor(status / 100), 1), 5)}xx` as ObservedLegacyCall['statusClass'];
}

/** A call that got no complete answer, as the metrics' `status_class` label. */
function failureClass(error: unknown): ObservedLegacyCall['statusClass'] {
  return isTimeout(error) ? 'timeout' : 'error';
}

function isTimeout(error: unknown): boolean {
  return (
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    error instanceof undiciErrors.ConnectTimeoutError
  );
}

/**
 * A `json()` call's headers as undici's flat list of names and values, which it reads as they are; an object
 * would be built from spreads and then walked for its keys on every call.
 */
function jsonCallHeaders(
  request: LegacyRequest,
  authorization: string | undefined,
  traceparent: string | undefined,
): string[] {
  const headers =
    request.body === undefined
      ? ['accept', 'application/json']
      : ['accept', 'application/json', 'content-type', 'application/json'];
  if (authorization !== undefined) headers.push('authorization', authorization);
  if (request.requestId !== undefined) headers.push('x-request-id', request.requestId);
  if (traceparent !== undefined) headers.push('traceparent', traceparent);
  return headers;
}

/**
 * The one way the gateway talks to the legacy service: a keep-alive `undici` pool with explicit connect,
 * header and body timeouts. GraphQL resolvers use `json()`; the `/service` passthrough uses `forward()`.
 * Every call carries the backend credential `auth` chooses.
 *
 * @example
 * const legacy = createLegacyClient({ url: new URL('http://127.0.0.1:8082'), connectTimeoutMs: 2000, responseTimeoutMs: 10000 });
 * const managers = await legacy.json({ method: 'GET', path: `/service/ou/${uuid}/details/manager` });
 */
export function createLegacyClient(options: LegacyClientOptions) {
  const pool = new Pool(options.url.origin, {
    connections: options.connections ?? 32,
    connectTimeout: options.connectTimeoutMs,
    headersTimeout: options.responseTimeoutMs,
    bodyTimeout: options.responseTimeoutMs,
    keepAliveTimeout: 30_000,
  });
  const basePath = options.url.pathname.replace(/\/$/, '');
  const credentials = backendCredentials(options.auth ?? { mode: 'relay' }, {
    timeoutMs: options.connectTimeoutMs + options.responseTimeoutMs,
  });

  /** A call answered with JSON: the parsed body of a 2xx answer. */
  async function json<T = unknown>(request: LegacyRequest): Promise<T> {
    return (await call(request, 'json')) as T;
  }

  /**
   * A call answered with a file (`GET /service/exports/{file_name}`): the bytes of a 2xx answer as they came;
   * an error answer is read as `json()` reads it.
   */
  async function bytes(request: LegacyRequest): Promise<Buffer> {
    return (await call(request, 'bytes')) as Buffer;
  }

  async function call(request: LegacyRequest, read: 'json' | 'bytes'): Promise<unknown> {
    const started = performance.now();
    let status = 0;
    /** How the call went for the metrics; unset while no call has been made (a credential failure). */
    let outcome: ObservedLegacyCall['statusClass'] | undefined;
    const span = options.tracing?.startCall(request.trace, request.method, request.path);
    try {
      // Relaying (the default) never waits: no promise per call for a header already at hand.
      const authorization =
        credentials.mode === 'relay'
          ? credentials.relayed(request.authorization)
          : await credentials.header(request.authorization);
      let answer: WholeAnswer;
      try {
        // Straight to the pool: this handler reports the call itself, so it needs no observing wrapper.
        answer = await exchangeWhole(
          pool,
          {
            method: request.method,
            path: basePath === '' ? request.path : `${basePath}${request.path}`,
            headers: jsonCallHeaders(request, authorization, span?.traceparent),
            body: request.body === undefined ? undefined : JSON.stringify(request.body),
          },
          request.signal,
        );
      } catch (error) {
        outcome = failureClass(error);
        throw error;
      }
      status = answer.status;
      outcome = statusClass(status);
      if (read === 'bytes' && status >= 200 && status < 300) return answer.bytes;
      let body: unknown;
      try {
        body = JSON.parse(answer.bytes.toString('utf8'));
      } catch (error) {
        throw new LegacyUnavailableError(error);
      }
      if (status >= 200 && status < 300) return body;
      if (typeof body === 'object' && body !== null && 'error_key' in body) {
        throw new LegacyResponseError(status, body as LegacyResponseError['body']);
      }
      if (status === 404) throw new LegacyPathNotFoundError();
      throw new LegacyUnavailableError(new Error(`unexpected status ${status}`));
    } catch (error) {
      if (
        error instanceof LegacyResponseError ||
        error instanceof LegacyUnavailableError ||
        error instanceof LegacyTimeoutError ||
        error instanceof LegacyCredentialError
      ) {
        throw error;
      }
      if (isTimeout(error)) throw new LegacyTimeoutError();
      throw new LegacyUnavailableError(error);
    } finally {
      const durationMs = performance.now() - started;
      if (outcome !== undefined)
        options.observeCall?.({ method: request.method, statusClass: outcome, durationMs });
      span?.end(status === 0 ? { error: 'no answer' } : { status });
      request.onCall?.({ method: request.method, path: request.path, status, duration_ms: durationMs });
    }
  }

  /**
   * One request outside the call metrics, for the readiness check: no credential, and (as every undici
   * request) no redirect followed. Up when the status is one of `upStatuses`; the reason never names the address.
   */
  async function probe(request: LegacyProbe, timeoutMs: number): Promise<LegacyHealth> {
    try {
      const response = await pool.request({
        method: request.method,
        path: `${basePath}${request.path}`,
        headers: { accept: 'application/json' },
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body.dump();
      return request.upStatuses.includes(response.statusCode)
        ? { ok: true }
        : { ok: false, reason: `answered ${response.statusCode}` };
    } catch (error) {
      const timedOut = isTimeout(error) || (error instanceof Error && error.name === 'TimeoutError');
      return { ok: false, reason: timedOut ? `no answer within ${timeoutMs} ms` : 'unreachable' };
    }
  }

  const legacyOrigin = options.url.origin;
  /**
   * Sends one `/service` request on for the passthrough: the headers `upstreamRequestHeaders` allows, the
   * backend credential of `LEGACY_CREDENTIALS`, and the body already read. Throws `LegacyTimeoutError` or
   * `LegacyUnavailableError` when no answer comes; any answer, error statuses included, is returned as is.
   */
  async function forward(request: ForwardRequest): Promise<ForwardResponse> {
    const span = options.tracing?.startCall(request.trace, request.method, request.target);
    const headers = upstreamRequestHeaders(request.headers, request.client, {
      'x-request-id': request.requestId,
      // Ours replaces the caller's: the backend's span is a child of this call, not of the caller.
      traceparent: span?.traceparent,
      'accept-encoding': request.identityEncoding ? 'identity' : undefined,
    });
    const started = performance.now();
    let called = false;
    try {
      // Relayed without a wait: the caller's header is at hand (the other modes may fetch a token).
      const caller = clientHeader(request.headers, 'authorization');
      const authorization =
        credentials.mode === 'relay' ? credentials.relayed(caller) : await credentials.header(caller);
      if (authorization !== undefined) headers.authorization = authorization;
      called = true;
      const upstream = await requestOnFreshConnection(pool, {
        method: request.method as Dispatcher.HttpMethod,
        path: `${basePath}${request.target}`,
        headers,
        body: request.body === undefined ? undefined : Buffer.from(request.body),
        signal: request.signal,
      });
      // The span covers the wait for the answer's headers; the body then streams to the client.
      span?.end({ status: upstream.statusCode });
      // The call is reported once its body has ended (or failed), however the caller reads it.
      const observe = options.observeCall;
      if (observe) {
        const answered = statusClass(upstream.statusCode);
        finished(upstream.body, (error) =>
          observe({
            method: request.method,
            statusClass: error ? failureClass(error) : answered,
            durationMs: performance.now() - started,
          }),
        );
      }
      return {
        status: upstream.statusCode,
        headers: clientResponseHeaders(upstream.headers, {
          legacyOrigin,
          publicUrl: request.publicUrl,
        }),
        length: declaredLength(upstream.headers['content-length']),
        body: upstream.body,
      };
    } catch (error) {
      span?.end({ error: 'no answer' });
      if (called) {
        options.observeCall?.({
          method: request.method,
          statusClass: failureClass(error),
          durationMs: performance.now() - started,
        });
      }
      if (error instanceof LegacyCredentialError) throw error;
      if (isTimeout(error)) throw new LegacyTimeoutError();
      throw new LegacyUnavailableError(error);
    }
  }

  return {
    json,
    bytes,
    forward,
    /** `relay`, `client-credentials` or `none`. */
    authMode: credentials.mode,
    probe,
    /** Waits for calls in flight, then closes the connections (nothing left to do after `destroy`). */
    close: () => (pool.destroyed ? Promise.resolve() : pool.close()),
    /** Ends calls in flight at once (a shutdown whose grace period ran out). */
    destroy: () => pool.destroy(),
  };
}

export type LegacyClient = ReturnType<typeof createLegacyClient>;
