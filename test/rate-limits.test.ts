import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../gateway/src/server.js';
import { startTestPostgres, type TestPostgres } from './postgres.js';
import { startTestStack, type TestStack } from './stack.js';
import { clientToken } from './idp-tokens.js';

/**
 * Per-client rate limits on both roads, across two gateway replicas on one Postgres (Debian's): the web UI's
 * client (`org-frontend`, alice's password grant) has the default allowance, the `integration` client (client
 * credentials) one of its own; each is counted over both replicas and both roads, apart from the other.
 */
let postgres: TestPostgres;
let stack: TestStack;
let second: RunningGateway;
const tokens = { frontend: '', integration: '', payroll: '' };

beforeAll(async () => {
  postgres = await startTestPostgres();
  stack = await startTestStack({
    gatewayEnv: {
      DATABASE_URL: postgres.url,
      METRICS_TOKEN: 'scraper-secret-for-tests',
      RATE_LIMIT_REQUESTS: '6',
      RATE_LIMIT_WINDOW_SECONDS: '3600',
      RATE_LIMIT_CLIENTS: JSON.stringify({ integration: { requests: 100, legacy_calls: 12 } }),
    },
  });
  second = await startGateway({ config: (port) => ({ ...stack.gateway.config, port }) });
  tokens.frontend = await stack.token('alice');
  for (const client of ['integration', 'payroll'] as const) {
    tokens[client] = await clientToken(stack.idp.issuer, client);
  }
}, 120_000);
afterAll(async () => {
  await second?.close();
  await stack?.close();
  await postgres?.close();
});

/** How the tests read `/metrics` (`METRICS_TOKEN`). */
const scraper = { headers: { authorization: 'Bearer scraper-secret-for-tests' } };
const replicas = () => [stack.gatewayUrl, `http://127.0.0.1:${second.port}`];

function graphql(base: string, who: keyof typeof tokens, query: string): Promise<Response> {
  return fetch(`${base}/graphql/v30`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens[who]}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
}
function service(base: string, who: keyof typeof tokens, path = '/service/o/'): Promise<Response> {
  return fetch(`${base}${path}`, { headers: { authorization: `Bearer ${tokens[who]}` } });
}

describe('per-client rate limits across two replicas', () => {
  it('counts a client’s requests on both roads and both replicas, then answers 429 in each road’s body', async () => {
    const [one, two] = replicas() as [string, string];
    const answers = [
      await service(one, 'frontend'),
      await graphql(two, 'frontend', '{ facets(limit: 1) { objects { uuid } } }'),
      await service(two, 'frontend'),
      await graphql(one, 'frontend', '{ facets(limit: 1) { objects { uuid } } }'),
      await service(one, 'frontend'),
      await service(two, 'frontend'),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers[0]!.headers.get('ratelimit-policy')).toBe('"requests";q=6;w=3600');
    expect(answers[5]!.headers.get('ratelimit')).toMatch(/^"requests";r=0;t=\d+$/);

    const refusedService = await service(one, 'frontend');
    expect(refusedService.status).toBe(429);
    expect(Number(refusedService.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refusedService.headers.get('ratelimit-policy')).toBe('"requests";q=6;w=3600');
    expect(await refusedService.json()).toMatchObject({
      error: true,
      status: 429,
      error_key: 'E_RATE_LIMITED',
      description: expect.stringContaining('Client "org-frontend" has used its 6 requests'),
    });

    const refusedGraphql = await graphql(two, 'frontend', '{ facets(limit: 1) { objects { uuid } } }');
    expect(refusedGraphql.status).toBe(429);
    expect(refusedGraphql.headers.get('retry-after')).not.toBeNull();
    const body = (await refusedGraphql.json()) as { errors: { extensions: { code: string } }[] };
    expect(body.errors[0]!.extensions.code).toBe('RATE_LIMITED');

    // Another client's count is its own.
    expect((await service(two, 'payroll')).status).toBe(200);
    // The refusal is counted on the replica that made it, under the default allowance's label.
    const metrics = await (await fetch(`${one}/metrics`, scraper)).text();
    expect(metrics).toMatch(/gateway_rate_limited_total\{client="other",limit="requests"\} [1-9]/);
  });

  it('charges the legacy calls a client’s requests make, on either replica, and refuses past them', async () => {
    const [one, two] = replicas() as [string, string];
    // Each /service read is one legacy call; a v30 query of units and their managers makes several.
    let answer = await graphql(
      one,
      'integration',
      '{ org_units(limit: 3) { objects { current { name managers { uuid } } } } }',
    );
    expect(answer.status).toBe(200);
    const policy = answer.headers.get('ratelimit-policy');
    expect(policy).toBe('"requests";q=100;w=3600, "legacy-calls";q=12;w=3600');
    const refusals: number[] = [];
    for (let attempt = 0; attempt < 12 && refusals.length === 0; attempt++) {
      answer = await service(attempt % 2 === 0 ? two : one, 'integration');
      if (answer.status === 429) refusals.push(attempt);
      else expect(answer.status).toBe(200);
    }
    expect(refusals).toHaveLength(1);
    expect(await answer.json()).toMatchObject({
      error_key: 'E_RATE_LIMITED',
      description: expect.stringContaining('its 12 legacy calls'),
    });
    // A client with an allowance of its own is named on the metric.
    const metrics = await Promise.all(
      replicas().map(async (base) => (await fetch(`${base}/metrics`, scraper)).text()),
    );
    expect(metrics.join('\n')).toMatch(
      /gateway_rate_limited_total\{client="integration",limit="legacy_calls"\} [1-9]/,
    );
  });
});
