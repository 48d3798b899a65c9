import { GatewayError } from './gateway-error.js';

/**
 * A request body the client did not finish sending within `GATEWAY_BODY_TIMEOUT_MS`, on every route that
 * reads one (`/service` writes and GraphQL alike). The rest of the body is never read, so the connection
 * cannot be reused.
 */
export const bodyTooSlow = () =>
  new GatewayError(
    408,
    'REQUEST_TIMEOUT',
    'The request body was not sent in time. Send the whole body at once, then wait for the answer.',
    { headers: { Connection: 'close' } },
  );

/**
 * A client that closed its connection before its body ended. Nobody reads the answer; as a `GatewayError`
 * it is only counted in the access log, not logged as a failure of ours with a stack.
 */
export const bodyAborted = () =>
  new GatewayError(
    400,
    'REQUEST_ABORTED',
    'The client closed the request before its body ended. Send the whole body again.',
    { headers: { Connection: 'close' } },
  );
