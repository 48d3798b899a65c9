import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { os2moReferenceQueryOneLine, referenceQueryOneLine } from '../gateway/src/graphql/reference-query.js';
import { referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import { accessToken } from '../test/idp-tokens.js';
import { residentMb } from './proc.js';
import { BenchStack } from './stack.js';
import { uiPersonSearchBody } from './ui-search.js';

/**
 * `npx tsx bench/memory-phases.ts`: where the gateway's resident memory goes, phase by phase, under the
 * bench's own workloads (`/service` reads, v2 and v30 reference queries, the UI's person search), the first
 * request of each kind on its own. After each phase it prints resident memory now and at its peak (VmHWM)
 * from /proc, and V8's heap used and total from the gateway's `/metrics`, so a change to memory can be traced
 * to the phase that grew (the first legacy responses once raised the peak by 40 MB, with the heap unchanged).
 *
 *   npx tsx bench/memory-phases.ts [--operations 1500] [--concurrency 8] [--latency 5] [--flags "--max-semi-space-size=8"]
 */
const { values } = parseArgs({
  options: {
    operations: { type: 'string', default: '1500' },
    concurrency: { type: 'string', default: '8' },
    latency: { type: 'string', default: '5' },
    /** Node flags for the gateway, space-separated; unset: the deployed ones. */
    flags: { type: 'string' },
  },
});
const operations = Number(values.operations);
const concurrency = Number(values.concurrency);
const metricsToken = 'memory-phases-metrics-token';

const stack = new BenchStack();
try {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-memory-phases-'));
  stack.removeLater(dataDir);
  const idp = await stack.startIdp(join(dataDir, 'keys'));
  const legacy = await stack.startLegacy(dataDir, idp.port, values.latency ?? '5');
  const flags = values.flags === undefined ? undefined : values.flags.split(' ').filter(Boolean);
  const { process: gateway, url } = await stack.startGateway(
    legacy.url,
    idp.port,
    { METRICS_TOKEN: metricsToken },
    flags,
  );
  const pid = gateway.child.pid!;
  const pool = new Pool(url, { connections: concurrency });

  const token = await accessToken(idp.issuer, 'alice');
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const reference = JSON.stringify({
    query: referenceQueryOneLine,
    variables: { uuids: referenceUnitUuids },
  });
  const v30Reference = JSON.stringify({
    query: os2moReferenceQueryOneLine,
    variables: { uuids: referenceUnitUuids },
  });
  const search = uiPersonSearchBody('Ahmed', new Date().toISOString().slice(0, 10));
  const post = (path: string, body: string) => () => pool.request({ method: 'POST', path, headers, body });
  const detail = `/service/ou/${referenceUnitUuids[0]}/details/manager`;
  const read = () => pool.request({ method: 'GET', path: detail, headers });
  /** Each phase: its name, one request, how many, and how many at once (at most the bench's concurrency). */
  const workloads: [string, () => ReturnType<Pool['request']>, number, number][] = [
    ['health checks', () => pool.request({ method: 'GET', path: '/health/live' }), 200, concurrency],
    ['first /service read', read, 1, 1],
    ['/service reads, one at a time', read, 8, 1],
    ['/service reads', read, 64, concurrency],
    ['first v2 reference query', post('/graphql/v2', reference), 1, 1],
    ['first v30 reference query', post('/graphql/v30', v30Reference), 1, 1],
    ['v2 reference queries', post('/graphql/v2', reference), operations, concurrency],
    ['v30 reference queries', post('/graphql/v30', v30Reference), operations, concurrency],
    ['UI person searches', post('/graphql/v30', search), Math.ceil(operations / 10), concurrency],
    ['/service reads', read, operations * 2, concurrency],
  ];

  const heap = async () => {
    const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    const text = await response.text();
    const mb = (name: string) => {
      const line = text.split('\n').find((row) => row.startsWith(`${name} `));
      return line ? Math.round(Number(line.split(' ')[1]) / 1e5) / 10 : null;
    };
    return {
      heap_used_mb: mb('nodejs_heap_size_used_bytes'),
      heap_total_mb: mb('nodejs_heap_size_total_bytes'),
    };
  };
  const rows: Record<string, unknown>[] = [];
  const record = async (phase: string) => {
    const resident = await residentMb(pid);
    rows.push({ phase, rss_mb: resident?.rss, peak_rss_mb: resident?.peak, ...(await heap()) });
  };

  await record('idle');
  for (const [phase, request, count, atOnce] of workloads) {
    let next = 0;
    await Promise.all(
      Array.from({ length: atOnce }, async () => {
        while (next < count) {
          next += 1;
          const response = await request();
          await response.body.arrayBuffer();
          if (response.statusCode !== 200) throw new Error(`${phase} answered ${response.statusCode}`);
        }
      }),
    );
    await record(`after ${count} × ${phase}`);
  }
  console.table(rows);
  await pool.close();
} finally {
  await stack.close();
}
