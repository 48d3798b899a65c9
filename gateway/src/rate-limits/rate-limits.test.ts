import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../errors/gateway-error.js';
import { readRateLimitConfig } from './rate-limit-config.js';
import { createRateLimits } from './rate-limits.js';

function limitsFor(env: Record<string, string>) {
  const registry = new Registry();
  const config = readRateLimitConfig(env)!;
  return { limits: createRateLimits({ config, registry }), registry };
}

async function refusal(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof GatewayError)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  return error;
}

describe('per-client rate limits (in memory)', () => {
  it('admits a client its requests per window, then answers 429 with Retry-After and the IETF headers', async () => {
    const { limits, registry } = limitsFor({ RATE_LIMIT_REQUESTS: '3', RATE_LIMIT_WINDOW_SECONDS: '60' });
    const first = await limits.admit('integration');
    expect(first['RateLimit-Policy']).toBe('"requests";q=3;w=60');
    expect(first.RateLimit).toMatch(/^"requests";r=2;t=(59|60)$/);
    await limits.admit('integration');
    expect((await limits.admit('integration')).RateLimit).toMatch(/^"requests";r=0;t=\d+$/);

    const refused = await refusal(limits.admit('integration'));
    expect([refused.status, refused.code, refused.errorKey]).toEqual([429, 'RATE_LIMITED', 'E_RATE_LIMITED']);
    expect(refused.message).toMatch(
      /^Client "integration" has used its 3 requests of this 60-second window: try again in \d+ s\.$/,
    );
    expect(Number(refused.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['Retry-After'])).toBeLessThanOrEqual(60);
    expect(refused.headers['RateLimit-Policy']).toBe('"requests";q=3;w=60');
    expect(refused.headers.RateLimit).toMatch(/^"requests";r=0;t=\d+$/);
    expect(refused.context).toMatchObject({ limit: 'requests', quota: 3, window_seconds: 60 });
    expect(await registry.getSingleMetricAsString('gateway_rate_limited_total')).toContain(
      'gateway_rate_limited_total{client="other",limit="requests"} 1',
    );
  });

  it('counts each client apart', async () => {
    const { limits } = limitsFor({ RATE_LIMIT_REQUESTS: '1' });
    await limits.admit('integration');
    await expect(limits.admit('integration')).rejects.toThrow(GatewayError);
    await expect(limits.admit('payroll')).resolves.toMatchObject({
      'RateLimit-Policy': '"requests";q=1;w=60',
    });
    // A token without azp has a count of its own, not another client's.
    await expect(limits.admit(undefined)).resolves.toBeDefined();
  });

  it('gives a client named in RATE_LIMIT_CLIENTS its own allowance, and names it on the metric', async () => {
    const { limits, registry } = limitsFor({
      RATE_LIMIT_REQUESTS: '1',
      RATE_LIMIT_CLIENTS: JSON.stringify({ payroll: { requests: 2 }, 'org-frontend': { legacy_calls: 5 } }),
    });
    await limits.admit('payroll');
    expect((await limits.admit('payroll'))['RateLimit-Policy']).toBe('"requests";q=2;w=60');
    await expect(limits.admit('payroll')).rejects.toThrow('its 2 requests');
    expect(await registry.getSingleMetricAsString('gateway_rate_limited_total')).toContain(
      'gateway_rate_limited_total{client="payroll",limit="requests"} 1',
    );
    // The frontend's own allowance names no request limit: its requests are not counted, its legacy calls are.
    for (let i = 0; i < 5; i++) await limits.admit('org-frontend');
    expect((await limits.admit('org-frontend'))['RateLimit-Policy']).toBe('"legacy-calls";q=5;w=60');
  });

  it('refuses a client that has made its legacy calls for the window, counting what each request made', async () => {
    const { limits } = limitsFor({ RATE_LIMIT_LEGACY_CALLS: '10' });
    const before = await limits.admit('integration');
    expect(before).toEqual({
      'RateLimit-Policy': '"legacy-calls";q=10;w=60',
      RateLimit: '"legacy-calls";r=10;t=60',
    });
    await limits.charge('integration', 7);
    expect((await limits.admit('integration')).RateLimit).toMatch(/^"legacy-calls";r=3;t=\d+$/);
    // A request is admitted while calls are left, and charged what it made, even past the allowance.
    await limits.charge('integration', 6);
    const refused = await refusal(limits.admit('integration'));
    expect(refused.context).toMatchObject({ limit: 'legacy_calls', quota: 10 });
    expect(refused.headers.RateLimit).toMatch(/^"legacy-calls";r=0;t=\d+$/);
    // Another client's calls are its own.
    await expect(limits.admit('payroll')).resolves.toBeDefined();
  });

  it('sends both policies when both limits apply', async () => {
    const { limits } = limitsFor({
      RATE_LIMIT_REQUESTS: '100',
      RATE_LIMIT_LEGACY_CALLS: '1000',
      RATE_LIMIT_WINDOW_SECONDS: '30',
    });
    const headers = await limits.admit('integration');
    expect(headers['RateLimit-Policy']).toBe('"requests";q=100;w=30, "legacy-calls";q=1000;w=30');
    expect(headers.RateLimit).toMatch(/^"requests";r=99;t=\d+, "legacy-calls";r=1000;t=30$/);
  });
});

describe('readRateLimitConfig', () => {
  it('is undefined when no limit is set: per-client limits have no safe default for a shared UI client', () => {
    expect(readRateLimitConfig({})).toBeUndefined();
    expect(readRateLimitConfig({ RATE_LIMIT_WINDOW_SECONDS: '10' })).toBeUndefined();
  });

  it('reads the default allowance, the window and each client’s own', () => {
    const config = readRateLimitConfig({
      RATE_LIMIT_REQUESTS: '600',
      RATE_LIMIT_WINDOW_SECONDS: '120',
      RATE_LIMIT_CLIENTS: '{"integration": {"requests": 1200, "legacy_calls": 50000}}',
    })!;
    expect(config.windowSeconds).toBe(120);
    expect(config.allowance).toEqual({ requests: 600, legacyCalls: undefined });
    expect(config.clients.get('integration')).toEqual({ requests: 1200, legacyCalls: 50000 });
  });

  it.each([
    [{ RATE_LIMIT_REQUESTS: '0' }, 'RATE_LIMIT_REQUESTS'],
    [{ RATE_LIMIT_LEGACY_CALLS: '1.5' }, 'RATE_LIMIT_LEGACY_CALLS'],
    [{ RATE_LIMIT_REQUESTS: '1', RATE_LIMIT_WINDOW_SECONDS: '100000' }, 'RATE_LIMIT_WINDOW_SECONDS'],
    [{ RATE_LIMIT_CLIENTS: 'integration=5' }, 'RATE_LIMIT_CLIENTS'],
    [{ RATE_LIMIT_CLIENTS: '[1]' }, 'RATE_LIMIT_CLIENTS'],
    [{ RATE_LIMIT_CLIENTS: '{"integration": {"request": 5}}' }, 'RATE_LIMIT_CLIENTS (client "integration")'],
    [
      { RATE_LIMIT_CLIENTS: '{"integration": {"requests": -1}}' },
      'RATE_LIMIT_CLIENTS (client "integration") requests',
    ],
  ])('refuses %o, naming %s', (env, variable) => {
    expect(() => readRateLimitConfig(env)).toThrow(variable);
  });
});
