import { describe, expect, it } from 'vitest';
import type { Principal } from '../auth/principal.js';
import { eventOwner } from './event-owner.js';
import { decodeEventToken, encodeEventToken } from './event-token.js';

const principal = (overrides: Partial<Principal>): Principal => ({
  subject: 'sub',
  username: undefined,
  clientId: 'integration',
  roles: [],
  employeeUuid: undefined,
  ...overrides,
});

describe('eventOwner', () => {
  it("is the token's uuid claim, as OS2mo's get_authenticated_user", () => {
    const uuid = 'A7C1B7B2-52F6-4A7A-9A8B-0F2B5C3D4E5F';
    expect(eventOwner(principal({ employeeUuid: uuid }))).toBe(uuid.toLowerCase());
  });

  it('is made from the client when the token has no uuid claim: one per client, the same each time', () => {
    const integration = eventOwner(principal({ clientId: 'integration' }));
    expect(integration).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(eventOwner(principal({ clientId: 'integration', subject: 'other' }))).toBe(integration);
    expect(eventOwner(principal({ clientId: 'payroll' }))).not.toBe(integration);
    // A uuid claim that is no UUID does not name an owner.
    expect(eventOwner(principal({ clientId: 'integration', employeeUuid: 'alice' }))).toBe(integration);
  });
});

describe('event tokens', () => {
  it('round-trip, and anything else is no token', () => {
    const token = {
      event: '11111111-1111-4111-8111-111111111111',
      generation: '22222222-2222-4222-8222-222222222222',
    };
    expect(decodeEventToken(encodeEventToken(token))).toEqual(token);
    expect(decodeEventToken('not-a-token')).toBeUndefined();
    expect(decodeEventToken(Buffer.from(`${token.event}.x`).toString('base64'))).toBeUndefined();
  });
});
