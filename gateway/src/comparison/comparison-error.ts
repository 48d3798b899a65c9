/**
 * Why a comparison could not be made: `unreachable` (no connection), `unauthorized` (the token was refused),
 * `failed` (a read answered with an error, or the GraphQL response carries errors). The message is a
 * sentence for the user; it never names the legacy service's internal address.
 */
export class ComparisonError extends Error {
  constructor(
    readonly reason: 'unreachable' | 'unauthorized' | 'failed',
    message: string,
  ) {
    super(message);
    this.name = 'ComparisonError';
  }
}

/** The `description` of a legacy error body or the `message` of the first GraphQL error, if any. */
export function errorSentence(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as { description?: unknown; errors?: { message?: unknown }[] };
  if (typeof record.description === 'string') return record.description;
  const message = Array.isArray(record.errors) ? record.errors[0]?.message : undefined;
  return typeof message === 'string' ? message : undefined;
}
