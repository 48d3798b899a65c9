import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayApp } from '../../app.js';
import { ComparisonError } from '../comparison-error.js';
import { readGatewayConfig } from '../../config.js';
import { prometheusUsage } from './prometheus-usage.js';

/** A server that answers every query with Prometheus' error body, as a Prometheus refusing bad PromQL does. */
const refusing = createServer((_request, response) => {
  response.writeHead(400, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ status: 'error', errorType: 'bad_data', error: 'parse error' }));
});
let refusingUrl: URL;

beforeAll(async () => {
  await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
  refusingUrl = new URL(`http://127.0.0.1:${(refusing.address() as AddressInfo).port}/internal/prometheus`);
});
afterAll(() => new Promise((resolve) => refusing.close(resolve)));

const options = { windowSeconds: 90 * 86_400, now: new Date('2026-01-01T00:00:00Z') };

describe('usage from Prometheus', () => {
  it('says which variable names an unreachable Prometheus, never its internal address', async () => {
    const closed = new URL('http://127.0.0.1:9/internal/prometheus');
    const failure = await prometheusUsage({ ...options, url: closed }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ComparisonError);
    expect((failure as Error).message).toMatch(
      /^Cannot read usage from Prometheus \(USAGE_PROMETHEUS_URL\): /,
    );
    expect((failure as Error).message).not.toContain('127.0.0.1');
  });

  it('sends the configured Authorization to Prometheus', async () => {
    let seen: string | undefined;
    const guarded = createServer((request, response) => {
      seen = request.headers.authorization;
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ status: 'error', error: 'unauthorized' }));
    });
    await new Promise<void>((resolve) => guarded.listen(0, '127.0.0.1', resolve));
    try {
      const url = new URL(`http://127.0.0.1:${(guarded.address() as AddressInfo).port}`);
      await prometheusUsage({ ...options, url, authorization: () => 'Bearer tok-123' }).catch(
        () => undefined,
      );
      expect(seen).toBe('Bearer tok-123');
    } finally {
      await new Promise((resolve) => guarded.close(resolve));
    }
  });

  it("passes on Prometheus' reason when it refuses a query", async () => {
    const failure = await prometheusUsage({ ...options, url: refusingUrl }).catch((error: unknown) => error);
    expect((failure as Error).message).toBe(
      'Prometheus (USAGE_PROMETHEUS_URL) refused the usage query (400: parse error).',
    );
    expect((failure as Error).message).not.toContain('/internal/prometheus');
  });

  it('is served at /migration/usage behind the bearer token', async () => {
    const gateway = createGatewayApp(readGatewayConfig({ LOG_LEVEL: 'silent' }));
    try {
      const response = await gateway.app.request('/migration/usage');
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error_key: 'E_UNAUTHORIZED' });
    } finally {
      await gateway.close();
    }
  });
});
