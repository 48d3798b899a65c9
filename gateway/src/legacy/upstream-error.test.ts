import { describe, expect, it } from 'vitest';
import { GatewayError } from '../errors/gateway-error.js';
import {
  LegacyBudgetExceededError,
  LegacyResponseError,
  LegacyTimeoutError,
  LegacyUnavailableError,
} from './legacy-errors.js';
import { upstreamError } from './upstream-error.js';

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
