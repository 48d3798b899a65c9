import type { ContentfulStatusCode } from 'hono/utils/http-status';

export interface GatewayErrorOptions {
  /** The legacy API's key for this failure in bodies of the legacy shape; `E_<code>` when not given. */
  errorKey?: string;
  /** Set for a business error the legacy service answered: GraphQL bodies then show its `error_key` too. */
  fromLegacyService?: boolean;
  /** Further fields a client can act on (a limit, the versions there are); never anything internal. */
  context?: Record<string, unknown>;
  /** Headers the answer must carry: `WWW-Authenticate`, `Retry-After`, `Connection: close`. */
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * The one error the gateway throws for a failure a user can see: an HTTP status, a machine-readable code
 * and a sentence that says what to do. Each mounted route family's `onError` writes it in its own body:
 * the legacy body on `/service` and `/migration`, the GraphQL body on `/graphql`.
 *
 * @example
 * throw new GatewayError(413, 'PAYLOAD_TOO_LARGE', 'The request body exceeds 1048576 bytes.', {
 *   context: { limit: 1_048_576 },
 *   headers: { Connection: 'close' },
 * });
 */
export class GatewayError extends Error {
  readonly errorKey: string;
  readonly fromLegacyService: boolean;
  readonly context: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    options: GatewayErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'GatewayError';
    this.errorKey = options.errorKey ?? `E_${code}`;
    this.fromLegacyService = options.fromLegacyService ?? false;
    this.context = options.context ?? {};
    this.headers = options.headers ?? {};
  }
}

/** The answer to an error that is not a `GatewayError`: nothing of it reaches the client. */
export const unexpectedError = () =>
  new GatewayError(500, 'INTERNAL_SERVER_ERROR', 'An unexpected error occurred.', { errorKey: 'E_UNKNOWN' });

export const noSuchEndpoint = (description = 'No such endpoint.') =>
  new GatewayError(404, 'NOT_FOUND', description, { errorKey: 'E_NO_SUCH_ENDPOINT' });
