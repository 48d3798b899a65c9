import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdp, type RunningIdp } from '../idp/src/server.js';
import { startLegacyService, type LegacyServer } from '../legacy-service/src/server.js';
import { accessToken } from './idp-tokens.js';
import { nginxForTests } from './nginx.js';
import { freePort, spawnGateway, type StartedProcess, waitForHealth } from './processes.js';

/**
 * The gateway keeps no state of its own: two gateway processes behind a round-robin load balancer
 * (Debian's nginx, as docker-compose.yml's deploy/nginx.conf does with containers) serve the same tokens,
 * queries and writes, and a write through one is read through the other.
 */

const nginx = nginxForTests('test/stateless.test.ts');

/** A round-robin balancer over `upstreams`, reporting which one answered in `X-Upstream`. */
function nginxConfig(dir: string, port: number, upstreams: string[]): string {
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/temp/body;
  proxy_temp_path ${dir}/temp/proxy;
  fastcgi_temp_path ${dir}/temp/fastcgi;
  uwsgi_temp_path ${dir}/temp/uwsgi;
  scgi_temp_path ${dir}/temp/scgi;
  upstream gateways {
${upstreams.map((upstream) => `    server ${upstream};`).join('\n')}
    keepalive 8;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://gateways;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

describe.skipIf(nginx.skip)('two gateways behind a load balancer', () => {
  let dataDir: string;
  let nginxDir: string;
  let legacy: LegacyServer;
  let idp: RunningIdp;
  let gateways: StartedProcess[] = [];
  let balancer: ChildProcess | undefined;
  let balancerUrl: string;
  let token: string;

  beforeAll(async () => {
    // First, so a missing nginx fails at once with its sentence, before anything is started.
    const nginxBinary = nginx.path();
    dataDir = await mkdtemp(join(tmpdir(), 'gateway-stateless-'));
    nginxDir = await mkdtemp(join(tmpdir(), 'gateway-stateless-nginx-'));
    legacy = await startLegacyService({ dataDir });
    idp = await startIdp();
    gateways = await Promise.all([1, 2].map(() => spawnGateway(legacy.url, idp, { LOG_LEVEL: 'warn' })));

    const port = await freePort();
    // nginx's workers drop root privileges: they must reach the folder and write their temporary files.
    await chmod(nginxDir, 0o755);
    await mkdir(join(nginxDir, 'temp'), { mode: 0o777 });
    await chmod(join(nginxDir, 'temp'), 0o777);
    await writeFile(
      join(nginxDir, 'nginx.conf'),
      nginxConfig(
        nginxDir,
        port,
        gateways.map((gateway) => gateway.url),
      ),
    );
    balancer = spawn(nginxBinary, ['-p', nginxDir, '-c', 'nginx.conf', '-e', join(nginxDir, 'error.log')], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    balancerUrl = `http://127.0.0.1:${port}`;
    await waitForHealth(`${balancerUrl}/health/ready`);

    token = await accessToken(idp.issuer, 'alice');
  });

  afterAll(async () => {
    if (balancer && balancer.exitCode === null) {
      const exited = new Promise((resolve) => balancer!.once('exit', resolve));
      balancer.kill('SIGQUIT');
      await exited;
    }
    await Promise.all(gateways.map((gateway) => gateway.stop()));
    await idp?.close();
    await legacy?.close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(nginxDir, { recursive: true, force: true });
  });

  async function graphql(query: string) {
    const response = await fetch(`${balancerUrl}/graphql/v2`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    return {
      status: response.status,
      upstream: response.headers.get('x-upstream'),
      requestId: response.headers.get('x-request-id'),
      body: (await response.json()) as any,
    };
  }

  it('serves one token, queries and /service reads through both gateways', async () => {
    const answers = [];
    for (let index = 0; index < 10; index += 1) {
      answers.push(
        index % 2 === 0
          ? await graphql('{ org_units(limit: 2) { objects { uuid name } } }')
          : await fetch(`${balancerUrl}/service/o/`, { headers: { authorization: `Bearer ${token}` } }).then(
              async (response) => ({
                status: response.status,
                upstream: response.headers.get('x-upstream'),
                requestId: response.headers.get('x-request-id'),
                body: (await response.json()) as any,
              }),
            ),
      );
    }
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(answers.every((answer) => answer.requestId !== null)).toBe(true);
    const upstreams = answers.map((answer) => answer.upstream);
    expect(new Set(upstreams)).toEqual(new Set(gateways.map((gateway) => gateway.url)));
    for (const gateway of gateways) {
      expect(upstreams.filter((upstream) => upstream === gateway.url).length).toBeGreaterThanOrEqual(3);
    }
  });

  it('reads a write made through one gateway through the other', async () => {
    const created = await graphql(
      'mutation { employee_create(input: { givenname: "Stella", surname: "Stateless" }) { uuid } }',
    );
    expect(created.status).toBe(200);
    const uuid = created.body.data.employee_create.uuid as string;

    let read = await graphql(`{ employees(filter: { uuids: ["${uuid}"] }) { objects { uuid name } } }`);
    // Round robin sends the next request to the other gateway; should anything interleave, ask once more.
    if (read.upstream === created.upstream) {
      read = await graphql(`{ employees(filter: { uuids: ["${uuid}"] }) { objects { uuid name } } }`);
    }
    expect(read.upstream).not.toBe(created.upstream);
    expect(read.body.data.employees.objects).toEqual([{ uuid, name: 'Stella Stateless' }]);
  });
});
