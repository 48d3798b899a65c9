import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import { accessToken } from '../test/idp-tokens.js';
import { cpuTimesMs } from './proc.js';
import { BenchStack } from './stack.js';

/**
 * `npx tsx bench/deprecation-cost.ts`: the gateway's CPU time per `/service` detail read with the retirement
 * features off (the default), with another endpoint deprecated (the step runs and finds nothing), with this
 * endpoint deprecated (headers added), and with tracing exported to a loopback sink. One gateway per case,
 * CPU read from /proc, as `bench:cpu` does.
 */
const { values } = parseArgs({
  options: { operations: { type: 'string', default: '2000' }, concurrency: { type: 'string', default: '8' } },
});
const operations = Number(values.operations);
const concurrency = Number(values.concurrency);

const stack = new BenchStack();
const sink = createServer((request, response) => {
  request.resume();
  request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
});
try {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-deprecation-'));
  stack.removeLater(dataDir);
  const idp = await stack.startIdp(join(dataDir, 'keys'));
  const legacy = await stack.startLegacy(dataDir, idp.port, '0');
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
  const file = async (name: string, text: string) => {
    const path = join(dataDir, name);
    await writeFile(path, text);
    return path;
  };
  const token = await accessToken(idp.issuer, 'alice');
  const detail = `/service/ou/${referenceUnitUuids[0]}/details/manager`;
  const cases: { name: string; env: Record<string, string> }[] = [
    { name: 'nothing configured', env: {} },
    {
      name: 'another endpoint deprecated',
      env: {
        DEPRECATION_CONFIG: await file(
          'other.yaml',
          'endpoints: [{ endpoint: "GET /service/ou/{uuid}/details/kle", deprecated: 2026-09-01 }]',
        ),
      },
    },
    {
      name: 'this endpoint deprecated',
      env: {
        DEPRECATION_CONFIG: await file(
          'this.yaml',
          'endpoints: [{ endpoint: "GET /service/ou/{uuid}/details/manager", deprecated: 2026-09-01, sunset: 2027-06-01 }]',
        ),
      },
    },
    { name: 'tracing to a loopback sink', env: { OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl } },
  ];
  const rows = [];
  for (const { name, env } of cases) {
    const { process: gateway, url } = await stack.startGateway(legacy.url, idp.port, env);
    const pool = new Pool(url, { connections: concurrency });
    const drive = async (count: number) => {
      let next = 0;
      const worker = async () => {
        while (next < count) {
          next += 1;
          const response = await pool.request({
            method: 'GET',
            path: detail,
            headers: { authorization: `Bearer ${token}` },
          });
          await response.body.arrayBuffer();
          if (response.statusCode !== 200) throw new Error(`${detail} answered ${response.statusCode}`);
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
    };
    await drive(Math.ceil(operations / 4));
    const before = await cpuTimesMs(gateway.child.pid);
    await drive(operations);
    const after = await cpuTimesMs(gateway.child.pid);
    if (!before || !after) throw new Error('reads CPU time from /proc (Linux only)');
    rows.push({
      name,
      gateway_cpu_ms_per_op:
        Math.round(((after.user + after.system - before.user - before.system) / operations) * 1000) / 1000,
    });
    await pool.close();
    await gateway.stop();
  }
  console.table(rows);
} finally {
  sink.close();
  await stack.close();
}
