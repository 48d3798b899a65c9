import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdp, type RunningIdp } from '../../../idp/src/server.js';
import { startLegacyService, type LegacyServer } from '../../../legacy-service/src/server.js';
import { readGatewayConfig } from '../config.js';
import { createLogger } from '../observability/logger.js';
import { startGateway, type RunningGateway } from '../server.js';
import { createReadiness, type ReadinessCheck } from './readiness.js';

const quiet = createLogger({ level: 'silent' });

/** A TCP server that accepts connections and never answers: a hung dependency. */
async function startSilentServer(): Promise<{ url: string; server: Server }> {
  const server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, server };
}

/** A loopback port nothing listens on. */
async function closedPortUrl(): Promise<string> {
  const { url, server } = await startSilentServer();
  await new Promise((resolve) => server.close(resolve));
  return url;
}

describe('createReadiness', () => {
  it('is ready only when every check passes, and names the failed ones', async () => {
    const readiness = createReadiness({
      checks: {
        legacy: async () => ({ ok: true }),
        signing_keys: async () => ({ ok: false, reason: 'unreachable' }),
      },
      timeoutMs: 1_000,
    });
    expect(await readiness.check()).toEqual({
      status: 'not_ready',
      checks: { legacy: { status: 'ok' }, signing_keys: { status: 'failed', reason: 'unreachable' } },
    });
  });

  it('cuts a check off at the timeout', async () => {
    const hung: ReadinessCheck = () => new Promise(() => undefined);
    const readiness = createReadiness({ checks: { legacy: hung }, timeoutMs: 50 });
    const started = Date.now();
    expect(await readiness.check()).toEqual({
      status: 'not_ready',
      checks: { legacy: { status: 'failed', reason: 'no answer within 50 ms' } },
    });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('lets probes that arrive together share one round of checks', async () => {
    let rounds = 0;
    const readiness = createReadiness({
      checks: { legacy: async () => (rounds++, { ok: true }) },
      timeoutMs: 1_000,
    });
    await Promise.all([readiness.check(), readiness.check(), readiness.check()]);
    expect(rounds).toBe(1);
  });
});

describe('GET /health/ready', () => {
  let dataDir: string;
  let legacy: LegacyServer;
  let idp: RunningIdp;
  const gateways: RunningGateway[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gateway-readiness-'));
    legacy = await startLegacyService({ dataDir });
    idp = await startIdp();
  });

  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.close()));
    await idp?.close();
    await legacy?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function gatewayWith(env: Record<string, string>): Promise<RunningGateway> {
    const gateway = await startGateway({
      logger: quiet,
      config: readGatewayConfig({
        GATEWAY_PORT: '0',
        LEGACY_URL: legacy.url,
        IDP_ISSUER: idp.issuer,
        IDP_JWKS_URL: idp.jwksUri,
        READINESS_TIMEOUT_MS: '300',
        ...env,
      }),
    });
    gateways.push(gateway);
    return gateway;
  }

  async function ready(gateway: RunningGateway) {
    const response = await fetch(`${gateway.url}/health/ready`);
    const text = await response.text();
    // Operators read which check failed; nobody reads where the dependencies live.
    expect(text).not.toMatch(/127\.0\.0\.1|localhost|http:/);
    return { status: response.status, body: JSON.parse(text) };
  }

  it('answers 200 when the legacy service and the signing keys are reachable', async () => {
    const gateway = await gatewayWith({});
    expect(await ready(gateway)).toEqual({
      status: 200,
      body: { status: 'ready', checks: { legacy: { status: 'ok' }, signing_keys: { status: 'ok' } } },
    });
  });

  it('answers 503 naming the signing keys while no key set was ever fetched', async () => {
    const gateway = await gatewayWith({ IDP_JWKS_URL: `${await closedPortUrl()}/certs` });
    expect(await ready(gateway)).toEqual({
      status: 503,
      body: {
        status: 'not_ready',
        checks: { legacy: { status: 'ok' }, signing_keys: { status: 'failed', reason: 'unreachable' } },
      },
    });
  });

  it('stays ready on cached keys when the identity provider goes away', async () => {
    const ownIdp = await startIdp();
    const gateway = await gatewayWith({ IDP_ISSUER: ownIdp.issuer, IDP_JWKS_URL: ownIdp.jwksUri });
    expect((await ready(gateway)).status).toBe(200);
    await ownIdp.close();
    expect((await ready(gateway)).body.checks.signing_keys).toEqual({ status: 'ok' });
  });

  it('answers 503 naming the legacy service when it is down or does not answer in time', async () => {
    const down = await gatewayWith({ LEGACY_URL: await closedPortUrl() });
    expect((await ready(down)).body).toEqual({
      status: 'not_ready',
      checks: { legacy: { status: 'failed', reason: 'unreachable' }, signing_keys: { status: 'ok' } },
    });

    const silent = await startSilentServer();
    try {
      const hung = await gatewayWith({ LEGACY_URL: silent.url });
      const started = Date.now();
      const answer = await ready(hung);
      expect(answer.status).toBe(503);
      expect(answer.body.checks.legacy).toEqual({ status: 'failed', reason: 'no answer within 300 ms' });
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      silent.server.close();
    }
  });
});
