import { GatewayError } from './gateway-error.js';

/**
 * A body over a route's limit. The rest of the body is never read, so the connection cannot be reused.
 *
 * @example
 * bufferedBody({ maxSize, timeoutMs, onTooLarge: () => { throw payloadTooLarge(`… ${maxSize} bytes.`, maxSize); }, onTimeout });
 */
export const payloadTooLarge = (description: string, limit: number) =>
  new GatewayError(413, 'PAYLOAD_TOO_LARGE', description, {
    context: { limit },
    headers: { Connection: 'close' },
  });
