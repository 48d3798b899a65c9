import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLegacyClient } from '../legacy/legacy-client.js';
import { json, startStubBackend, type StubBackend } from '../legacy/stub-backend.test-helpers.js';
import { createReferenceUnits } from './reference-units.js';

const organisation = '00000000-0000-4000-8000-000000000000';
const unit = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** Seven units; the 2nd, 4th, 5th and 7th have a manager. */
const units = [1, 2, 3, 4, 5, 6, 7].map((n) => ({ uuid: unit(n), name: `Unit ${n}` }));
const managed = new Set([unit(2), unit(4), unit(5), unit(7)]);

let backend: StubBackend;
/** The organisation above; a test that answers otherwise does so for itself alone (see `beforeEach`). */
const answerOrganisation: Parameters<StubBackend['answer']>[0] = (request, response) => {
  const url = new URL(request.url, 'http://stub');
  if (url.pathname === '/service/o/') return json(response, 200, [{ uuid: organisation }]);
  if (url.pathname === `/service/o/${organisation}/ou/`) {
    const start = Number(url.searchParams.get('start'));
    const limit = Number(url.searchParams.get('limit'));
    return json(response, 200, {
      items: units.slice(start, start + limit),
      offset: start,
      total: units.length,
    });
  }
  const details = /^\/service\/ou\/([^/]+)\/details\/manager$/.exec(url.pathname);
  if (details) return json(response, 200, managed.has(details[1]!) ? [{ uuid: 'manager' }] : []);
  return json(response, 404, { error: true, status: 404, error_key: 'E_NOT_FOUND', description: 'No.' });
};
beforeAll(async () => {
  backend = await startStubBackend();
});
// Each test starts from the organisation and an empty log, whichever test ran before it (the order is shuffled).
beforeEach(() => {
  backend.answer(answerOrganisation);
  backend.received.length = 0;
});
afterAll(() => backend.close());

const legacyClient = () =>
  createLegacyClient({
    url: new URL(backend.url),
    connectTimeoutMs: 30_000,
    responseTimeoutMs: 30_000,
    auth: { mode: 'relay' },
  });

describe('the reference units', () => {
  it('are the first units with a manager, in the backend’s order, read with the caller’s token', async () => {
    backend.received.length = 0;
    const found = await createReferenceUnits({ legacy: legacyClient(), pageSize: 3 }).find(
      'Bearer page-token',
    );
    expect(found).toEqual([unit(2), unit(4), unit(5)]);
    // Two pages of three were enough: the seventh unit was never asked about.
    expect(backend.received.some((request) => request.url.includes(unit(7)))).toBe(false);
    expect(backend.received.every((request) => request.headers.authorization === 'Bearer page-token')).toBe(
      true,
    );
  });

  it('are looked up once while kept, and again once they expire', async () => {
    let clock = 0;
    const referenceUnits = createReferenceUnits({ legacy: legacyClient(), ttlMs: 1000, now: () => clock });
    backend.received.length = 0;
    await Promise.all([referenceUnits.find('Bearer a'), referenceUnits.find('Bearer b')]);
    const firstLookup = backend.received.length;
    expect(firstLookup).toBeGreaterThan(0);
    await referenceUnits.find('Bearer a');
    expect(backend.received.length).toBe(firstLookup);
    clock = 1001;
    await referenceUnits.find('Bearer a');
    expect(backend.received.length).toBeGreaterThan(firstLookup);
  });

  it('keep no failure: a refused lookup is tried again', async () => {
    const referenceUnits = createReferenceUnits({ legacy: legacyClient() });
    backend.answer((_request, response) =>
      json(response, 401, {
        error: true,
        status: 401,
        error_key: 'E_UNAUTHORIZED',
        description: 'No token.',
      }),
    );
    await expect(referenceUnits.find(undefined)).rejects.toThrow('No token.');
    backend.answer((request, response) =>
      json(
        response,
        200,
        request.url === '/service/o/' ? [{ uuid: organisation }] : { items: [], offset: 0, total: 0 },
      ),
    );
    await expect(referenceUnits.find(undefined)).resolves.toEqual([]);
  });

  it('are the configured units when some are configured, with no legacy call', async () => {
    backend.received.length = 0;
    const configured = [unit(3), unit(1)];
    expect(await createReferenceUnits({ legacy: legacyClient(), configured }).find('Bearer t')).toEqual(
      configured,
    );
    expect(backend.received).toHaveLength(0);
  });
});
