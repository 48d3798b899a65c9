import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startIdp, type RunningIdp } from '../../../idp/src/server.js';
import { startLegacyService, type LegacyServer } from '../../../legacy-service/src/server.js';
import { readGatewayConfig } from '../config.js';
import { json, startStubBackend, type StubBackend } from '../legacy/stub-backend.test-helpers.js';
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
    vi.useFakeTimers();
    try {
      const hung: ReadinessCheck = () => new Promise(() => undefined);
      const readiness = createReadiness({ checks: { legacy: hung }, timeoutMs: 50 });
      let answer: unknown;
      void readiness.check().then((result) => (answer = result));
      await vi.advanceTimersByTimeAsync(49);
      expect(answer).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(answer).toEqual({
        status: 'not_ready',
        checks: { legacy: { status: 'failed', reason: 'no answer within 50 ms' } },
      });
    } finally {
      vi.useRealTimers();
    }
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
        // Far above what a check that answers takes on a loaded machine: only the silent server's test below
        // waits for a cut-off, and sets a short one (its server never answers, so no machine is too slow).
        READINESS_TIMEOUT_MS: '30000',
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
      const hung = await gatewayWith({ LEGACY_URL: silent.url, READINESS_TIMEOUT_MS: '300' });
      // The silent server never answers: an answer at all means the probe was cut off.
      const answer = await ready(hung);
      expect(answer.status).toBe(503);
      expect(answer.body.checks.legacy).toEqual({ status: 'failed', reason: 'no answer within 300 ms' });
    } finally {
      silent.server.close();
    }
  });

  it('is ready in front of the stand-in checking tokens: its anonymous 401 proves it answers', async () => {
    const guardedDir = await mkdtemp(join(tmpdir(), 'gateway-readiness-guarded-'));
    const guarded = await startLegacyService({
      dataDir: guardedDir,
      auth: {
        enabled: true,
        issuer: idp.issuer,
        jwksUrl: new URL(idp.jwksUri),
        clockToleranceSeconds: 5,
        jwksCooldownMs: 0,
      },
    });
    try {
      expect((await fetch(`${guarded.url}/service/o/`)).status).toBe(401);
      const gateway = await gatewayWith({ LEGACY_URL: guarded.url });
      expect(await ready(gateway)).toEqual({
        status: 200,
        body: { status: 'ready', checks: { legacy: { status: 'ok' }, signing_keys: { status: 'ok' } } },
      });
    } finally {
      await guarded.close();
      await rm(guardedDir, { recursive: true, force: true });
    }
  });
});

/** A backend that answers as OS2mo 2.4.0 does: `/health` redirects, `/service` refuses anonymous calls. */
function answerLikeOs2mo(backend: StubBackend): void {
  backend.answer((request, response) => {
    if (request.url === '/health') {
      response.writeHead(307, { location: '/health/' });
      response.end();
    } else if (request.url.startsWith('/mo/service/') || request.url.startsWith('/service/')) {
      if (request.headers.authorization === undefined) json(response, 401, 'Not authenticated');
      else json(response, 200, [{ uuid: '456362c4-0ee4-4e5e-a72c-751239745e62', name: 'Kommune' }]);
    } else {
      json(response, 404, { detail: 'Not Found' });
    }
  });
}

describe('GET /health/ready in front of a backend that answers like OS2mo', () => {
  let backend: StubBackend;
  let idp: RunningIdp;
  const gateways: RunningGateway[] = [];

  beforeAll(async () => {
    backend = await startStubBackend();
    answerLikeOs2mo(backend);
    idp = await startIdp();
  });

  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.close()));
    await idp?.close();
    await backend?.close();
  });

  async function readyWith(env: Record<string, string>) {
    backend.received.length = 0;
    const gateway = await startGateway({
      logger: quiet,
      config: readGatewayConfig({
        GATEWAY_PORT: '0',
        LEGACY_URL: backend.url,
        IDP_ISSUER: idp.issuer,
        IDP_JWKS_URL: idp.jwksUri,
        ...env,
      }),
    });
    gateways.push(gateway);
    const response = await fetch(`${gateway.url}/health/ready`);
    return { status: response.status, body: (await response.json()) as { checks: { legacy: unknown } } };
  }

  it('turns ready by default, asking /service/o/ without a token', async () => {
    const answer = await readyWith({});
    expect(answer.status).toBe(200);
    expect(answer.body.checks.legacy).toEqual({ status: 'ok' });
    expect(backend.received.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /service/o/',
    ]);
    expect(backend.received[0]!.headers.authorization).toBeUndefined();
  });

  it('keeps the path prefix of LEGACY_URL', async () => {
    const answer = await readyWith({ LEGACY_URL: `${backend.url}/mo` });
    expect(answer.status).toBe(200);
    expect(backend.received.map((request) => request.url)).toEqual(['/mo/service/o/']);
  });

  it("does not follow OS2mo's redirect of /health: configured that way it stays unready, saying why", async () => {
    const answer = await readyWith({ LEGACY_READINESS_PATH: '/health', LEGACY_READINESS_STATUSES: '200' });
    expect(answer.status).toBe(503);
    expect(answer.body.checks.legacy).toEqual({ status: 'failed', reason: 'answered 307' });
  });

  it('counts only the configured statuses as up, with the configured method', async () => {
    const strict = await readyWith({ LEGACY_READINESS_STATUSES: '200' });
    expect(strict.status).toBe(503);
    expect(strict.body.checks.legacy).toEqual({ status: 'failed', reason: 'answered 401' });

    const head = await readyWith({ LEGACY_READINESS_METHOD: 'HEAD' });
    expect(head.status).toBe(200);
    expect(backend.received.map((request) => `${request.method} ${request.url}`)).toEqual([
      'HEAD /service/o/',
    ]);
  });
});
