import { GatewayError } from '../../errors/gateway-error.js';
import { upstreamError } from '../../legacy/upstream-error.js';
import { LegacyResponseError } from '../../legacy/legacy-errors.js';

/**
 * A Service API business error as OS2mo's GraphQL shows it: the error body, unchanged, in
 * `extensions.error_context` (OS2mo's `mora/graphapi/schema.py`, `add_exception_extension`; its test
 * `tests/graphapi/test_exception_context.py`), beside the gateway's own `code` and `error_key`. Everything
 * else (unreachable, too slow, RBAC) is left as it is, for `useLegacyErrors` to map as in every version.
 */
export function withErrorContext(error: unknown): unknown {
  if (!(error instanceof LegacyResponseError)) return error;
  const known = upstreamError(error)!;
  return new GatewayError(known.status, known.code, known.message, {
    errorKey: known.errorKey,
    fromLegacyService: true,
    context: { ...known.context, error_context: error.body },
    cause: error,
  });
}

/** Runs a resolver and gives its Service API business errors OS2mo's `error_context`. */
export function withOs2moErrors<A extends unknown[], R>(
  resolve: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await resolve(...args);
    } catch (error) {
      throw withErrorContext(error);
    }
  };
}
