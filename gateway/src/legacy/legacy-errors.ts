/** How a legacy call can fail. `upstreamFailure` (upstream-failures.ts) says what each means to a client. */

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

/**
 * The backend has no such path: a 404 with a web framework's body (FastAPI's `{"detail": "Not Found"}`), not
 * the legacy API's own. An OS2mo older than 2.4.0 answers so for the reading API (`/api/v1`). To every other
 * caller it is what it was before: the backend sent something that is not its API.
 */
export class LegacyPathNotFoundError extends LegacyUnavailableError {
  constructor() {
    super(new Error('unexpected status 404'));
    this.name = 'LegacyPathNotFoundError';
  }
}

/** A 404 of a reading API path: a backend older than 2.4.0, or one whose proxy does not pass `/api/v1` on. */
export const isAbsentPath = (error: unknown) =>
  error instanceof LegacyPathNotFoundError || (error instanceof LegacyResponseError && error.status === 404);

export class LegacyTimeoutError extends Error {
  constructor() {
    super('The legacy service did not answer in time.');
    this.name = 'LegacyTimeoutError';
  }
}

/** The gateway could not get its own token for the legacy service (client-credentials mode). */
export class LegacyCredentialError extends Error {
  constructor(reason: string) {
    // The reason names what failed (a status, "unreachable"), never the client secret or a token.
    super(`The gateway could not get its token for the legacy service: ${reason}.`);
    this.name = 'LegacyCredentialError';
  }
}

/** One request has made as many legacy calls as it may; it makes no more. */
export class LegacyBudgetExceededError extends Error {
  constructor() {
    super(
      'The request needs more legacy calls than one request may make. Ask for less at once (a smaller limit, fewer aliases or nested lists), or split it into several requests.',
    );
    this.name = 'LegacyBudgetExceededError';
  }
}
