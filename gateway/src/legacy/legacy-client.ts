import { Pool, errors as undiciErrors, type Dispatcher } from 'undici';

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

/** The legacy service answered with its own error body (`{error, status, error_key, description, …}`). */
export class LegacyResponseError extends Error {
  constructor(
    readonly status: number,
    readonly body: { error_key?: string; description?: string; [key: string]: unknown },
  ) {
    super(typeof body.description === 'string' ? body.description : `The legacy service answered ${status}.`);
    this.name = 'LegacyResponseError';
  }
}

/** The legacy service could not be reached, or sent something that is not its API. */
export class LegacyUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The legacy service cannot be reached.', { cause });
    this.name = 'LegacyUnavailableError';
  }
}

export class LegacyTimeoutError extends Error {
  constructor() {
    super('The legacy service did not answer in time.');
    this.name = 'LegacyTimeoutError';
  }
}

export interface LegacyClientOptions {
  url: URL;
  connectTimeoutMs: number;
  responseTimeoutMs: number;
  /** Connections kept open to the legacy service. */
  connections?: number;
  /** Told about every finished call, `json()` and passthrough alike (metrics). */
  observeCall?: (call: ObservedLegacyCall) => void;
}

/** A finished legacy call as metrics see it: no path, so labels stay bounded. */
export interface ObservedLegacyCall {
  method: string;
  /** The response's status class, or why there was no complete response. */
  statusClass: '1xx' | '2xx' | '3xx' | '4xx' | '5xx' | 'timeout' | 'error';
  durationMs: number;
}

/** Whether the legacy service's `/health` answered 200 in time; the reason says what went wrong, not where. */
export type LegacyHealth = { ok: true } | { ok: false; reason: string };

export interface LegacyRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  signal?: AbortSignal;
  /** Receives each finished call, for the upstream trace and metrics. */
  onCall?: (call: Omit<LegacyCall, 'round' | 'started_ms'>) => void;
}

function isTimeout(error: unknown): boolean {
  return (
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    error instanceof undiciErrors.ConnectTimeoutError
  );
}

/** An undici interceptor that reports each call when its response ends or fails. */
function observeCalls(observe: (call: ObservedLegacyCall) => void): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) => {
    const started = performance.now();
    let status = 0;
    const report = (statusClass: ObservedLegacyCall['statusClass']) =>
      observe({ method: options.method, statusClass, durationMs: performance.now() - started });
    return dispatch(options, {
      onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
      onRequestUpgrade: (controller, statusCode, headers, socket) =>
        handler.onRequestUpgrade?.(controller, statusCode, headers, socket),
      onResponseStart: (controller, statusCode, headers, statusMessage) => {
        status = statusCode;
        return handler.onResponseStart?.(controller, statusCode, headers, statusMessage);
      },
      onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
      onResponseEnd: (controller, trailers) => {
        report(`${Math.min(Math.floor(status / 100), 5)}xx` as ObservedLegacyCall['statusClass']);
        return handler.onResponseEnd?.(controller, trailers);
      },
      onResponseError: (controller, error) => {
        report(isTimeout(error) ? 'timeout' : 'error');
        return handler.onResponseError?.(controller, error);
      },
    });
  };
}

/**
 * The one way the gateway talks to the legacy service: a keep-alive `undici` pool with explicit connect,
 * header and body timeouts. GraphQL resolvers use `json()`; the `/service` passthrough uses `dispatcher`.
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
  const dispatcher: Dispatcher = options.observeCall ? pool.compose(observeCalls(options.observeCall)) : pool;
  const basePath = options.url.pathname.replace(/\/$/, '');

  async function json<T = unknown>(request: LegacyRequest): Promise<T> {
    const started = performance.now();
    let status = 0;
    try {
      const response = await dispatcher.request({
        method: request.method,
        path: `${basePath}${request.path}`,
        headers:
          request.body === undefined
            ? { accept: 'application/json' }
            : { accept: 'application/json', 'content-type': 'application/json' },
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: request.signal,
      });
      status = response.statusCode;
      let body: unknown;
      try {
        body = await response.body.json();
      } catch (error) {
        if (isTimeout(error)) throw new LegacyTimeoutError();
        throw new LegacyUnavailableError(error);
      }
      if (status >= 200 && status < 300) return body as T;
      if (typeof body === 'object' && body !== null && 'error_key' in body) {
        throw new LegacyResponseError(status, body as LegacyResponseError['body']);
      }
      throw new LegacyUnavailableError(new Error(`unexpected status ${status}`));
    } catch (error) {
      if (
        error instanceof LegacyResponseError ||
        error instanceof LegacyUnavailableError ||
        error instanceof LegacyTimeoutError
      ) {
        throw error;
      }
      if (isTimeout(error)) throw new LegacyTimeoutError();
      throw new LegacyUnavailableError(error);
    } finally {
      request.onCall?.({
        method: request.method,
        path: request.path,
        status,
        duration_ms: performance.now() - started,
      });
    }
  }

  /** `GET {base}/health` outside the call metrics, for the readiness check. */
  async function checkHealth(timeoutMs: number): Promise<LegacyHealth> {
    try {
      const response = await pool.request({
        method: 'GET',
        path: `${basePath}/health`,
        headers: { accept: 'application/json' },
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body.dump();
      return response.statusCode === 200
        ? { ok: true }
        : { ok: false, reason: `answered ${response.statusCode}` };
    } catch (error) {
      const timedOut = isTimeout(error) || (error instanceof Error && error.name === 'TimeoutError');
      return { ok: false, reason: timedOut ? `no answer within ${timeoutMs} ms` : 'unreachable' };
    }
  }

  return {
    json,
    /** For streaming passthrough: requests keep the legacy base path prefix. */
    dispatcher,
    basePath,
    origin: options.url.origin,
    checkHealth,
    /** Waits for calls in flight, then closes the connections (nothing left to do after `destroy`). */
    close: () => (pool.destroyed ? Promise.resolve() : pool.close()),
    /** Ends calls in flight at once (a shutdown whose grace period ran out). */
    destroy: () => pool.destroy(),
    isTimeout,
  };
}

export type LegacyClient = ReturnType<typeof createLegacyClient>;
