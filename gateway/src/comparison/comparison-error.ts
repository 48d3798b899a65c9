/**
 * Why a comparison could not be made: `unreachable` (no connection), `unauthorized` (the token was refused),
 * `retired` (the gateway answered 410: `/service` is switched off for this caller), `failed` (a read answered
 * with another error, or the GraphQL response carries errors). The message is a sentence for the user; it
 * never names the legacy service's internal address.
 */
export class ComparisonError extends Error {
  constructor(
    readonly reason: 'unreachable' | 'unauthorized' | 'retired' | 'failed',
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

/** The reason a read that answered `status` gives a comparison that cannot be made. */
export function statusReason(status: number): ComparisonError['reason'] {
  if (status === 401 || status === 403) return 'unauthorized';
  return status === 410 ? 'retired' : 'failed';
}
