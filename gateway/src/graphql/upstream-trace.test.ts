import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubBackend, type StubBackend } from '../legacy/stub-backend.test-helpers.js';
import { answerStubOrg, stubOrg, stubbedVersions, type StubbedVersions } from './stub-org.test-helpers.js';
import { traceablePath } from './upstream-trace.js';

const query = `{
  org_units(filter: { uuids: ["${stubOrg.unit}"] }) {
    objects { managers { employee { engagements { uuid } } } }
  }
}`;

describe('the upstream trace', () => {
  let backend: StubBackend;
  let traced: StubbedVersions;
  let untraced: StubbedVersions;
  beforeAll(async () => {
    backend = await startStubBackend();
    backend.answer(answerStubOrg);
    traced = stubbedVersions(backend, { upstreamTrace: true });
    untraced = stubbedVersions(backend, { upstreamTrace: false });
  });
  afterAll(async () => {
    await traced.close();
    await untraced.close();
    await backend.close();
  });

  it('lists every legacy call of the operation, in its dependent rounds, for X-Upstream-Trace: 1', async () => {
    const { body } = await traced.ask('v2', query, { headers: { 'x-upstream-trace': '1' } });
    expect(body.errors).toBeUndefined();
    const upstream = body.extensions?.upstream as { requests: number; rounds: number; calls: any[] };
    expect(upstream.requests).toBe(2);
    expect(upstream.rounds).toBe(2);
    expect(
      upstream.calls.map(({ method, path, status, round }) => ({ method, path, status, round })),
    ).toEqual([
      {
        method: 'GET',
        path: `/service/ou/${stubOrg.unit}/details/manager?at=2024-06-01`,
        status: 200,
        round: 1,
      },
      {
        method: 'GET',
        path: `/service/e/${stubOrg.person}/details/engagement?at=2024-06-01`,
        status: 200,
        round: 2,
      },
    ]);
    for (const call of upstream.calls) {
      expect(call.duration_ms).toEqual(expect.any(Number));
      expect(call.started_ms).toEqual(expect.any(Number));
    }
    // The trace names paths, never the legacy service's address.
    expect(JSON.stringify(upstream)).not.toContain(new URL(backend.url).host);
  });

  it('is left out without the header', async () => {
    const { body } = await traced.ask('v2', query);
    expect(body.extensions?.upstream).toBeUndefined();
  });

  it('is left out when configuration switches it off, whatever the request asks', async () => {
    const { body } = await untraced.ask('v2', query, { headers: { 'x-upstream-trace': '1' } });
    expect(body.data).toBeDefined();
    expect(body.extensions?.upstream).toBeUndefined();
  });
});

describe('a traced path', () => {
  it('hides the CPR number of a lookup and leaves every other path as it was', () => {
    expect(traceablePath('/service/e/cpr_lookup/?q=0101011234')).toBe('/service/e/cpr_lookup/?q=hidden');
    expect(traceablePath('/service/e/cpr_lookup/?q=0101011234&at=2024-01-01')).toBe(
      '/service/e/cpr_lookup/?q=hidden',
    );
    const detail = `/service/ou/${stubOrg.unit}/details/manager?at=2024-06-01`;
    expect(traceablePath(detail)).toBe(detail);
  });
});
