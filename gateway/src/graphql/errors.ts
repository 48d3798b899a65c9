import { GraphQLError } from 'graphql';
import { LegacyResponseError } from '../legacy/legacy-client.js';
import { upstreamFailure } from '../legacy/upstream-failures.js';

/**
 * Turns a legacy failure into the GraphQL error users see: the legacy `error_key` and description for
 * business errors, `UPSTREAM_UNAVAILABLE`/`UPSTREAM_TIMEOUT` for transport failures. Never the legacy
 * address, headers or stack. Anything else is rethrown and masked by Yoga.
 */
export function toGraphQLError(error: unknown): GraphQLError {
  if (error instanceof GraphQLError) return error;
  const failure = upstreamFailure(error);
  if (!failure) throw error;
  const extensions =
    error instanceof LegacyResponseError
      ? { code: failure.code, error_key: failure.errorKey, legacy_status: failure.status, ...failure.context }
      : { code: failure.code };
  return new GraphQLError(failure.description, { extensions });
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
