import { Pool, errors as undiciErrors, type Dispatcher } from 'undici';

/** A call to the legacy service as the upstream trace reports it. */
export interface LegacyCall {
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  round: number;
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
}

export interface LegacyRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  signal?: AbortSignal;
  /** Receives each finished call, for the upstream trace and metrics. */
  onCall?: (call: Omit<LegacyCall, 'round'>) => void;
}

function isTimeout(error: unknown): boolean {
  return (
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    error instanceof undiciErrors.ConnectTimeoutError
  );
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
  const basePath = options.url.pathname.replace(/\/$/, '');

  async function json<T = unknown>(request: LegacyRequest): Promise<T> {
    const started = performance.now();
    let status = 0;
    try {
      const response = await pool.request({
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

  return {
    json,
    /** For streaming passthrough: requests keep the legacy base path prefix. */
    dispatcher: pool as Dispatcher,
    basePath,
    origin: options.url.origin,
    close: () => pool.close(),
    isTimeout,
  };
}

export type LegacyClient = ReturnType<typeof createLegacyClient>;
