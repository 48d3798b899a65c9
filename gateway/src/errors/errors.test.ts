import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import {
  LegacyBudgetExceededError,
  LegacyResponseError,
  LegacyTimeoutError,
  LegacyUnavailableError,
} from '../legacy/legacy-errors.js';
import { GatewayError } from './gateway-error.js';
import { legacyErrorBody, legacyErrorHandler, legacyNotFound } from './legacy-error-body.js';
import { upstreamError } from './upstream-failure.js';

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

describe('upstreamError', () => {
  it('maps each legacy failure as legacy/ says, for every route family', () => {
    const business = upstreamError(
      new LegacyResponseError(409, {
        error: true,
        status: 409,
        error_key: 'V_DUPLICATE',
        description: 'Already there.',
        uuid: 'u',
      }),
    )!;
    expect([business.status, business.code, business.errorKey, business.message]).toEqual([
      409,
      'CONFLICT',
      'V_DUPLICATE',
      'Already there.',
    ]);
    expect(business.context).toEqual({ legacy_status: 409, uuid: 'u' });
    expect(business.fromLegacyService).toBe(true);

    const timeout = upstreamError(new LegacyTimeoutError())!;
    expect([timeout.status, timeout.errorKey]).toEqual([504, 'E_UPSTREAM_TIMEOUT']);
    const unavailable = upstreamError(
      new LegacyUnavailableError(new Error('connect ECONNREFUSED 10.0.0.1')),
    )!;
    expect([unavailable.status, unavailable.errorKey, unavailable.message]).toEqual([
      502,
      'E_UPSTREAM_UNAVAILABLE',
      'The legacy service cannot be reached.',
    ]);
    expect(upstreamError(new LegacyBudgetExceededError())?.code).toBe('LEGACY_BUDGET_EXCEEDED');
  });

  it('leaves anything else alone', () => {
    expect(upstreamError(new Error('a bug'))).toBeUndefined();
    const own = new GatewayError(400, 'BAD_USER_INPUT', 'No.');
    expect(upstreamError(own)).toBe(own);
  });
});
