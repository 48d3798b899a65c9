import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayApp, type GatewayApp } from '../gateway/src/app.js';
import type { ShadowConfig } from '../gateway/src/config.js';
import {
  inProcessExecutor,
  type ShadowComparisonResult,
  type ShadowExecutor,
  type ShadowSnapshot,
} from '../gateway/src/comparison/shadow/shadow.js';
import { buildVersions } from '../gateway/src/graphql/versions.js';
import { createLegacyClient, type LegacyClient } from '../gateway/src/legacy/legacy-client.js';
import { referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import { changeManagerType } from './legacy-edits.js';
import { startTestStack, type TestStack } from './stack.js';

/**
 * The shadow comparison on a gateway of its own (sharing the stack's legacy service and identity provider),
 * so each test chooses the sample rate, the queue and, where it must, holds or changes the GraphQL side.
 */
let stack: TestStack;
let token: string;
let legacyClient: LegacyClient;
let realExecutor: ShadowExecutor;
const started: { server: Server; gateway: GatewayApp }[] = [];
const metricsToken = 'shadow-test-metrics-token';

beforeAll(async () => {
  stack = await startTestStack();
  token = await stack.token('alice');
  legacyClient = createLegacyClient(stack.gateway.config.legacy);
  // The version the shadow asks (v30, or v2 where the OS2mo road falls back), run in-process as the app does.
  const executors = new Map(
    buildVersions().map((version) => [
      version.name,
      inProcessExecutor({ schema: version.schema, legacy: legacyClient }),
    ]),
  );
  realExecutor = (request, context) => executors.get(context.version)!(request, context);
});

afterAll(async () => {
  for (const { server, gateway } of started) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await gateway.close();
  }
  await legacyClient?.close();
  await stack?.close();
});

interface ShadowGateway {
  url: string;
  results: ShadowComparisonResult[];
  get(path: string): Promise<{ status: number; contentType: string | null; body: Buffer }>;
  snapshot(): Promise<ShadowSnapshot>;
  /** Waits until no sampled read is still pending. */
  settled(): Promise<ShadowSnapshot>;
}

async function startShadowGateway(
  shadow: Partial<ShadowConfig>,
  executor?: ShadowExecutor,
): Promise<ShadowGateway> {
  const base = stack.gateway.config;
  const results: ShadowComparisonResult[] = [];
  const gateway = createGatewayApp(
    {
      ...base,
      logLevel: 'silent',
      operations: { ...base.operations, metricsToken },
      shadow: { ...base.shadow, sampleRate: 1, ...shadow },
    },
    { shadow: { executor, onResult: (result) => results.push(result) } },
  );
  const server = createServer(getRequestListener(gateway.app.fetch));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  started.push({ server, gateway });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async (path: string) => {
    const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      body: Buffer.from(await response.arrayBuffer()),
    };
  };
  const snapshot = async () => JSON.parse((await get('/migration/shadow')).body.toString()) as ShadowSnapshot;
  const settled = async () => {
    await expect.poll(async () => (await snapshot()).counts.pending, { timeout: 20_000 }).toBe(0);
    return snapshot();
  };
  return { url, results, get, snapshot, settled };
}

/** What the legacy service itself answers, for the byte-for-byte comparison. */
async function legacyRead(path: string) {
  const response = await stack.legacyFetch(path);
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    body: Buffer.from(await response.arrayBuffer()),
  };
}

/** A promise with its resolve function: holds the GraphQL side of a comparison until the test releases it. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

const counterValue = (metrics: string, result: string) =>
  Number(
    new RegExp(`^gateway_shadow_comparisons_total\\{result="${result}"\\} (\\d+)`, 'm').exec(metrics)?.[1],
  );

describe('shadow comparison of /service reads', () => {
  it('is off by default: nothing is sampled', async () => {
    const response = await fetch(`${stack.gatewayUrl}/service/ou/${referenceUnitUuids[0]}/details/manager`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    const snapshot = await (
      await fetch(`${stack.gatewayUrl}/migration/shadow`, { headers: { authorization: `Bearer ${token}` } })
    ).json();
    expect(snapshot).toMatchObject({ enabled: false, sample_rate: 0, counts: { sampled: 0 } });
  });

  it('needs the bearer token to be viewed', async () => {
    const response = await fetch(`${stack.gatewayUrl}/migration/shadow`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error_key: 'E_UNAUTHORIZED' });
  });

  it('changes no byte and no status of a stream of reads, and its counters add up to the sampled reads', async () => {
    const shadow = await startShadowGateway({ concurrency: 2, queueSize: 1_000 });
    const people = await Promise.all(
      referenceUnitUuids.map(async (unit) => {
        const listing = JSON.parse(
          (await legacyRead(`/service/ou/${unit}/details/manager`)).body.toString(),
        ) as { person: { uuid: string } }[];
        return listing[0]!.person.uuid;
      }),
    );
    const supported = [
      ...referenceUnitUuids.flatMap((unit) => [
        `/service/ou/${unit}/`,
        `/service/ou/${unit}/details/manager`,
        `/service/ou/${unit}/details/manager?at=2021-06-01`,
        `/service/ou/${unit}/?validity=present`,
        // Every other detail listing is compared with its GraphQL field as well.
        `/service/ou/${unit}/details/address`,
        `/service/ou/${unit}/details/owner`,
      ]),
      ...people.flatMap((person) => [
        `/service/e/${person}/`,
        `/service/e/${person}/details/engagement`,
        `/service/e/${person}/details/it`,
      ]),
    ];
    const notSampled = [
      `/service/ou/${referenceUnitUuids[0]}/children`,
      `/service/ou/${referenceUnitUuids[0]}/details/org_unit`,
      `/service/ou/${referenceUnitUuids[0]}/details/manager?validity=past`,
      '/service/o/',
      '/service/ou/00000000-0000-4000-8000-000000000000/',
    ];
    const stream = [...supported, ...supported, ...notSampled];
    const answers = await Promise.all(stream.map((path) => shadow.get(path)));
    for (const [index, path] of stream.entries()) {
      const expected = await legacyRead(path);
      expect({ path, ...answers[index]! }).toEqual({ path, ...expected });
    }

    const snapshot = await shadow.settled();
    const sampled = supported.length * 2;
    expect(snapshot.counts).toEqual({
      sampled,
      match: sampled,
      mismatch: 0,
      error: 0,
      dropped: 0,
      pending: 0,
      // The missing unit's 404 was chosen by the sample rate but has nothing to compare.
      skipped: 1,
    });
    expect(shadow.results).toHaveLength(sampled);
    expect(new Set(shadow.results.map((result) => result.kind))).toEqual(
      new Set([
        'unit',
        'unit_managers',
        'unit_addresses',
        'unit_owners',
        'employee',
        'employee_engagements',
        'employee_itusers',
      ]),
    );

    const metrics = await (
      await fetch(`${shadow.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })
    ).text();
    expect(
      counterValue(metrics, 'match') + counterValue(metrics, 'mismatch') + counterValue(metrics, 'error'),
    ).toBe(sampled);
  });

  it('records a mismatch, viewable at /migration/shadow, when the legacy record changes before the GraphQL query', async () => {
    const unit = referenceUnitUuids[2]!;
    let change: Awaited<ReturnType<typeof changeManagerType>> | undefined;
    const shadow = await startShadowGateway({}, async (request, context) => {
      // Between the passthrough's answer and the shadow's query, someone edits the manager.
      change ??= await changeManagerType(stack.legacyFetch, unit);
      return realExecutor(request, context);
    });
    const path = `/service/ou/${unit}/details/manager`;
    const before = await legacyRead(path);
    const answer = await shadow.get(path);
    expect(answer).toEqual(before);

    const snapshot = await shadow.settled();
    expect(snapshot.counts).toMatchObject({ sampled: 1, match: 0, mismatch: 1, error: 0, dropped: 0 });
    expect(snapshot.mismatches).toHaveLength(1);
    const [mismatch] = snapshot.mismatches;
    expect(mismatch).toMatchObject({ kind: 'unit_managers', path });
    // The edit starts a new validity today and changes the type in it.
    expect(mismatch!.differences).toEqual([
      {
        path: `managers[${change!.managerUuid}].manager_type.user_key`,
        legacy: change!.before,
        graphql: change!.after,
      },
      {
        path: `managers[${change!.managerUuid}].validity.from`,
        legacy: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        graphql: new Date().toISOString().slice(0, 10),
      },
    ]);
    expect(mismatch!.difference_count).toBe(2);
    expect(mismatch!.graphql.query).toContain('managers {');
    // Compared on OS2mo's v30, in its shape: the response's `current`, as of the read's day.
    expect(mismatch!.version).toBe('v30');
    expect(mismatch!.graphql.query).toMatch(/objects \{\s+current\(at: \$at\) \{/);
    expect(shadow.results).toEqual([expect.objectContaining({ result: 'mismatch', path })]);
  });

  it('sends the response before the shadow work starts, and never waits for it', async () => {
    const executing = deferred();
    const release = deferred();
    const shadow = await startShadowGateway({}, async (request, context) => {
      executing.resolve();
      await release.promise;
      return realExecutor(request, context);
    });
    const path = `/service/ou/${referenceUnitUuids[0]}/details/manager`;
    // The whole response arrives while the comparison it triggered is held.
    const answer = await shadow.get(path);
    expect(answer).toEqual(await legacyRead(path));
    await executing.promise;
    expect((await shadow.snapshot()).counts).toMatchObject({ sampled: 1, pending: 1 });

    release.resolve();
    expect((await shadow.settled()).counts).toMatchObject({ sampled: 1, match: 1, pending: 0 });
  });

  it('drops and counts reads when its queue is full, without failing any response', async () => {
    const executing = deferred();
    const release = deferred();
    const shadow = await startShadowGateway({ concurrency: 1, queueSize: 1 }, async (request, context) => {
      executing.resolve();
      await release.promise;
      return realExecutor(request, context);
    });
    const path = `/service/ou/${referenceUnitUuids[0]}/`;
    const expected = await legacyRead(path);
    expect(await shadow.get(path)).toEqual(expected);
    await executing.promise;
    for (let read = 2; read <= 4; read += 1) {
      expect(await shadow.get(path)).toEqual(expected);
      // Each read's comparison has been queued or dropped before the next read.
      await expect
        .poll(async () => {
          const { queue, counts } = await shadow.snapshot();
          return queue.waiting + counts.dropped;
        })
        .toBe(read - 1);
    }
    const full = await shadow.snapshot();
    expect(full.counts).toMatchObject({ sampled: 4, dropped: 2, pending: 2 });
    expect(full.queue).toMatchObject({ running: 1, waiting: 1 });

    release.resolve();
    const snapshot = await shadow.settled();
    expect(snapshot.counts).toMatchObject({ sampled: 4, match: 2, dropped: 2, mismatch: 0, error: 0 });
    expect(shadow.results.filter((result) => result.result === 'dropped')).toEqual([
      expect.objectContaining({ reason: 'queue_full' }),
      expect.objectContaining({ reason: 'queue_full' }),
    ]);
  });
});

describe('shadow comparison limits', () => {
  it('passes a body over the size cap through unchanged and does not sample it', async () => {
    // The passthrough forwards the legacy Content-Length, so an oversized answer is known before any copy.
    const shadow = await startShadowGateway({ maxBodyBytes: 100 });
    const path = `/service/ou/${referenceUnitUuids[0]}/details/manager`;
    expect(await shadow.get(path)).toEqual(await legacyRead(path));
    expect((await shadow.settled()).counts).toMatchObject({
      sampled: 0,
      skipped: 1,
      dropped: 0,
      match: 0,
      pending: 0,
    });
    expect(shadow.results).toEqual([]);
    expect((await shadow.snapshot()).skipped).toEqual([
      { endpoint: 'GET /service/ou/{uuid}/details/manager', reason: 'not_comparable', count: 1 },
    ]);
  });

  it('counts the reads it cannot compare, by endpoint and reason, instead of skipping them silently', async () => {
    const shadow = await startShadowGateway({});
    const unit = referenceUnitUuids[0];
    expect((await shadow.get(`/service/ou/${unit}/details/manager?inherit_manager=1`)).status).toBe(200);
    expect((await shadow.get(`/service/ou/${unit}/details/manager?validity=past`)).status).toBe(200);
    expect((await shadow.get(`/service/ou/${unit}/children`)).status).toBe(200);
    const snapshot = await shadow.settled();
    expect(snapshot.counts).toMatchObject({ sampled: 0, skipped: 0 });
    expect(snapshot.skipped).toEqual([
      { endpoint: 'GET /service/ou/{uuid}/details/manager', reason: 'unsupported_flags', count: 2 },
      { endpoint: 'GET /service/ou/{uuid}/children', reason: 'unsupported_endpoint', count: 1 },
    ]);
    const metrics = await (
      await fetch(`${shadow.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })
    ).text();
    expect(metrics).toContain(
      'gateway_shadow_skipped_total{endpoint="GET /service/ou/{uuid}/details/manager",reason="unsupported_flags"} 2',
    );
  });
});
