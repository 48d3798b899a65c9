import { mkdtemp, mkdir, rm, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { referenceQueryOneLine } from '../gateway/src/graphql/reference-query.js';
import { referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import { accessToken } from '../test/idp-tokens.js';
import { repoRoot, startTsProcess, waitForHealth, type StartedProcess } from '../test/processes.js';
import { measure, type Measurement, type MeasureOptions } from './harness.js';
import { startMeshPeer } from './mesh-peer.js';

/**
 * `npm run bench`: our gateway against the direct legacy plan and against Mesh's own server on the same
 * .meshrc.yaml, all in one run on this machine, so the numbers are read as ratios.
 */
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '8' },
    latency: { type: 'string', default: '5' },
    'skip-large': { type: 'boolean', default: false },
  },
});
const options: MeasureOptions = {
  concurrency: Number(values.concurrency),
  durationMs: Number(values.seconds) * 1000,
  warmupMs: 1000,
};
const latencyMs = values.latency ?? '5';

const started: StartedProcess[] = [];
const folders: string[] = [];
const pools: Pool[] = [];
async function cleanup() {
  await Promise.all(pools.map((pool) => pool.close()));
  await Promise.all(started.map((process) => process.stop()));
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
}

function pool(origin: string): Pool {
  const created = new Pool(origin, { connections: 64 });
  pools.push(created);
  return created;
}

async function json(
  client: Pool,
  path: string,
  init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = {},
) {
  const response = await client.request({
    method: init.method ?? 'GET',
    path,
    headers: init.headers,
    body: init.body,
  });
  const body = await response.body.json();
  if (response.statusCode >= 400) throw new Error(`${path}: ${response.statusCode}`);
  return body as any; // eslint-disable-line @typescript-eslint/no-explicit-any -- benchmark reads known JSON shapes
}

async function startLegacy(dataDir: string) {
  const legacy = await startTsProcess(
    'legacy-service/src/main.ts',
    // Token check off: the direct plans and Mesh's own server here call the legacy service without a token
    // (`npm run bench:legacy` measures what the check costs).
    { LEGACY_DATA_DIR: dataDir, LEGACY_PORT: '0', LEGACY_LATENCY_MS: latencyMs, LEGACY_AUTH: 'off' },
    /legacy-service: (http:\/\/[^\s]+)\/service\//,
    120_000,
  );
  started.push(legacy);
  await waitForHealth(`${legacy.url}/health`, 120_000);
  return legacy;
}

async function startGatewayProcess(legacyUrl: string, idpPort: number) {
  const gateway = await startTsProcess(
    'gateway/src/main.ts',
    {
      GATEWAY_PORT: '0',
      LEGACY_URL: legacyUrl,
      IDP_HOST: 'localhost',
      IDP_PORT: String(idpPort),
      LOG_LEVEL: 'warn',
    },
    /listening on [^:]+:(\d+)/,
  );
  started.push(gateway);
  const url = `http://127.0.0.1:${/listening on [^:]+:(\d+)/.exec(gateway.output())?.[1] ?? gateway.url}`;
  await waitForHealth(`${url}/health/live`);
  return { process: gateway, url };
}

async function legacyRequests(legacy: Pool): Promise<number> {
  return (await json(legacy, '/health')).requests_served as number;
}

/** Peak resident memory of a process, from /proc (Linux). */
async function peakRssMb(pid: number | undefined): Promise<number | null> {
  if (pid === undefined) return null;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Math.round(Number(match[1]) / 1024) : null;
}

try {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-legacy-'));
  folders.push(dataDir);
  const legacyProcess = await startLegacy(dataDir);
  const idp = await startTsProcess(
    'idp/src/main.ts',
    { IDP_PORT: '0', IDP_KEYS_DIR: join(dataDir, 'keys') },
    /on (http:\/\/localhost:\d+)/,
  );
  started.push(idp);
  const idpPort = Number(new URL(idp.url).port);
  await waitForHealth(`http://127.0.0.1:${idpPort}/health`);
  const gateway = await startGatewayProcess(legacyProcess.url, idpPort);
  const mesh = await startMeshPeer(legacyProcess.url);
  started.push(mesh.process);
  const bareProxy = await startTsProcess(
    'bench/bare-proxy.ts',
    { BARE_PROXY_TARGET: legacyProcess.url },
    /bare proxy on (http:\/\/[^\s]+)/,
  );
  started.push(bareProxy);

  const token = await accessToken(`http://127.0.0.1:${idpPort}/auth/realms/org`, 'alice');
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

  const legacy = pool(legacyProcess.url);
  const ours = pool(gateway.url);
  const theirs = pool(mesh.url);
  const bare = pool(bareProxy.url);
  const body = JSON.stringify({ query: referenceQueryOneLine, variables: { uuids: referenceUnitUuids } });

  /** The same data by hand, as a careful integration would fetch it: 6 requests in two rounds, parallel within each. */
  const directPlan = async (parallel: boolean) => {
    const each = async <T, R>(items: T[], work: (item: T) => Promise<R>) => {
      if (parallel) return Promise.all(items.map(work));
      const results: R[] = [];
      for (const item of items) results.push(await work(item));
      return results;
    };
    // Manager records embed their unit's name, so the unit itself needs no read of its own.
    const firstRound = await each(referenceUnitUuids, async (uuid) => ({
      managers: (await json(legacy, `/service/ou/${uuid}/details/manager`)) as {
        person: { uuid: string } | null;
      }[],
    }));
    const people = firstRound.flatMap(({ managers }) =>
      managers.flatMap((manager: { person: { uuid: string } | null }) =>
        manager.person ? [manager.person.uuid] : [],
      ),
    );
    await each(people, (person) => json(legacy, `/service/e/${person}/details/engagement`));
  };

  const results: (Measurement & { legacy_requests_per_op: number | null })[] = [];
  const run = async (name: string, operation: () => Promise<void>, countLegacy = true) => {
    const before = countLegacy ? await legacyRequests(legacy) : 0;
    const measured = await measure(name, operation, options);
    const after = countLegacy ? await legacyRequests(legacy) : 0;
    // Warm-up iterations also reached the legacy service; divide by everything that ran.
    const total =
      measured.iterations + Math.round((measured.iterations * options.warmupMs) / options.durationMs);
    results.push({
      ...measured,
      legacy_requests_per_op: countLegacy ? Math.round(((after - before) / total) * 10) / 10 : null,
    });
    console.error(`measured ${name}`);
  };

  // Exact per-operation counts, free of warm-up arithmetic.
  const countOnce = async (operation: () => Promise<void>) => {
    const before = await legacyRequests(legacy);
    await operation();
    return (await legacyRequests(legacy)) - before;
  };
  const ourCount = await countOnce(
    async () => void (await json(ours, '/graphql/v2', { method: 'POST', headers: auth, body })),
  );
  const meshCount = await countOnce(
    async () =>
      void (await json(theirs, mesh.path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: mesh.body(referenceUnitUuids),
      })),
  );
  const directCount = await countOnce(() => directPlan(true));

  await run('a: reference query via our gateway', async () => {
    await json(ours, '/graphql/v2', { method: 'POST', headers: auth, body });
  });
  await run('b: direct legacy plan, parallel per round', () => directPlan(true));
  await run('c: direct legacy calls one after another', () => directPlan(false));
  await run('d: reference query via Mesh server', async () => {
    await json(theirs, mesh.path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: mesh.body(referenceUnitUuids),
    });
  });
  const detail = `/service/ou/${referenceUnitUuids[0]}/details/manager`;
  await run('e1: detail read via /service passthrough', async () => {
    await json(ours, detail, { headers: auth });
  });
  await run('e2: detail read direct', async () => {
    await json(legacy, detail);
  });
  await run('e0: detail read via a bare Node proxy (one hop, no gateway logic)', async () => {
    await json(bare, detail);
  });
  const gatewayRss = await peakRssMb(gateway.process.child.pid);

  let large: Measurement[] = [];
  if (!values['skip-large']) {
    large = await runLargePage(idpPort, token);
  }

  const byName = (prefix: string) => results.find((result) => result.name.startsWith(prefix));
  const ratio = (a: number | undefined, b: number | undefined) =>
    a && b ? Math.round((a / b) * 100) / 100 : null;
  const summary = {
    machine: { cores: (await import('node:os')).cpus().length, node: process.version },
    options: { ...options, legacy_latency_ms: Number(latencyMs) },
    legacy_requests: { ours: ourCount, mesh: meshCount, direct_plan: directCount },
    results,
    large,
    gateway_peak_rss_mb: gatewayRss,
    ratios: {
      'a/b p50': ratio(byName('a:')?.p50_ms, byName('b:')?.p50_ms),
      'a/d p50': ratio(byName('a:')?.p50_ms, byName('d:')?.p50_ms),
      'a/d throughput': ratio(byName('a:')?.throughput_per_s, byName('d:')?.throughput_per_s),
      'e passthrough overhead p50 ms':
        byName('e1:') && byName('e2:')
          ? Math.round((byName('e1:')!.p50_ms - byName('e2:')!.p50_ms) * 1000) / 1000
          : null,
      'e0 bare hop overhead p50 ms':
        byName('e0:') && byName('e2:')
          ? Math.round((byName('e0:')!.p50_ms - byName('e2:')!.p50_ms) * 1000) / 1000
          : null,
      'f/direct p50': ratio(large[0]?.p50_ms, large[1]?.p50_ms),
    },
  };
  console.table(
    [...results, ...large].map(({ name, p50_ms, p95_ms, p99_ms, throughput_per_s, errors }) => ({
      name,
      p50_ms,
      p95_ms,
      p99_ms,
      throughput_per_s,
      errors,
    })),
  );
  console.log(
    JSON.stringify(
      { legacy_requests: summary.legacy_requests, ratios: summary.ratios, gateway_peak_rss_mb: gatewayRss },
      null,
      2,
    ),
  );
  await mkdir(join(repoRoot, 'bench/results'), { recursive: true });
  await writeFile(join(repoRoot, 'bench/results/bench.json'), `${JSON.stringify(summary, null, 2)}\n`);
  console.log('wrote bench/results/bench.json');
} finally {
  await cleanup();
}

/** (f) A v2 page of 100 units with managers over a large generated organisation, against its direct plan. */
async function runLargePage(idpPort: number, token: string): Promise<Measurement[]> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-large-'));
  folders.push(dir);
  const generator = await import('node:child_process');
  await new Promise<void>((resolve, reject) => {
    const child = generator.spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'legacy-service/src/fixture/generate-cli.ts',
        '--out',
        dir,
        '--units',
        '10000',
        '--employees',
        '100000',
      ],
      { cwd: repoRoot, stdio: 'ignore' },
    );
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`generator exited ${code}`))));
  });
  const legacyProcess = await startLegacy(dir);
  const gateway = await startGatewayProcess(legacyProcess.url, idpPort);
  const legacy = pool(legacyProcess.url);
  const ours = pool(gateway.url);
  const organisation = (await json(legacy, '/service/o/'))[0].uuid as string;
  const query = JSON.stringify({
    query:
      '{ org_units(limit: 100) { objects { uuid name managers { manager_type { user_key } employee { name } } } page_info { next_cursor } } }',
  });
  const ourPage = await measure(
    'f1: v2 page of 100 units with managers (large data)',
    async () => {
      await json(ours, '/graphql/v2', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: query,
      });
    },
    options,
  );
  const directPage = await measure(
    'f2: the same page by hand (large data)',
    async () => {
      const page = await json(legacy, `/service/o/${organisation}/ou/?limit=100`);
      await Promise.all(
        page.items.map((unit: { uuid: string }) => json(legacy, `/service/ou/${unit.uuid}/details/manager`)),
      );
    },
    options,
  );
  return [ourPage, directPage];
}
