import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Pool } from 'undici';
import { accessToken } from '../test/idp-tokens.js';
import { startTsProcess, waitForHealth, type StartedProcess } from '../test/processes.js';
import { builtGatewayEntry, gatewayNodeFlags } from './built-gateway.js';

/**
 * The processes `npm run bench` measures, each on a loopback port the OS chooses, with backend
 * authentication on as in production: the legacy stand-in checks every `/service` call's token against the
 * bench's identity provider, the gateway relays the caller's token (`LEGACY_CREDENTIALS=relay`, its
 * default), and every other path (direct plans, peers, bare proxy) sends the same bearer token.
 */
export class BenchStack {
  private readonly started: StartedProcess[] = [];
  private readonly stoppers: (() => Promise<void>)[] = [];
  private readonly folders: string[] = [];
  private readonly pools: Pool[] = [];

  /** Stops what was started, closes the pools and removes the temporary folders. */
  async close(): Promise<void> {
    // Emptied as they go, so a second close (the bench's `finally`) has nothing left to do.
    await Promise.all(this.pools.splice(0).map((pool) => pool.close()));
    await Promise.all(this.started.splice(0).map((process) => process.stop()));
    await Promise.all(this.stoppers.splice(0).map((stop) => stop()));
    await Promise.all(this.folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
  }

  /** Removes the folder when the bench ends. */
  removeLater(folder: string): void {
    this.folders.push(folder);
  }

  /** Runs `stop` when the bench ends. */
  stopLater(stop: () => Promise<void>): void {
    this.stoppers.push(stop);
  }

  track(process: StartedProcess): StartedProcess {
    this.started.push(process);
    return process;
  }

  /** A keep-alive client with as many connections as the gateway keeps to the legacy service (128). */
  pool(origin: string): Pool {
    const created = new Pool(origin, { connections: 128 });
    this.pools.push(created);
    return created;
  }

  /** The development identity provider; its port is what the legacy service and the gateway are told. */
  async startIdp(keysDir: string): Promise<{ port: number; issuer: string }> {
    const idp = this.track(
      await startTsProcess(
        'idp/src/main.ts',
        { IDP_PORT: '0', IDP_KEYS_DIR: keysDir },
        /on (http:\/\/localhost:\d+)/,
      ),
    );
    const port = Number(new URL(idp.url).port);
    await waitForHealth(`http://127.0.0.1:${port}/health`);
    return { port, issuer: `http://localhost:${port}/auth/realms/org` };
  }

  /** The legacy stand-in on `dataDir`, checking tokens (`LEGACY_AUTH=on`) against the bench's realm. */
  async startLegacy(dataDir: string, idpPort: number, latencyMs: string): Promise<StartedProcess> {
    const legacy = this.track(
      await startTsProcess(
        'legacy-service/src/main.ts',
        {
          LEGACY_DATA_DIR: dataDir,
          LEGACY_PORT: '0',
          LEGACY_LATENCY_MS: latencyMs,
          LEGACY_AUTH: 'on',
          IDP_HOST: 'localhost',
          IDP_PORT: String(idpPort),
        },
        /legacy-service: (http:\/\/[^\s]+)\/service\//,
        180_000,
      ),
    );
    await waitForHealth(`${legacy.url}/health`, 180_000);
    return legacy;
  }

  /**
   * The built gateway with its deployed node flags (or `nodeFlags`), RBAC off, logs at `warn`, relaying each
   * caller's token.
   */
  async startGateway(
    legacyUrl: string,
    idpPort: number,
    env: Record<string, string> = {},
    nodeFlags: string[] = gatewayNodeFlags,
    /** Another build's `main.js` (a baseline checkout's `gateway/dist/main.js`); by default this one's. */
    entry: string = builtGatewayEntry(),
  ): Promise<{ process: StartedProcess; url: string }> {
    const gateway = this.track(
      await startTsProcess(
        entry,
        {
          GATEWAY_PORT: '0',
          LEGACY_URL: legacyUrl,
          LEGACY_CREDENTIALS: 'relay',
          IDP_HOST: 'localhost',
          IDP_PORT: String(idpPort),
          LOG_LEVEL: 'warn',
          ...env,
        },
        /listening on [^:]+:(\d+)/,
        30_000,
        nodeFlags,
      ),
    );
    const url = `http://127.0.0.1:${/listening on [^:]+:(\d+)/.exec(gateway.output())?.[1] ?? gateway.url}`;
    await waitForHealth(`${url}/health/live`);
    return { process: gateway, url };
  }

  /** A bare Node proxy in front of the legacy service: the cost of one more process hop. */
  async startBareProxy(legacyUrl: string): Promise<StartedProcess> {
    return this.track(
      await startTsProcess(
        'bench/bare-proxy.ts',
        { BARE_PROXY_TARGET: legacyUrl },
        /bare proxy on (http:\/\/[^\s]+)/,
      ),
    );
  }
}

/**
 * alice's access token, renewed before it gets old: the realm's tokens live 300 s and a full bench run
 * takes longer. `renew()` runs between measurements, never inside one.
 */
export class BenchToken {
  private token = '';
  private fetchedAt = 0;

  constructor(private readonly issuer: string) {}

  async renew(maxAgeMs = 120_000): Promise<void> {
    if (this.token && Date.now() - this.fetchedAt < maxAgeMs) return;
    this.token = await accessToken(this.issuer, 'alice');
    this.fetchedAt = Date.now();
  }

  get authorization(): string {
    if (!this.token) throw new Error('BenchToken.renew() was not awaited.');
    return `Bearer ${this.token}`;
  }
}

export interface RequestInit {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

/** A JSON answer; anything from 400 up fails the operation. */
export async function json(client: Pool, path: string, init: RequestInit = {}) {
  const response = await client.request({
    method: init.method ?? 'GET',
    path,
    headers: init.headers,
    body: init.body,
  });
  const body = await response.body.json();
  if (response.statusCode >= 400) throw new Error(`${path}: ${response.statusCode} ${JSON.stringify(body)}`);
  return body as any; // eslint-disable-line @typescript-eslint/no-explicit-any -- benchmark reads known JSON shapes
}

/**
 * A GraphQL answer's `data` (and `extensions`); an answer with errors fails the operation, so a peer that
 * cannot reach the legacy service (a missing token, say) is never measured as fast.
 */
export async function graphql(client: Pool, path: string, authorization: string, body: string) {
  const answer = await json(client, path, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json', accept: 'application/json' },
    body,
  });
  if (answer.errors || !answer.data) throw new Error(`${path}: ${JSON.stringify(answer.errors ?? answer)}`);
  return answer as { data: any; extensions?: any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- as above
}

/** Legacy requests served so far (the stand-in's `/health` counter; the read itself is not counted). */
export async function legacyRequestsServed(legacy: Pool): Promise<number> {
  return (await json(legacy, '/health')).requests_served as number;
}

export const keysFolder = (dataDir: string) => join(dataDir, 'keys');
