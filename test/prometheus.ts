import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './processes.js';

/** Debian's Prometheus, where `.ci/run` installs it. */
const binary = '/usr/bin/prometheus';

export interface PrometheusForTests {
  url: string;
  /** An instant query's result at the server's now. */
  query(promql: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  /** Resolves once every target's last scrape succeeded; polls the targets API, never sleeps. */
  targetsUp(count: number, timeoutMs?: number): Promise<void>;
  /** Polls until `check` holds, for waiting on what Prometheus has scraped. */
  until(check: () => Promise<boolean>, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real Prometheus on a loopback port with a temporary configuration and storage, scraping the given gateways'
 * `/metrics` with the bearer token every 400 ms.
 */
export async function startPrometheus(options: {
  targets: string[];
  token: string;
  /** The port to listen on; by default one the OS had free. */
  port?: number;
}): Promise<PrometheusForTests> {
  try {
    accessSync(binary, constants.X_OK);
  } catch {
    throw new Error(
      `This test needs Prometheus at ${binary}: install it with apt-get install -y prometheus.`,
    );
  }
  const dir = await mkdtemp(join(tmpdir(), 'prometheus-'));
  const port = options.port ?? (await freePort());
  const targets = options.targets.map((target) => new URL(target).host);
  await writeFile(
    join(dir, 'prometheus.yml'),
    [
      'global:',
      '  scrape_interval: 400ms',
      '  scrape_timeout: 400ms',
      'scrape_configs:',
      '  - job_name: gateway',
      '    authorization:',
      `      credentials: ${JSON.stringify(options.token)}`,
      '    static_configs:',
      `      - targets: ${JSON.stringify(targets)}`,
      '',
    ].join('\n'),
  );
  const child = spawn(
    binary,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;

  const until = async (check: () => Promise<boolean>, what: string, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`Prometheus exited: ${output}`);
      if (await check().catch(() => false)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`Prometheus: ${what} not within ${timeoutMs} ms. ${output}`);
  };
  const close = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await until(async () => (await fetch(`${url}/-/ready`)).ok, 'ready');
  } catch (error) {
    await close();
    throw error;
  }
  return {
    url,
    async query(promql) {
      const response = await fetch(`${url}/api/v1/query?${new URLSearchParams({ query: promql })}`);
      const body = (await response.json()) as { data: { result: [] } };
      return body.data.result;
    },
    targetsUp: (count, timeoutMs) =>
      until(
        async () => {
          const body = (await (await fetch(`${url}/api/v1/targets`)).json()) as {
            data: { activeTargets: { health: string }[] };
          };
          const active = body.data.activeTargets;
          return active.length === count && active.every((target) => target.health === 'up');
        },
        `${count} targets up`,
        timeoutMs,
      ),
    until,
    close,
  };
}
