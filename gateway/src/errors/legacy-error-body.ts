import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { GatewayError, noSuchEndpoint, unexpectedError } from './gateway-error.js';

/** Told about errors that are not a `GatewayError`, which the client only sees as `E_UNKNOWN`. */
export type UnexpectedErrorLog = (c: Context, error: unknown) => void;

/** The legacy API's error body, which `/service` and `/migration` clients already read. */
export function legacyErrorBody(error: GatewayError) {
  return {
    error: true,
    status: error.status,
    error_key: error.errorKey,
    description: error.message,
    ...error.context,
  };
}

export function legacyErrorResponse(c: Context, error: GatewayError): Response {
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  return c.json(legacyErrorBody(error), error.status);
}

/**
 * `onError` for route families that answer in the legacy shape (`/service`, `/migration` and the gateway's
 * own routes): a `GatewayError` as `{"error": true, "status", "error_key", "description", …}`, anything
 * else logged and answered `500 E_UNKNOWN`.
 *
 * @example
 * routes.onError(legacyErrorHandler((c, error) => log.error({ err: error }, 'unexpected error')));
 */
export function legacyErrorHandler(logUnexpected: UnexpectedErrorLog): ErrorHandler {
  return (error, c) => {
    if (error instanceof GatewayError) return legacyErrorResponse(c, error);
    logUnexpected(c, error);
    return legacyErrorResponse(c, unexpectedError());
  };
}

export const legacyNotFound: NotFoundHandler = (c) => legacyErrorResponse(c, noSuchEndpoint());
