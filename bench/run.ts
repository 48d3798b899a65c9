import { isDeepStrictEqual } from 'node:util';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Pool } from 'undici';
import { referenceQueryOneLine } from '../gateway/src/graphql/reference-query.js';
import { ensureMeshBuild } from '../gateway/src/org-graph/mesh-build.js';
import { referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import { repoRoot } from '../test/processes.js';
import { runCpuBench, type CpuRow } from './cpu-rows.js';
import { issue23Rows } from './issue-23.js';
import { measureSweep, measureUuidLookup } from './backend-record.js';
import { measureEmbeddedDatabase } from './embedded-database.js';
import { measureGroup, type BenchCase } from './cases.js';
import { type CaseResult, type MeasureOptions } from './harness.js';
import { asReferenceShape, composeSupergraph, hiveReferenceBody, startHivePeer } from './hive/peer.js';
import { everyUnitBudget, runLarge, type LargeRun } from './large.js';
import { startMeshPeer } from './mesh-peer.js';
import { countPeerPlans, type LegacyPlan } from './plans.js';
import { peakRssMb } from './proc.js';
import { formatTable, issueRows, ratio, v30Rows } from './report.js';
import { BenchStack, BenchToken, graphql, json, keysFolder } from './stack.js';
import { referenceByHand, v30AsV2, v30ReferenceQuery } from './v30-plans.js';
import { replayRounds, roundsOf, uiPersonSearchBody, type TracedCall } from './ui-search.js';

/**
 * `npm run bench`: our gateway against the direct legacy plan, against Mesh v0's own server on the same
 * `.meshrc.yaml` and against Hive Gateway on Mesh v1's composition of the same contract, all in one run on
 * this machine with backend authentication on, so the numbers are read as ratios. It prints every row of
 * issue 16's table (with the CPU rows of `npm run bench:cpu`, which it runs last) and writes
 * `bench/results/bench.json`.
 */
const usage = `Usage: npm run bench -- [--seconds N] [--concurrency N] [--latency MS] [--skip-large] [--skip-cpu] [--large-data FOLDER]

Measures the gateway against the direct legacy plan, Mesh v0 and Hive Gateway side by side on this machine
(about 4 minutes) and writes bench/results/bench.json; see docs/development.md.

  --seconds N          per case (default 5)
  --concurrency N      requests at once (default 8)
  --latency MS         latency the legacy service adds to each response (default 5)
  --skip-large         leave out the 10,000-unit organisation's rows
  --skip-cpu           leave out npm run bench:cpu's rows
  --large-data FOLDER  a folder "npm run generate-data -- --units 10000 --employees 100000" wrote, instead of
                       generating one (about 30 s)
  --help, -h           this text
`;
const { values } = (() => {
  try {
    return parseArgs({
      options: {
        seconds: { type: 'string', default: '5' },
        concurrency: { type: 'string', default: '8' },
        latency: { type: 'string', default: '5' },
        'skip-large': { type: 'boolean', default: false },
        'skip-cpu': { type: 'boolean', default: false },
        /** A folder `npm run generate-data -- --units 10000 --employees 100000` wrote, instead of generating one. */
        'large-data': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${usage}`);
    process.exit(2);
  }
})();
if (values.help) {
  process.stdout.write(usage);
  process.exit(0);
}
const concurrency = Number(values.concurrency);
const options: MeasureOptions = { concurrency, durationMs: Number(values.seconds) * 1000, warmupMs: 1000 };
const oneAtATime: MeasureOptions = { ...options, concurrency: 1 };
const latencyMs = values.latency ?? '5';

const benchStarted = performance.now();
const stack = new BenchStack();
try {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-legacy-'));
  stack.removeLater(dataDir);
  const idp = await stack.startIdp(keysFolder(dataDir));
  const legacyProcess = await stack.startLegacy(dataDir, idp.port, latencyMs);
  const gateway = await stack.startGateway(legacyProcess.url, idp.port);
  const hiveFolder = await mkdtemp(join(tmpdir(), 'bench-hive-'));
  stack.removeLater(hiveFolder);
  const supergraph = join(hiveFolder, 'supergraph.graphql');
  await composeSupergraph(supergraph);
  await ensureMeshBuild();

  const token = new BenchToken(idp.issuer);
  await token.renew();
  const legacy = stack.pool(legacyProcess.url);
  const ours = stack.pool(gateway.url);
  const legacyAuth = () => ({ headers: { authorization: token.authorization } });
  const referenceBody = JSON.stringify({
    query: referenceQueryOneLine,
    variables: { uuids: referenceUnitUuids },
  });
  const hiveBody = hiveReferenceBody(referenceUnitUuids);

  const v30Body = JSON.stringify({ query: v30ReferenceQuery, variables: { uuids: referenceUnitUuids } });

  /** The same data by hand, as a careful integration would fetch it: 6 requests in two rounds (v2 and v30 alike). */
  const directPlan = (client: Pool, parallel: boolean) => () =>
    referenceByHand((path) => json(client, path, legacyAuth()), referenceUnitUuids, parallel);

  // Legacy calls and rounds of each way, and whether each peer answers the gateway's data.
  const ourAnswer = await json(ours, '/graphql/v2', {
    method: 'POST',
    headers: {
      authorization: token.authorization,
      'content-type': 'application/json',
      'x-upstream-trace': '1',
    },
    body: referenceBody,
  });
  const ourV30Answer = await json(ours, '/graphql/v30', {
    method: 'POST',
    headers: {
      authorization: token.authorization,
      'content-type': 'application/json',
      'x-upstream-trace': '1',
    },
    body: v30Body,
  });
  const peerPlans = await countPeerPlans(legacyProcess.url, {
    supergraph,
    authorization: token.authorization,
    mesh: async (url) =>
      (await graphql(stack.pool(url), '/graphql', token.authorization, referenceBody)).data,
    hive: async (url) =>
      asReferenceShape(
        (await graphql(stack.pool(url), '/graphql', token.authorization, hiveBody)).data,
        referenceUnitUuids.length,
      ),
    direct: (pool) => directPlan(pool, true)(),
  });
  const plans: Record<string, LegacyPlan & { same_data_as_gateway: boolean | null }> = {
    'our gateway (X-Upstream-Trace)': {
      requests: ourAnswer.extensions?.upstream?.requests ?? null,
      rounds: ourAnswer.extensions?.upstream?.rounds ?? null,
      token_relayed: ourAnswer.errors === undefined,
      same_data_as_gateway: null,
    },
    'our gateway, v30 (X-Upstream-Trace)': {
      requests: ourV30Answer.extensions?.upstream?.requests ?? null,
      rounds: ourV30Answer.extensions?.upstream?.rounds ?? null,
      token_relayed: ourV30Answer.errors === undefined,
      same_data_as_gateway: isDeepStrictEqual(v30AsV2(ourV30Answer.data), ourAnswer.data),
    },
    'direct plan (by hand)': { ...peerPlans.direct, same_data_as_gateway: null },
    "Mesh v0's own server": {
      ...peerPlans.mesh.plan,
      same_data_as_gateway: isDeepStrictEqual(peerPlans.mesh.data, ourAnswer.data),
    },
    'Hive Gateway (Mesh v1 compose)': {
      ...peerPlans.hive.plan,
      same_data_as_gateway: isDeepStrictEqual(peerPlans.hive.data, ourAnswer.data),
    },
  };
  console.error('counted the legacy plans');

  const mesh = await startMeshPeer(legacyProcess.url);
  stack.track(mesh.process);
  const hive = await startHivePeer(legacyProcess.url, { supergraph });
  stack.stopLater(hive.stop);
  const bareProxy = await stack.startBareProxy(legacyProcess.url);
  const meshPool = stack.pool(mesh.url);
  const hivePool = stack.pool(hive.url);
  const bare = stack.pool(bareProxy.url);

  const results: CaseResult[] = [];
  const legacyCounters = { pool: legacy, pid: legacyProcess.child.pid };
  /** Cases that are compared are measured side by side, in turns (see `measureInterleaved`). */
  const group = async (cases: BenchCase[], measureOptions = options) => {
    await token.renew();
    results.push(...(await measureGroup(cases, measureOptions, legacyCounters)));
  };

  const ourQuery = async () => void (await graphql(ours, '/graphql/v2', token.authorization, referenceBody));
  const ourV30Query = async () => void (await graphql(ours, '/graphql/v30', token.authorization, v30Body));
  const gatewayPid = gateway.process.child.pid;
  await group([
    {
      name: `a: reference query via our gateway, concurrency ${concurrency}`,
      operation: ourQuery,
      serverPid: gatewayPid,
    },
    {
      name: `v30a: v30 reference query via our gateway, concurrency ${concurrency}`,
      operation: ourV30Query,
      serverPid: gatewayPid,
    },
    {
      name: `b: direct legacy plan, parallel per round, concurrency ${concurrency}`,
      operation: directPlan(legacy, true),
    },
    {
      name: "d: reference query via Mesh v0's own server",
      operation: async () =>
        void (await graphql(meshPool, mesh.path, token.authorization, mesh.body(referenceUnitUuids))),
      serverPid: mesh.process.child.pid,
    },
    {
      name: 'g: reference query via Hive Gateway (Mesh v1)',
      operation: async () => void (await graphql(hivePool, hive.path, token.authorization, hiveBody)),
      serverPid: hive.child.pid,
    },
  ]);
  await group(
    [
      {
        name: 'a1: reference query via our gateway, concurrency 1',
        operation: ourQuery,
        serverPid: gatewayPid,
      },
      {
        name: 'v30a1: v30 reference query via our gateway, concurrency 1',
        operation: ourV30Query,
        serverPid: gatewayPid,
      },
      {
        name: 'b1: direct legacy plan, parallel per round, concurrency 1',
        operation: directPlan(legacy, true),
      },
    ],
    oneAtATime,
  );
  await group([{ name: 'c: direct legacy calls one after another', operation: directPlan(legacy, false) }]);

  // The heaviest page of OS2mo's UI (the person search, by a seeded person's first name), as one user sends
  // it, against its own legacy calls replayed by hand round by round (`bench/ui-search.ts`).
  const organisationUuid = ((await json(legacy, '/service/o/', legacyAuth())) as { uuid: string }[])[0]!.uuid;
  const somePerson = (await json(legacy, `/service/o/${organisationUuid}/e/?limit=1`, legacyAuth())).items[0];
  const searchText = String(somePerson.name).split(' ')[0]!;
  const searchBody = uiPersonSearchBody(searchText, new Date().toISOString().slice(0, 10));
  const traced = await json(ours, '/graphql/v30', {
    method: 'POST',
    headers: {
      authorization: token.authorization,
      'content-type': 'application/json',
      'x-upstream-trace': '1',
    },
    body: searchBody,
  });
  if (traced.errors) throw new Error(`the UI person search failed: ${JSON.stringify(traced.errors)}`);
  const searchRounds = roundsOf(traced.extensions.upstream.calls as TracedCall[]);
  const uiSearch = {
    text: searchText,
    hits: (traced.data.employees.objects as unknown[]).length,
    requests: traced.extensions.upstream.requests as number,
    rounds: traced.extensions.upstream.rounds as number,
  };
  await group(
    [
      {
        name: 'u1: OS2mo UI person search via our gateway, concurrency 1',
        operation: async () => void (await graphql(ours, '/graphql/v30', token.authorization, searchBody)),
        serverPid: gatewayPid,
      },
      {
        name: 'u2: its legacy calls by hand, round by round, concurrency 1',
        operation: async () =>
          void (await replayRounds((path) => json(legacy, path, legacyAuth()), searchRounds)),
      },
    ],
    oneAtATime,
  );
  const detail = `/service/ou/${referenceUnitUuids[0]}/details/manager`;
  await group([
    {
      name: 'e1: detail read via /service passthrough',
      operation: async () => void (await json(ours, detail, legacyAuth())),
      serverPid: gatewayPid,
    },
    {
      name: 'e2: detail read direct',
      operation: async () => void (await json(legacy, detail, legacyAuth())),
    },
    {
      name: 'e0: detail read via a bare Node proxy (one hop, no gateway logic)',
      operation: async () => void (await json(bare, detail, legacyAuth())),
      serverPid: bareProxy.child.pid,
    },
  ]);
  // Issue 36: a detail by UUID alone over all time, and the sweep of the seeded organisation (bench/backend-record.ts).
  const uuidLookup = await measureUuidLookup(ours, legacy, token);
  const sweepCost = await measureSweep(legacyProcess.url, idp.issuer);
  // npm start's embedded database (PGlite), a process apart from the gateway: its memory (bench/embedded-database.ts).
  const embeddedDatabase = await measureEmbeddedDatabase();
  const peakRss = {
    gateway: await peakRssMb(gateway.process.child.pid),
    mesh: await peakRssMb(mesh.process.child.pid),
    hive: await peakRssMb(hive.child.pid),
  };

  let large: LargeRun | null = null;
  if (!values['skip-large']) {
    large = await runLarge(stack, idp.port, token, latencyMs, options, values['large-data']);
  }
  // bench:cpu starts its own processes: stop ours first, so they do not share the machine with it.
  await stack.close();

  let cpuRows: CpuRow[] = [];
  if (!values['skip-cpu']) {
    console.error('running npm run bench:cpu');
    cpuRows = await runCpuBench(['--concurrency', String(concurrency)]).catch((error: unknown) => {
      console.error(String(error));
      return [];
    });
  }

  const byName = (prefix: string) => results.find((result) => result.name.startsWith(prefix));
  const pair = (gatewayCase: string, directCase: string) => {
    const [a, b] = [byName(gatewayCase), byName(directCase)];
    return a && b ? { gateway: a.p50_ms, direct: b.p50_ms } : null;
  };
  const e = { gateway: byName('e1:'), direct: byName('e2:'), bare: byName('e0:') };
  const issue = issueRows({
    concurrency,
    p50_c8: pair('a:', 'b:'),
    p50_c1: pair('a1:', 'b1:'),
    bench_cpu_c8: byName('a:')?.server_cpu_ms_per_op ?? null,
    bench_cpu_c1: byName('a1:')?.server_cpu_ms_per_op ?? null,
    cpu_rows: cpuRows,
    passthrough:
      e.gateway && e.direct && e.bare
        ? { gateway: e.gateway.p50_ms, direct: e.direct.p50_ms, bare: e.bare.p50_ms }
        : null,
    gateway_peak_rss_mb: peakRss.gateway,
    throughput: byName('a:')
      ? {
          gateway: byName('a:')!.throughput_per_s,
          mesh: byName('d:')?.throughput_per_s ?? null,
          hive: byName('g:')?.throughput_per_s ?? null,
        }
      : null,
  });
  const issue23 = issue23Rows({
    concurrency,
    cpu_rows: cpuRows,
    p50: {
      v2_c8: pair('a:', 'b:'),
      v2_c1: pair('a1:', 'b1:'),
      v30_c8: pair('v30a:', 'b:'),
      v30_c1: pair('v30a1:', 'b1:'),
    },
    throughput: {
      gateway: byName('a:')?.throughput_per_s ?? null,
      mesh: byName('d:')?.throughput_per_s ?? null,
      hive: byName('g:')?.throughput_per_s ?? null,
    },
  });
  const largeResults = large?.results ?? [];
  const largeCase = (prefix: string) => largeResults.find((result) => result.name.startsWith(prefix));
  const [everyGateway, everyDirect] = [largeCase('f7:'), largeCase('f8:')];
  const [hiveCase, directC8] = [byName('g:'), byName('b:')];
  const v30 = v30Rows({
    concurrency,
    p50_c8: pair('v30a:', 'b:'),
    p50_c1: pair('v30a1:', 'b1:'),
    v2_p50_c8: byName('a:')?.p50_ms ?? null,
    plan: {
      requests: plans['our gateway, v30 (X-Upstream-Trace)']!.requests,
      rounds: plans['our gateway, v30 (X-Upstream-Trace)']!.rounds,
      same_data_as_v2: plans['our gateway, v30 (X-Upstream-Trace)']!.same_data_as_gateway === true,
    },
    cpu_rows: cpuRows,
    every_unit:
      large && everyGateway && everyDirect
        ? {
            units: large.units,
            gateway: { p50: everyGateway.p50_ms, throughput: everyGateway.throughput_per_s },
            direct: { p50: everyDirect.p50_ms, throughput: everyDirect.throughput_per_s },
            plan: large.gateway_plans['f7: v30 every unit with managers, limit unset'] ?? null,
            budget: everyUnitBudget,
          }
        : null,
    hive:
      hiveCase && directC8
        ? {
            p50: hiveCase.p50_ms,
            throughput: hiveCase.throughput_per_s,
            direct_p50: directC8.p50_ms,
            gateway_throughput: byName('v30a:')?.throughput_per_s ?? null,
          }
        : null,
  });
  const largeRatio = (gatewayCase: string, directCase: string) => {
    const a = largeResults.find((result) => result.name.startsWith(gatewayCase));
    const b = largeResults.find((result) => result.name.startsWith(directCase));
    return { p50: ratio(a?.p50_ms, b?.p50_ms), throughput: ratio(a?.throughput_per_s, b?.throughput_per_s) };
  };
  const scale = large
    ? [
        { figure: 'v2 page of 100 units with managers (f1 / f2)', ...largeRatio('f1:', 'f2:') },
        {
          figure: 'v2 page of 100 units with managers and every detail type (f3 / f4)',
          ...largeRatio('f3:', 'f4:'),
        },
        { figure: `walk of all ${large.units} units in pages of 100 (f5 / f6)`, ...largeRatio('f5:', 'f6:') },
      ].map(({ figure, p50, throughput }) => ({
        figure,
        'p50 gateway / direct': p50,
        'throughput gateway / direct': throughput,
      }))
    : [];

  const caseRow = (result: CaseResult) => ({
    name: result.name,
    p50_ms: result.p50_ms,
    p95_ms: result.p95_ms,
    p99_ms: result.p99_ms,
    'ops/s': result.throughput_per_s,
    errors: result.errors,
    'legacy req/op': result.legacy_requests_per_op,
    'server CPU ms/op': result.server_cpu_ms_per_op,
    'legacy CPU ms/op': result.legacy_cpu_ms_per_op,
  });
  console.log(
    `\nnpm run bench — ${cpus().length} cores, Node ${process.version}, legacy latency ${latencyMs} ms, ` +
      `backend authentication on (LEGACY_AUTH=on, LEGACY_CREDENTIALS=relay), ${values.seconds} s per case\n`,
  );
  console.log('Cases (server CPU: the process the case goes through, from /proc):');
  console.log(formatTable(results.map(caseRow)));
  console.log('\nLegacy calls and dependent rounds of the reference data (one request each):');
  console.log(
    formatTable(
      Object.entries(plans).map(([way, plan]) => ({
        way,
        'legacy calls': plan.requests,
        rounds: plan.rounds,
        'token relayed': plan.token_relayed,
        'same data as the gateway': plan.same_data_as_gateway,
      })),
    ),
  );
  if (large) {
    console.log(
      `\nScale figures over ${large.units} generated units (gateway peak RSS ${large.gateway_peak_rss_mb} MB):`,
    );
    console.log(formatTable(largeResults.map(caseRow)));
    console.log(formatTable(scale));
    console.log(
      formatTable(
        Object.entries(large.gateway_plans).map(([operation, plan]) => ({
          'gateway operation (X-Upstream-Trace)': operation,
          'legacy calls': plan?.requests ?? null,
          rounds: plan?.rounds ?? null,
          errors: plan?.errors ?? 'none',
        })),
      ),
    );
  }
  if (cpuRows.length > 0) {
    console.log(`\nnpm run bench:cpu -- --concurrency ${concurrency}:`);
    console.log(formatTable(cpuRows));
  }
  console.log("\nIssue 16's table:");
  console.log(formatTable(issue.map((row) => ({ ...row }))));
  console.log(
    `peak RSS: gateway ${peakRss.gateway} MB, Mesh v0 ${peakRss.mesh} MB, Hive Gateway ${peakRss.hive} MB`,
  );
  console.log(
    "\nIssue 23's table (CPU from bench:cpu against the bare proxy's; p50 and throughput from this run):",
  );
  console.log(formatTable(issue23.map((row) => ({ ...row }))));
  const uiSearchRow = {
    ...uiSearch,
    p50_ms: { gateway: byName('u1:')?.p50_ms ?? null, direct: byName('u2:')?.p50_ms ?? null },
    p50_ratio: ratio(byName('u1:')?.p50_ms, byName('u2:')?.p50_ms),
  };
  console.log(
    `\nOS2mo's UI, person search for "${uiSearch.text}" (${uiSearch.hits} hits): ${uiSearch.requests} legacy calls in ` +
      `${uiSearch.rounds} rounds; p50 ${uiSearchRow.p50_ms.gateway} ms via the gateway, ` +
      `${uiSearchRow.p50_ms.direct} ms by hand (${uiSearchRow.p50_ratio} ×)`,
  );
  const issue36 = {
    uuid_lookup: { seeded: uuidLookup, large: large?.uuid_lookup ?? null },
    sweep: sweepCost,
    embedded_database: embeddedDatabase,
  };
  console.log('\nIssue 36: an address by UUID alone, over all time (v30, from_date and to_date null):');
  console.log(
    formatTable(
      Object.entries(issue36.uuid_lookup).map(([data, figures]) => ({
        data: data === 'seeded' ? 'seeded organisation' : `${large?.units ?? '?'} generated units`,
        'legacy calls': figures?.legacy_calls ?? null,
        'p50 ms': figures?.p50_ms ?? null,
      })),
    ),
  );
  console.log(
    'Issue 36: the sweep of the seeded organisation, one round on a fresh database, rate unbounded:',
  );
  console.log(formatTable(sweepCost.map((row) => ({ ...row }))));
  console.log(
    `Issue 36: npm start's embedded database (PGlite, a process apart), resident MB after its first start, ` +
      `the migrations and ${embeddedDatabase.writes} objects recorded and events sent:`,
  );
  console.log(formatTable([{ ...embeddedDatabase }]));
  console.log("\nIssue 21's v30 rows (OS2mo's shape, /graphql/v30), each against the direct plan:");
  console.log(formatTable(v30.map((row) => ({ ...row }))));

  const summary = {
    machine: { cores: cpus().length, node: process.version },
    options: { ...options, legacy_latency_ms: Number(latencyMs), backend_authentication: true },
    plans,
    results,
    issue_16: issue,
    issue_21_v30: v30,
    issue_23: issue23,
    issue_27_ui_search: uiSearchRow,
    issue_36: issue36,
    peak_rss_mb: peakRss,
    large,
    scale,
    cpu_rows: cpuRows,
  };
  await mkdir(join(repoRoot, 'bench/results'), { recursive: true });
  await writeFile(join(repoRoot, 'bench/results/bench.json'), `${JSON.stringify(summary, null, 2)}\n`);
  console.log(
    `wrote bench/results/bench.json (${Math.round((performance.now() - benchStarted) / 1000)} s in all)`,
  );
} finally {
  await stack.close();
}
