import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { os2moReferenceQueryOneLine, referenceQueryOneLine } from '../gateway/src/graphql/reference-query.js';
import { referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import { accessToken } from '../test/idp-tokens.js';
import { repoRoot } from '../test/processes.js';
import { cpuMs, residentMb } from './proc.js';
import { BenchStack } from './stack.js';

/**
 * `npx tsx bench/memory-profile.ts`: the gateway's memory and CPU per operation with Node/V8 flags (or builds)
 * side by side. One legacy service (token check on, the gateway relaying the caller's token) and one identity
 * provider serve a gateway per variant; every variant gets the same work — v2's and v30's reference query
 * and a `/service` read, at the bench's concurrency — in rounds that alternate between variants, so the shared
 * machine's noise falls on all of them alike. Prints per variant: resident memory when idle, peak resident
 * memory (VmHWM) after the work, and the medians of CPU ms per operation read from /proc (v2's and v30's
 * reference query, the `/service` read).
 *
 *   npx tsx bench/memory-profile.ts --variant default= --variant semi2=--max-semi-space-size=2
 *
 * A variant may run another build of the gateway (`--entry name=path/to/gateway/dist/main.js`), so a change is
 * measured against the commit before it in one run, e.g. a baseline checkout built with `npm run build`:
 *
 *   git worktree add /tmp/baseline <commit> && (cd /tmp/baseline && npm ci && npm run build)
 *   npx tsx bench/memory-profile.ts --variant before=--max-semi-space-size=8 --entry before=/tmp/baseline/gateway/dist/main.js \
 *     --variant after=--max-semi-space-size=8
 */
const { values } = parseArgs({
  options: {
    /** `name=node flags` (space-separated flags); repeatable. Default: the gateway as it is started. */
    variant: { type: 'string', multiple: true, default: ['default='] },
    /** `name=path`: the gateway build variant `name` runs (its `main.js`); repeatable. Default: this checkout's. */
    entry: { type: 'string', multiple: true, default: [] },
    rounds: { type: 'string', default: '3' },
    /** Operations per workload per round. */
    operations: { type: 'string', default: '1500' },
    concurrency: { type: 'string', default: '8' },
    latency: { type: 'string', default: '5' },
  },
});
const rounds = Number(values.rounds);
const operations = Number(values.operations);
const concurrency = Number(values.concurrency);

/** /proc's figures, which this script cannot do without. */
async function cpu(pid: number): Promise<number> {
  const ms = await cpuMs(pid);
  if (ms === null) throw new Error('memory-profile reads CPU time from /proc (Linux only)');
  return ms;
}
async function resident(pid: number): Promise<{ rss: number; peak: number }> {
  const mb = await residentMb(pid);
  if (mb === null) throw new Error('memory-profile reads resident memory from /proc (Linux only)');
  return mb;
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? Number.NaN;

interface Variant {
  name: string;
  flags: string[];
  pid: number;
  pool: Pool;
  idle: { rss: number; peak: number };
  cpu: Record<'query' | 'v30' | 'read', number[]>;
}

const stack = new BenchStack();
try {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-memory-'));
  stack.removeLater(dataDir);
  const idp = await stack.startIdp(join(dataDir, 'keys'));
  const legacy = await stack.startLegacy(dataDir, idp.port, values.latency ?? '5');

  const entries = new Map(
    (values.entry ?? []).map((spec) => {
      const [name = spec, path = ''] = spec.split(/=(.*)/s);
      return [name, path];
    }),
  );
  const variantNames = (values.variant ?? []).map((spec) => spec.split('=')[0]);
  for (const name of entries.keys()) {
    if (!variantNames.includes(name)) throw new Error(`--entry ${name}=… names no --variant ${name}=…`);
  }
  const variants: Variant[] = [];
  for (const spec of values.variant ?? []) {
    const [name = spec, flagText = ''] = spec.split(/=(.*)/s);
    const flags = flagText.split(' ').filter(Boolean);
    const { process: gateway, url } = await stack.startGateway(
      legacy.url,
      idp.port,
      {},
      flags,
      entries.get(name),
    );
    const pid = gateway.child.pid!;
    variants.push({
      name,
      flags,
      pid,
      pool: new Pool(url, { connections: concurrency }),
      idle: await resident(pid),
      cpu: { query: [], v30: [], read: [] },
    });
  }

  // A token lasts 300 s, and a round on a busy machine can take longer: each drive takes a fresh one.
  const auth = { authorization: '' };
  const refreshToken = async () => {
    auth.authorization = `Bearer ${await accessToken(idp.issuer, 'alice')}`;
  };
  const query = JSON.stringify({ query: referenceQueryOneLine, variables: { uuids: referenceUnitUuids } });
  const v30Query = JSON.stringify({
    query: os2moReferenceQueryOneLine,
    variables: { uuids: referenceUnitUuids },
  });
  const detail = `/service/ou/${referenceUnitUuids[0]}/details/manager`;
  const workloads = {
    query: (pool: Pool) =>
      pool.request({
        method: 'POST',
        path: '/graphql/v2',
        headers: { ...auth, 'content-type': 'application/json' },
        body: query,
      }),
    v30: (pool: Pool) =>
      pool.request({
        method: 'POST',
        path: '/graphql/v30',
        headers: { ...auth, 'content-type': 'application/json' },
        body: v30Query,
      }),
    read: (pool: Pool) => pool.request({ method: 'GET', path: detail, headers: auth }),
  };
  const drive = async (pool: Pool, kind: keyof typeof workloads, count: number) => {
    await refreshToken();
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) {
          next += 1;
          const response = await workloads[kind](pool);
          await response.body.arrayBuffer();
          if (response.statusCode !== 200) throw new Error(`${kind} answered ${response.statusCode}`);
        }
      }),
    );
  };

  for (const variant of variants) {
    await drive(variant.pool, 'query', Math.ceil(operations / 4)); // warm-up: JIT, connections, caches
    await drive(variant.pool, 'v30', Math.ceil(operations / 4));
    await drive(variant.pool, 'read', Math.ceil(operations / 4));
  }
  for (let round = 0; round < rounds; round += 1) {
    for (const kind of ['query', 'v30', 'read'] as const) {
      for (const variant of round % 2 === 0 ? variants : [...variants].reverse()) {
        const before = await cpu(variant.pid);
        await drive(variant.pool, kind, operations);
        variant.cpu[kind].push(((await cpu(variant.pid)) - before) / operations);
      }
    }
  }

  const rows = [];
  for (const variant of variants) {
    const after = await resident(variant.pid);
    rows.push({
      variant: variant.name,
      flags: variant.flags.join(' '),
      idle_rss_mb: variant.idle.rss,
      peak_rss_mb: after.peak,
      rss_after_mb: after.rss,
      build: entries.get(variant.name) ?? 'this checkout',
      query_cpu_ms_per_op: Math.round(median(variant.cpu.query) * 1000) / 1000,
      v30_cpu_ms_per_op: Math.round(median(variant.cpu.v30) * 1000) / 1000,
      read_cpu_ms_per_op: Math.round(median(variant.cpu.read) * 1000) / 1000,
    });
  }
  console.table(rows);
  console.log(`repository: ${repoRoot}, rounds: ${rounds}, operations per round: ${operations}`);
  await Promise.all(variants.map((variant) => variant.pool.close()));
} finally {
  await stack.close();
}
