import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { GatewayError } from './gateway-error.js';
import { legacyErrorBody, legacyErrorHandler, legacyNotFound } from './legacy-error-body.js';

describe('the legacy error body', () => {
  it('is written once from a gateway error: status, key, sentence and context', () => {
    const error = new GatewayError(413, 'PAYLOAD_TOO_LARGE', 'The request body exceeds 10 bytes.', {
      context: { limit: 10 },
    });
    expect(legacyErrorBody(error)).toEqual({
      error: true,
      status: 413,
      error_key: 'E_PAYLOAD_TOO_LARGE',
      description: 'The request body exceeds 10 bytes.',
      limit: 10,
    });
  });

  it('is what a route family with legacyErrorHandler answers, with the error’s headers; unknown paths are 404', async () => {
    const app = new Hono()
      .get('/refused', () => {
        throw new GatewayError(401, 'UNAUTHENTICATED', 'Send a token.', {
          errorKey: 'E_UNAUTHORIZED',
          headers: { 'WWW-Authenticate': 'Bearer realm="org"' },
        });
      })
      .notFound(legacyNotFound)
      .onError(legacyErrorHandler(() => undefined));
    const refused = await app.request('/refused');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="org"');
    expect(await refused.json()).toEqual({
      error: true,
      status: 401,
      error_key: 'E_UNAUTHORIZED',
      description: 'Send a token.',
    });
    const missing = await app.request('/nothing-here');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error_key: 'E_NO_SUCH_ENDPOINT' });
  });
});
