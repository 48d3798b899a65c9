import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oscarOwnedUnitUuid, referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import { startTestStack, type TestStack } from './stack.js';

// Issue 20, item 5: one coverage run cost ~2,900 legacy calls, open to every reader, uncached and unbounded
// in number. The workbench's JSON routes are now for admins (RBAC on), run one at a time and keep answers
// per data version.

let stack: TestStack;
let admin: string;
beforeAll(async () => {
  stack = await startTestStack();
  admin = `Bearer ${await stack.token('alice')}`;
});
afterAll(() => stack.close());

/** Requests the legacy service has served so far (its own count). */
const legacyServed = async () =>
  ((await (await fetch(`${stack.legacyUrl}/health`)).json()) as { requests_served: number }).requests_served;

const compare = (authorization: string, body: unknown = { units: referenceUnitUuids, version: 'v2' }) =>
  fetch(`${stack.gatewayUrl}/migration/compare`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization },
    body: JSON.stringify(body),
  });
const coverage = (authorization: string, query = '') =>
  fetch(`${stack.gatewayUrl}/migration/coverage${query}`, { headers: { authorization } });

describe('the migration workbench’s routes', () => {
  it('refuse users without the admin role before reading anything', async () => {
    for (const user of ['nora', 'oscar']) {
      const authorization = `Bearer ${await stack.token(user)}`;
      const before = await legacyServed();
      const answers = [
        await coverage(authorization),
        await compare(authorization),
        await fetch(`${stack.gatewayUrl}/migration/shadow`, { headers: { authorization } }),
      ];
      for (const answer of answers) {
        expect(answer.status, `${user} ${answer.url}`).toBe(403);
        expect(await answer.json()).toMatchObject({
          error: true,
          status: 403,
          error_key: 'E_FORBIDDEN',
          description: expect.stringContaining('"admin"'),
        });
      }
      expect(await legacyServed()).toBe(before);
    }
  });

  it('keep a comparison until the data changes: a repeat costs one legacy call', async () => {
    const first = await compare(admin);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-migration-cache')).toBe('miss');
    const report = await first.json();

    const before = await legacyServed();
    const again = await compare(admin);
    expect(again.headers.get('x-migration-cache')).toBe('hit');
    expect(await again.json()).toEqual(report);
    // Only the read that asks the backend for its data version.
    expect((await legacyServed()) - before).toBe(1);

    // Other arguments are another answer.
    const otherVersion = await compare(admin, { units: referenceUnitUuids, version: 'v1' });
    expect(otherVersion.headers.get('x-migration-cache')).toBe('miss');

    // A write anywhere changes the data version, so the next comparison runs again.
    const write = await fetch(`${stack.gatewayUrl}/service/details/edit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: admin },
      body: JSON.stringify({
        type: 'org_unit',
        data: {
          uuid: oscarOwnedUnitUuid,
          name: 'Renamed for the workbench',
          validity: { from: '2026-01-01' },
        },
      }),
    });
    expect(write.status, await write.text()).toBe(200);
    expect((await compare(admin)).headers.get('x-migration-cache')).toBe('miss');
    expect((await compare(admin)).headers.get('x-migration-cache')).toBe('hit');
    // And ?refresh=true runs it regardless.
    const refreshed = await fetch(`${stack.gatewayUrl}/migration/compare?refresh=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: admin },
      body: JSON.stringify({ units: referenceUnitUuids, version: 'v2' }),
    });
    expect(refreshed.headers.get('x-migration-cache')).toBe('miss');
  });

  it('run one report at a time: the same report is shared, another is refused with 503 MIGRATION_BUSY', async () => {
    const before = await legacyServed();
    const running = coverage(admin);
    // The coverage run makes thousands of legacy calls; wait until it is under way.
    await expect
      .poll(async () => (await legacyServed()) - before, { interval: 20, timeout: 15_000 })
      .toBeGreaterThan(20);

    const busy = await compare(admin, { units: [referenceUnitUuids[0]], version: 'v2' });
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('5');
    expect(await busy.json()).toMatchObject({ error_key: 'E_MIGRATION_BUSY', status: 503 });

    const joining = await coverage(admin);
    const first = await running;
    expect(first.status).toBe(200);
    expect(first.headers.get('x-migration-cache')).toBe('miss');
    expect(joining.headers.get('x-migration-cache')).toBe('joined');
    const report = await first.json();
    expect(await joining.json()).toEqual(report);

    const afterRun = await legacyServed();
    const kept = await coverage(admin);
    expect(kept.headers.get('x-migration-cache')).toBe('hit');
    expect((await legacyServed()) - afterRun).toBe(1);
  }, 120_000);
});
