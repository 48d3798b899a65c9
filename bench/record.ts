import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { measureSweep, measureUuidLookup } from './backend-record.js';
import { measureEmbeddedDatabase } from './embedded-database.js';
import { peakRssMb } from './proc.js';
import { formatTable } from './report.js';
import { BenchStack, BenchToken, keysFolder } from './stack.js';

/**
 * Issue 36's rows alone (`npx tsx bench/record.ts [--large-data DIR]`), as `npm run bench` also measures them:
 * a detail by UUID over all time on the seeded organisation (and on the generated one in DIR), and the sweep's
 * cost over the seeded organisation, and the memory of `npm start`'s embedded database.
 */
const { values } = parseArgs({
  options: { latency: { type: 'string', default: '5' }, 'large-data': { type: 'string' } },
});
const stack = new BenchStack();
try {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-record-'));
  stack.removeLater(dataDir);
  const idp = await stack.startIdp(keysFolder(dataDir));
  const token = new BenchToken(idp.issuer);
  const rows: Record<string, unknown>[] = [];
  for (const [data, folder] of [
    ['seeded organisation', dataDir],
    ...(values['large-data'] ? [['generated organisation', values['large-data']] as const] : []),
  ] as const) {
    const legacy = await stack.startLegacy(folder, idp.port, values.latency ?? '5');
    const gateway = await stack.startGateway(legacy.url, idp.port);
    const lookup = await measureUuidLookup(stack.pool(gateway.url), stack.pool(legacy.url), token);
    rows.push({
      data,
      'legacy calls': lookup.legacy_calls,
      'p50 ms': lookup.p50_ms,
      runs: lookup.runs,
      'gateway peak RSS MB': await peakRssMb(gateway.process.child.pid),
    });
    if (data === 'seeded organisation') {
      console.log('the sweep of the seeded organisation, one round on a fresh database, rate unbounded:');
      console.log(formatTable((await measureSweep(legacy.url, idp.issuer)).map((row) => ({ ...row }))));
    }
  }
  console.log('an address by UUID alone, over all time (v30, from_date and to_date null):');
  console.log(formatTable(rows));
  console.log("npm start's embedded database (PGlite), resident MB:");
  console.log(formatTable([{ ...(await measureEmbeddedDatabase()) }]));
} finally {
  await stack.close();
}
