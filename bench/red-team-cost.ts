import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startIdp } from '../idp/src/server.js';
import { startLegacyService } from '../legacy-service/src/server.js';
import { facetChains } from '../test/facet-chains.js';
import { accessToken } from '../test/idp-tokens.js';
import { spawnGateway, waitForHealth } from '../test/processes.js';
import { residentMb } from './proc.js';

/**
 * `npx tsx bench/red-team-cost.ts --case facets|variables|deep`: issue 35's requests against a gateway process
 * of its own (source entry, the deployed `--max-semi-space-size=8`) while another client polls
 * `/health/live`, printing each answer's status, size and time, the gateway's resident memory now and at its
 * peak (VmHWM), and the slowest health check.
 *
 *   --case facets     30 aliases of a facet's classes and their facet's (`--turns`, default 3), on v30 and v2, then
 *                     eight at once on v30
 *   --case variables  1 MB of variables (`--uuids` 26000) `--rounds` (100) times in a row
 *   --case deep       a filter variable nested 2,000, 20,000 and 60,000 deep, and a lone surrogate in
 *                     `facet_user_keys`
 */
const { values } = parseArgs({
  options: {
    case: { type: 'string', default: 'facets' },
    turns: { type: 'string', default: '3' },
    uuids: { type: 'string', default: '26000' },
    rounds: { type: 'string', default: '100' },
  },
});

const dataDir = await mkdtemp(join(tmpdir(), 'red-team-cost-'));
const legacy = await startLegacyService({ dataDir, fsync: false });
const idp = await startIdp();
const gateway = await spawnGateway(legacy.url, idp, { LOG_LEVEL: 'warn' }, 'gateway/src/main.ts', [
  '--max-semi-space-size=8',
]);
const url = `http://${gateway.url}`;
await waitForHealth(`${url}/health/live`);
const token = await accessToken(idp.issuer, 'nora');

let slowestHealthMs = 0;
let polling = true;
const poller = (async () => {
  while (polling) {
    const started = performance.now();
    await fetch(`${url}/health/live`)
      .then((response) => response.arrayBuffer())
      .catch(() => undefined);
    slowestHealthMs = Math.max(slowestHealthMs, performance.now() - started);
  }
})();

async function post(version: string, body: string) {
  const started = performance.now();
  const response = await fetch(`${url}/graphql/${version}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
  });
  const text = await response.text();
  const code = /"code":"([A-Z_]+)"/.exec(text)?.[1] ?? 'none';
  return `${response.status} ${code} ${text.length} bytes ${Math.round(performance.now() - started)} ms`;
}

async function report(label: string) {
  const memory = await residentMb(gateway.child.pid);
  console.log(
    `${label}: rss ${memory?.rss} MB, peak ${memory?.peak} MB, slowest health ${Math.round(slowestHealthMs)} ms`,
  );
}

try {
  await report('idle');
  if (values.case === 'facets') {
    const turns = Number(values.turns);
    for (const version of ['v30', 'v2'] as const) {
      console.log(version, await post(version, JSON.stringify({ query: facetChains(version, 30, turns) })));
      await report(`after one on ${version}`);
    }
    const body = JSON.stringify({ query: facetChains('v30', 30, turns) });
    console.log('eight at once', await Promise.all(Array.from({ length: 8 }, () => post('v30', body))));
    await report('after eight at once');
  } else if (values.case === 'variables') {
    const uuids = Array.from({ length: Number(values.uuids) }, () => crypto.randomUUID());
    const body = JSON.stringify({
      query: 'query ($u: [UUID!]) { org_units(filter: { uuids: $u }) { objects { uuid } } }',
      variables: { u: uuids },
    });
    console.log(`variables of ${body.length} bytes`);
    const rounds = Number(values.rounds);
    for (let round = 1; round <= rounds; round += 1) {
      const answer = await post('v30', body);
      if (round === 1 || round % 20 === 0) {
        console.log(round, answer);
        await report(`after ${round}`);
      }
    }
  } else if (values.case === 'deep') {
    for (const depth of [2_000, 20_000, 60_000]) {
      const filter = `${'{"parent":'.repeat(depth)}{"uuids":[]}${'}'.repeat(depth)}`;
      const body = `{"query":"query ($f: OrganisationUnitFilter) { org_units(filter: $f) { objects { uuid } } }","variables":{"f":${filter}}}`;
      console.log(`nested ${depth}`, await post('v30', body));
    }
    const query = 'query ($k: [String!]) { classes(filter: { facet_user_keys: $k }) { objects { uuid } } }';
    console.log('lone surrogate', await post('v30', JSON.stringify({ query, variables: { k: ['\ud800'] } })));
  } else {
    throw new Error(`--case must be facets, variables or deep, not ${values.case}`);
  }
  await report('end');
} finally {
  polling = false;
  await poller;
  await gateway.stop('SIGKILL');
  await idp.close();
  await legacy.close();
  await rm(dataDir, { recursive: true, force: true });
}
