import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { LegacyResponseError } from './legacy-errors.js';
import { upstreamFailure } from './upstream-failures.js';
import { GatewayError } from '../errors/gateway-error.js';

/**
 * A failed legacy call as the gateway error every route family writes, by legacy/'s one mapping
 * (`upstreamFailure`): a business error keeps the legacy `error_key`, sentence and fields; an unreachable or
 * slow legacy service is 502/504. A `GatewayError` is itself; anything else is not a legacy failure.
 */
export function upstreamError(error: unknown): GatewayError | undefined {
  if (error instanceof GatewayError) return error;
  const failure = upstreamFailure(error);
  if (!failure) return undefined;
  const business = error instanceof LegacyResponseError;
  return new GatewayError(failure.status as ContentfulStatusCode, failure.code, failure.description, {
    errorKey: failure.errorKey,
    fromLegacyService: business,
    context: business ? { legacy_status: failure.status, ...failure.context } : failure.context,
  });
}
