import autocannon from 'autocannon';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import { startIdp } from '../idp/src/server.js';
import { accessToken } from '../test/idp-tokens.js';
import { repoRoot, startTsProcess, waitForHealth } from '../test/processes.js';

/**
 * Baseline for later gateway overhead: requests per second of the legacy service alone for a detail read
 * (`GET /service/ou/{uuid}/details/manager`), served from its own process over loopback keep-alive.
 * With the token check on (the default) it starts the development identity provider and sends alice's token;
 * `LEGACY_AUTH=off npm run bench:legacy` measures the service without the check.
 * Usage: npm run bench:legacy [-- --seconds 10 --connections 10]
 */
const args = new Map<string, string>();
for (let i = 2; i < process.argv.length - 1; i += 2)
  args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1]!);
const seconds = Number(args.get('seconds') ?? 10);
const connections = Number(args.get('connections') ?? 10);

const authOn = process.env.LEGACY_AUTH !== 'off';
const idp = authOn ? await startIdp() : undefined;
const dir = await mkdtemp(join(tmpdir(), 'legacy-bench-'));
const service = await startTsProcess(
  'legacy-service/src/main.ts',
  {
    LEGACY_DATA_DIR: dir,
    LEGACY_PORT: '0',
    ...(idp
      ? { LEGACY_AUTH: 'on', IDP_ISSUER: idp.issuer, IDP_JWKS_URL: idp.jwksUri }
      : { LEGACY_AUTH: 'off' }),
  },
  /legacy-service: (http:\/\/[^\s]+)\/service\//,
);
try {
  const headers = idp ? { authorization: `Bearer ${await accessToken(idp.issuer, 'alice')}` } : undefined;
  await waitForHealth(`${service.url}/health`);
  const run = (duration: number) =>
    autocannon({
      url: `${service.url}/service/ou/${referenceUnitUuids[0]}/details/manager`,
      connections,
      duration,
      headers,
    });
  await run(2);
  const result = await run(seconds);
  const summary = {
    endpoint: 'GET /service/ou/{uuid}/details/manager',
    token_check: authOn,
    connections,
    seconds,
    requests_per_second: Math.round(result.requests.average),
    latency_ms: { p50: result.latency.p50, p99: result.latency.p99 },
    errors: result.errors + result.non2xx,
  };
  console.log(JSON.stringify(summary, null, 2));
  await mkdir(join(repoRoot, 'bench/results'), { recursive: true });
  await writeFile(
    join(repoRoot, 'bench/results/legacy-detail-read.json'),
    `${JSON.stringify(summary, null, 2)}\n`,
  );
} finally {
  await service.stop();
  await idp?.close();
  await rm(dir, { recursive: true, force: true });
}
