import {
  LegacyBudgetExceededError,
  LegacyCredentialError,
  LegacyResponseError,
  LegacyTimeoutError,
  LegacyUnavailableError,
} from './legacy-errors.js';

/** What a failed legacy call means to a client, on every route family. */
export interface UpstreamFailure {
  /** The HTTP status of a `/service` (or `/migration`) answer. */
  status: number;
  /** The legacy body's `error_key` (`/service`, `/migration`). */
  errorKey: string;
  /** The GraphQL `extensions.code`. */
  code: string;
  /** One sentence for the client; never an address, header, token or stack. */
  description: string;
  /** A business error's own fields (`error_key` aside), passed on as the legacy service gave them. */
  context?: Record<string, unknown>;
}

const codeByStatus: Record<number, string> = {
  400: 'BAD_USER_INPUT',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
};

/**
 * The one mapping from legacy failures to what clients see: a business error keeps the legacy status,
 * `error_key` and description; the legacy service unreachable (or the gateway's own backend token
 * unobtainable) is 502 `E_UPSTREAM_UNAVAILABLE`, too slow is 504 `E_UPSTREAM_TIMEOUT`, a request over its
 * legacy-call budget is 400 `E_LEGACY_BUDGET_EXCEEDED`. Anything else is not a legacy failure: `undefined`.
 *
 * @example
 * const failure = upstreamFailure(error);
 * if (failure) return c.json({ error: true, status: failure.status, error_key: failure.errorKey, description: failure.description }, failure.status);
 */
export function upstreamFailure(error: unknown): UpstreamFailure | undefined {
  if (error instanceof LegacyResponseError) {
    const { error: _flag, status: _status, description: _description, error_key, ...context } = error.body;
    return {
      status: error.status,
      errorKey: error_key ?? 'E_UNKNOWN',
      code: codeByStatus[error.status] ?? 'LEGACY_ERROR',
      description: error.message,
      context,
    };
  }
  if (error instanceof LegacyTimeoutError) {
    return {
      status: 504,
      errorKey: 'E_UPSTREAM_TIMEOUT',
      code: 'UPSTREAM_TIMEOUT',
      description: 'The legacy service did not answer in time.',
    };
  }
  if (error instanceof LegacyUnavailableError || error instanceof LegacyCredentialError) {
    return {
      status: 502,
      errorKey: 'E_UPSTREAM_UNAVAILABLE',
      code: 'UPSTREAM_UNAVAILABLE',
      description: 'The legacy service cannot be reached.',
    };
  }
  if (error instanceof LegacyBudgetExceededError) {
    return {
      status: 400,
      errorKey: 'E_LEGACY_BUDGET_EXCEEDED',
      code: 'LEGACY_BUDGET_EXCEEDED',
      description: error.message,
    };
  }
  return undefined;
}
