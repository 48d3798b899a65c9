import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdp, type RunningIdp } from '../../../idp/src/server.js';
import { accessToken } from '../../../test/idp-tokens.js';
import { startLegacyService, type LegacyServer } from '../../../legacy-service/src/server.js';
import { readGatewayConfig } from '../config.js';
import { startGateway, type RunningGateway } from '../server.js';
import { createLogger } from './logger.js';

/**
 * Logs and metrics of a real gateway (legacy service and identity provider on loopback ports), with the
 * logger's destination captured: every line the gateway writes is in `lines`.
 */

const metricsToken = 'scrape-token-0123456789';
let dataDir: string;
let legacy: LegacyServer;
let idp: RunningIdp;
let gateway: RunningGateway;
let token: string;
const lines: Record<string, any>[] = [];
let rawLog = '';

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'gateway-observability-'));
  legacy = await startLegacyService({ dataDir });
  idp = await startIdp();
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      rawLog += chunk.toString();
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  gateway = await startGateway({
    logger: createLogger({ level: 'info', destination }),
    config: readGatewayConfig({
      GATEWAY_PORT: '0',
      LEGACY_URL: legacy.url,
      IDP_HOST: '127.0.0.1',
      IDP_PORT: String(idp.port),
      IDP_ISSUER: idp.issuer,
      METRICS_TOKEN: metricsToken,
    }),
  });
  token = await accessToken(idp.issuer, 'nora');
});

afterAll(async () => {
  await gateway?.close();
  await idp?.close();
  await legacy?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const requestLines = (requestId: string | null) =>
  lines.filter((line) => requestId !== null && line.requestId === requestId);

async function graphql(authorization: string, operationName = 'Units') {
  return fetch(`${gateway.url}/graphql/v2`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json', cookie: `session=${token}` },
    body: JSON.stringify({
      query: `query ${operationName} { org_units(limit: 2) { objects { uuid name } } }`,
      operationName,
    }),
  });
}

describe('logs', () => {
  it('writes one access-log line per request with its request id, and never the token', async () => {
    const answers = [
      await graphql(`Bearer ${token}`),
      await fetch(`${gateway.url}/service/o/?access_token=${token}`, {
        headers: { authorization: `Bearer ${token}` },
      }),
      // A token that fails verification is not logged either.
      await graphql(`Bearer ${token}x`),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 401]);

    const [query, service, refused] = answers.map((answer) =>
      requestLines(answer.headers.get('x-request-id')),
    );
    expect(query).toEqual([
      expect.objectContaining({
        level: 'info',
        msg: 'request',
        method: 'POST',
        path: '/graphql/v2',
        route: '/graphql/:version',
        status: 200,
        version: 'v2',
        operationName: 'Units',
        operationType: 'query',
        outcome: 'success',
        durationMs: expect.any(Number),
      }),
    ]);
    // The query string can carry credentials: the path is logged without it.
    // Each line names the token's client; a /service line the contract's endpoint it called.
    expect(service).toEqual([
      expect.objectContaining({
        path: '/service/o/',
        route: '/service/*',
        status: 200,
        client: 'org-frontend',
        endpoint: 'GET /service/o/',
      }),
    ]);
    expect(query).toEqual([expect.objectContaining({ client: 'org-frontend' })]);
    expect(refused).toEqual([expect.objectContaining({ status: 401, version: 'v2' })]);

    expect(rawLog).not.toContain(token);
    expect(rawLog).not.toContain(token.split('.')[2]);
    expect(rawLog.toLowerCase()).not.toContain('bearer');
  });

  it('redacts credentials wherever a log call passes them', () => {
    let written = '';
    const logger = createLogger({
      level: 'info',
      destination: { write: (line: string) => void (written += line) },
    });
    logger.info(
      {
        headers: { authorization: 'Bearer abc.def.ghi', cookie: 'sid=s3cr3t' },
        token: 'tok-1',
        body: { client_secret: 'cs-1', nested: { password: 'pw-1', refresh_token: 'rt-1' } },
      },
      'something',
    );
    expect(written).not.toMatch(/abc\.def|s3cr3t|tok-1|cs-1|pw-1|rt-1/);
    expect(JSON.parse(written)).toMatchObject({
      headers: { authorization: '[redacted]' },
      token: '[redacted]',
    });
  });
});

describe('GET /metrics', () => {
  it('needs the metrics token', async () => {
    expect((await fetch(`${gateway.url}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
  });

  it('counts HTTP requests, GraphQL operations and legacy calls', async () => {
    const before = await scrape();
    await graphql(`Bearer ${token}`, 'Counted');
    await fetch(`${gateway.url}/no/such/page`);
    const afterQuery = await scrape();
    await fetch(`${gateway.url}/service/o/`, { headers: { authorization: `Bearer ${token}` } });
    const after = await scrape();
    const delta = (series: string, from = before, to = after) => value(to, series) - value(from, series);

    expect(delta('gateway_http_requests_total{method="POST",route="/graphql/:version",status="200"}')).toBe(
      1,
    );
    expect(delta('gateway_http_requests_total{method="GET",route="/service/*",status="200"}')).toBe(1);
    expect(delta('gateway_http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(1);
    expect(
      delta(
        'gateway_http_request_duration_seconds_count{method="POST",route="/graphql/:version",status="200"}',
      ),
    ).toBe(1);
    expect(
      delta('gateway_graphql_operations_total{version="v2",operation_type="query",outcome="success"}'),
    ).toBe(1);
    // The query's reads, then exactly one call for the passthrough's streamed response.
    const legacyCalls = 'gateway_legacy_calls_total{method="GET",status_class="2xx"}';
    expect(delta(legacyCalls, before, afterQuery)).toBeGreaterThanOrEqual(1);
    expect(delta(legacyCalls, afterQuery, after)).toBe(1);
    expect(
      delta('gateway_legacy_call_duration_seconds_count{method="GET",status_class="2xx"}', afterQuery),
    ).toBe(1);
    expect(value(after, 'gateway_shadow_comparisons_total{result="mismatch"}')).toBe(0);
    expect(after).toContain('process_cpu_seconds_total');
  });

  it('counts a document that never executes as rejected', async () => {
    const before = await scrape();
    const response = await fetch(`${gateway.url}/graphql/v2`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ no_such_field }' }),
    });
    expect((await response.json()).errors[0].message).toContain('no_such_field');
    const after = await scrape();
    const series = 'gateway_graphql_operations_total{version="v2",operation_type="query",outcome="rejected"}';
    expect(value(after, series) - value(before, series)).toBe(1);
  });
});

async function scrape(): Promise<string> {
  const response = await fetch(`${gateway.url}/metrics`, {
    headers: { authorization: `Bearer ${metricsToken}` },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
}

/** A series' value in Prometheus' text format; 0 when absent. */
function value(text: string, series: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}
