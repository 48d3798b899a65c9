import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceQueryOneLine } from '../gateway/src/graphql/reference-query.js';
import { startIdp, type RunningIdp } from '../idp/src/server.js';
import { referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import { startLegacyService, type LegacyServer } from '../legacy-service/src/server.js';
import { builtGatewayEntry, gatewayNodeFlags } from '../bench/built-gateway.js';
import { accessToken } from './idp-tokens.js';
import { repoRoot, spawnGateway, waitForHealth, type StartedProcess } from './processes.js';

/**
 * `npm run build` (with `--no-check`: the same JavaScript; `npm run typecheck` checks the types) and
 * `node --max-semi-space-size=8 gateway/dist/main.js`, as the image and the benchmark run the gateway: the
 * built gateway finds everything it reads beside its modules or in the repository (the org graph, the
 * browser pages' files, the migration guide), relays tokens and answers like the sources run by tsx.
 */
let dataDir: string;
let legacy: LegacyServer;
let idp: RunningIdp;
let gateway: StartedProcess;
let url: string;
let token: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'compiled-gateway-'));
  legacy = await startLegacyService({ dataDir });
  idp = await startIdp();
  token = await accessToken(idp.issuer, 'nora');
  gateway = await spawnGateway(legacy.url, idp, {}, builtGatewayEntry(), gatewayNodeFlags);
  url = `http://${gateway.url}`;
  await waitForHealth(`${url}/health/ready`, 30_000);
}, 120_000);

afterAll(async () => {
  await gateway?.stop();
  await idp?.close();
  await legacy?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the built gateway (node gateway/dist/main.js)', () => {
  it('holds no test code: no stub backend, no stub org, no test or its helpers', async () => {
    const files = (await readdir(join(repoRoot, 'gateway', 'dist'), { recursive: true })).map(String);
    expect(files).toContain('main.js');
    expect(files.filter((file) => /stub|\.test(-helpers)?\./.test(file))).toEqual([]);
  });

  it('runs without tsx and answers the reference query with the caller’s token relayed', async () => {
    expect(gateway.child.spawnargs).not.toContain('tsx');
    const response = await fetch(`${url}/graphql/v2`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: referenceQueryOneLine, variables: { uuids: referenceUnitUuids } }),
    });
    const body = (await response.json()) as {
      data?: { org_units: { objects: unknown[] } };
      errors?: unknown;
    };
    expect(response.status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(body.data?.org_units.objects).toHaveLength(referenceUnitUuids.length);
  });

  it('serves the schema, the browser pages’ own files and the migration guide', async () => {
    const schema = await fetch(`${url}/graphql/v2/schema.graphql`);
    expect(await schema.text()).toContain('type OrgUnit');
    const script = await fetch(`${url}/browser-assets/client/graphiql-page.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    const guide = await fetch(`${url}/docs/migration`);
    expect(guide.status).toBe(200);
    expect(await guide.text()).toMatch(/^# /);
  });

  it('passes /service reads through with the caller’s token', async () => {
    const response = await fetch(`${url}/service/o/`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(Array.isArray(await response.json())).toBe(true);
  });
});
