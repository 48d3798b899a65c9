import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { referenceQueryOneLine } from '../gateway/src/graphql/reference-query.js';
import { referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import { accessToken } from '../test/idp-tokens.js';
import { gatewayNodeFlags } from './built-gateway.js';
import { floorRows } from './cpu-floor.js';
import { cpuTimesMs } from './proc.js';
import { BenchStack } from './stack.js';
import { referenceByHand, v30ReferenceQuery } from './v30-plans.js';

/**
 * `npm run bench:cpu`: CPU time each process spends per operation, read from /proc before and after a fixed
 * number of operations. Unlike latency on a shared 2-core machine, CPU per operation hardly moves with
 * whatever else runs, so it is the number to compare when changing the gateway's hot paths. Measured on the
 * production request path: the legacy service checks tokens (`LEGACY_AUTH=on`) and the gateway relays the
 * caller's (`LEGACY_CREDENTIALS=relay`); the direct read sends the same token.
 */
const { values } = parseArgs({
  options: {
    operations: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '8' },
    /** Writes the gateway's V8 CPU profile (`--cpu-prof`) into this folder when it stops. */
    profile: { type: 'string' },
    /** Runs only the cases whose name contains this text. */
    only: { type: 'string' },
  },
});
const operations = Number(values.operations);
const concurrency = Number(values.concurrency);

const pools: Pool[] = [];
const stack = new BenchStack();
try {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-cpu-'));
  stack.removeLater(dataDir);
  const idp = await stack.startIdp(join(dataDir, 'keys'));
  const legacy = await stack.startLegacy(dataDir, idp.port, '0');
  const { process: gateway, url: gatewayUrl } = await stack.startGateway(legacy.url, idp.port, {}, [
    ...gatewayNodeFlags,
    ...(values.profile ? ['--cpu-prof', `--cpu-prof-dir=${values.profile}`] : []),
  ]);

  // Issue 23's floor: the least a Node proxy spends per exchange, measured beside the gateway.
  const bareProxy = await stack.startBareProxy(legacy.url);

  const token = await accessToken(idp.issuer, 'alice');
  const ours = new Pool(gatewayUrl, { connections: concurrency });
  const direct = new Pool(legacy.url, { connections: concurrency });
  const bare = new Pool(bareProxy.url, { connections: concurrency });
  const oursOneAtATime = new Pool(gatewayUrl, { connections: 1 });
  pools.push(ours, direct, bare, oursOneAtATime);

  const request = async (
    pool: Pool,
    path: string,
    init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = {},
  ) => {
    const response = await pool.request({ method: init.method ?? 'GET', path, ...init });
    await response.body.arrayBuffer();
    if (response.statusCode !== 200) throw new Error(`${path} answered ${response.statusCode}`);
  };
  const query = JSON.stringify({ query: referenceQueryOneLine, variables: { uuids: referenceUnitUuids } });
  const detail = `/service/ou/${referenceUnitUuids[0]}/details/manager`;
  const auth = { authorization: `Bearer ${token}` };
  const referenceQuery = (pool: Pool) => () =>
    request(pool, '/graphql/v2', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: query,
    });
  const v30Query = JSON.stringify({ query: v30ReferenceQuery, variables: { uuids: referenceUnitUuids } });
  /** The same six legacy GETs by hand: the legacy CPU a query costs without the gateway. */
  const referenceDirect = () =>
    referenceByHand(async (path) => {
      const response = await direct.request({ method: 'GET', path, headers: auth });
      const body = await response.body.json();
      if (response.statusCode !== 200) throw new Error(`${path} answered ${response.statusCode}`);
      return body;
    }, referenceUnitUuids);
  /**
   * `workers` overrides `--concurrency`: how many requests are in flight at once. `front` is the process in
   * front of the legacy service whose CPU the `gateway_cpu_ms_per_op` column reads: the gateway unless named
   * (on the bare proxy's row it is the bare proxy's CPU; on the direct rows the idle gateway's).
   */
  const cases: { name: string; run: () => Promise<void>; workers?: number; front?: 'bare proxy' | 'none' }[] =
    [
      { name: 'reference query via gateway', run: referenceQuery(ours) },
      // No batching of work across requests: what one client alone costs (issue 16's "one request at a time").
      { name: 'reference query via gateway, one at a time', run: referenceQuery(oursOneAtATime), workers: 1 },
      // Issue 21: the reference query in v30's shape, and the same legacy reads by hand beside it.
      {
        name: 'v30 reference query via gateway',
        run: () =>
          request(ours, '/graphql/v30', {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json' },
            body: v30Query,
          }),
      },
      {
        name: 'reference plan direct, beside v30 (the 6 legacy GETs by hand)',
        run: referenceDirect,
        front: 'none',
      },
      { name: 'detail read via /service passthrough', run: () => request(ours, detail, { headers: auth }) },
      { name: 'detail read direct', run: () => request(direct, detail, { headers: auth }), front: 'none' },
      {
        name: 'detail read via a bare Node proxy',
        run: () => request(bare, detail, { headers: auth }),
        front: 'bare proxy',
      },
    ];
  const frontPid = { gateway: gateway.child.pid, 'bare proxy': bareProxy.child.pid, none: gateway.child.pid };

  const rows = [];
  for (const { name, run, workers = concurrency, front = 'gateway' } of cases.filter(({ name }) =>
    name.includes(values.only ?? ''),
  )) {
    const drive = async (count: number) => {
      let next = 0;
      const worker = async () => {
        while (next < count) {
          next += 1;
          await run();
        }
      };
      await Promise.all(Array.from({ length: workers }, worker));
    };
    await drive(Math.ceil(operations / 4)); // warm-up: JIT, connections, caches
    const cpu = async () => {
      const [gatewayTimes, legacyTimes] = await Promise.all([
        cpuTimesMs(frontPid[front]),
        cpuTimesMs(legacy.child.pid),
      ]);
      if (!gatewayTimes || !legacyTimes) throw new Error('bench:cpu reads CPU time from /proc (Linux only)');
      return { gateway: gatewayTimes, legacy: legacyTimes };
    };
    const before = await cpu();
    const wall = performance.now();
    await drive(operations);
    const elapsed = performance.now() - wall;
    const after = await cpu();
    const perOp = (ms: number) => Math.round((ms / operations) * 1000) / 1000;
    rows.push({
      name,
      concurrency: workers,
      front,
      gateway_cpu_ms_per_op: perOp(
        after.gateway.user + after.gateway.system - before.gateway.user - before.gateway.system,
      ),
      gateway_system_ms_per_op: perOp(after.gateway.system - before.gateway.system),
      legacy_cpu_ms_per_op: perOp(
        after.legacy.user + after.legacy.system - before.legacy.user - before.legacy.system,
      ),
      ops_per_s: Math.round((operations / elapsed) * 1000),
    });
  }
  console.table(rows);
  const floor = floorRows(rows);
  if (floor.length > 0) {
    console.log(
      "Issue 23: CPU per operation against the floor (the bare proxy's CPU per exchange, same run)",
    );
    console.table(floor);
  }
} finally {
  await Promise.all(pools.map((pool) => pool.close()));
  await stack.close();
}
