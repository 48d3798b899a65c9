import { LegacyResponseError, LegacyTimeoutError, LegacyUnavailableError } from '../legacy/legacy-client.js';
import { GatewayError } from './gateway-error.js';

/** The GraphQL code of a legacy business error, by the legacy status. */
const codeByLegacyStatus: Record<number, string> = {
  400: 'BAD_USER_INPUT',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
};

export const upstreamTimeout = (description = 'The legacy service did not answer in time.') =>
  new GatewayError(504, 'UPSTREAM_TIMEOUT', description);

export const upstreamUnavailable = (description = 'The legacy service cannot be reached.') =>
  new GatewayError(502, 'UPSTREAM_UNAVAILABLE', description);

/**
 * The one mapping from a failed legacy call to what users see, for every route family: a timeout is 504
 * `UPSTREAM_TIMEOUT`, no answer 502 `UPSTREAM_UNAVAILABLE`, and a business error keeps the legacy
 * `error_key`, sentence and context. Never the legacy address, headers or stack. Anything else is not a
 * legacy failure: `undefined`.
 */
export function upstreamFailure(error: unknown): GatewayError | undefined {
  if (error instanceof GatewayError) return error;
  if (error instanceof LegacyTimeoutError) return upstreamTimeout();
  if (error instanceof LegacyUnavailableError) return upstreamUnavailable();
  if (error instanceof LegacyResponseError) {
    const { error: _flag, status: _status, description: _description, error_key, ...context } = error.body;
    return new GatewayError(
      error.status >= 400 && error.status < 600 ? (error.status as 400) : 502,
      codeByLegacyStatus[error.status] ?? 'LEGACY_ERROR',
      error.message,
      {
        errorKey: error_key ?? 'E_UNKNOWN',
        fromLegacyService: true,
        context: { legacy_status: error.status, ...context },
      },
    );
  }
  return undefined;
}
