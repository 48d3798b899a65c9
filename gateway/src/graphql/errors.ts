import { GraphQLError } from 'graphql';
import { LegacyResponseError, LegacyTimeoutError, LegacyUnavailableError } from '../legacy/legacy-client.js';

const codeByStatus: Record<number, string> = {
  400: 'BAD_USER_INPUT',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
};

/**
 * Turns a legacy failure into the GraphQL error users see: the legacy `error_key` and description for
 * business errors, `UPSTREAM_UNAVAILABLE`/`UPSTREAM_TIMEOUT` for transport failures. Never the legacy
 * address, headers or stack. Anything else is rethrown and masked by Yoga.
 */
export function toGraphQLError(error: unknown): GraphQLError {
  if (error instanceof GraphQLError) return error;
  if (error instanceof LegacyResponseError) {
    const { error: _flag, status: _status, description: _description, error_key, ...context } = error.body;
    return new GraphQLError(error.message, {
      extensions: {
        code: codeByStatus[error.status] ?? 'LEGACY_ERROR',
        error_key: error_key ?? 'E_UNKNOWN',
        legacy_status: error.status,
        ...context,
      },
    });
  }
  if (error instanceof LegacyTimeoutError) {
    return new GraphQLError('The legacy service did not answer in time.', {
      extensions: { code: 'UPSTREAM_TIMEOUT' },
    });
  }
  if (error instanceof LegacyUnavailableError) {
    return new GraphQLError('The legacy service cannot be reached.', {
      extensions: { code: 'UPSTREAM_UNAVAILABLE' },
    });
  }
  throw error;
}

export function badUserInput(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });
}

/** Runs `work`, turning legacy failures into GraphQL errors. */
export async function legacyErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toGraphQLError(error);
  }
}
