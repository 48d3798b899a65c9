import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors/gateway-error.js';
import { LegacyResponseError, LegacyTimeoutError } from '../../legacy/legacy-errors.js';
import { graphqlExtensions } from '../errors.js';
import { withErrorContext, withOs2moErrors } from './error-context.js';

/** The Service API's body of OS2mo's own example (`tests/graphapi/test_exception_context.py`). */
const body = {
  error: true,
  status: 400,
  error_key: 'V_MISSING_REQUIRED_VALUE',
  description: 'Missing address_type',
  key: 'address_type',
};

describe('withErrorContext', () => {
  it("puts a business error's Service API body, unchanged, in error_context beside the gateway's code", () => {
    const mapped = withErrorContext(new LegacyResponseError(400, body));
    expect(mapped).toBeInstanceOf(GatewayError);
    expect(graphqlExtensions(mapped as GatewayError)).toEqual({
      code: 'BAD_USER_INPUT',
      error_key: 'V_MISSING_REQUIRED_VALUE',
      legacy_status: 400,
      key: 'address_type',
      error_context: body,
    });
    expect((mapped as GatewayError).message).toBe('Missing address_type');
  });

  it('leaves every other failure as it is (the version maps it as for every version)', () => {
    const timeout = new LegacyTimeoutError();
    expect(withErrorContext(timeout)).toBe(timeout);
  });

  it('wraps a resolver so that its business errors carry error_context', async () => {
    const failing = withOs2moErrors(async () => {
      throw new LegacyResponseError(404, {
        error: true,
        status: 404,
        error_key: 'E_NOT_FOUND',
        description: 'No.',
      });
    });
    await expect(failing()).rejects.toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      context: { error_context: { error_key: 'E_NOT_FOUND', status: 404 } },
    });
  });
});
