// Child process for crash.test.ts: writes numbered transactions and prints `ack <n>` once each is durable.
// Usage: node --import tsx crash-writer.ts <dir> [plain|compaction]
import { openStore } from './index.js';
import type { Mutation } from './index.js';

const [dir, mode = 'plain'] = process.argv.slice(2);
if (dir === undefined || (mode !== 'plain' && mode !== 'compaction')) {
  console.error('usage: crash-writer.ts <dir> [plain|compaction]');
  process.exit(2);
}

const maxTransactions = 3000;
// In compaction mode a large seed makes every snapshot take a while, so a kill can land inside one.
const fillerEntities = 20_000;

function filler(): Mutation[] {
  return Array.from({ length: fillerEntities }, (_, n) => ({
    collection: 'filler',
    uuid: `filler-${n}`,
    value: { uuid: `filler-${n}`, text: `entity ${n} padded to look like a small organisation record` },
  }));
}

const store = await openStore({
  dir,
  compactEvery: mode === 'compaction' ? 25 : 1000,
  seed: mode === 'compaction' ? filler : undefined,
});
const start = (store.get('progress', 'counter')?.n as number | undefined) ?? 0;

for (let n = start + 1; n <= start + maxTransactions; n += 1) {
  await store.transaction((s) => {
    const counter = (s.get('progress', 'counter')?.n as number | undefined) ?? 0;
    return {
      mutations: [
        { collection: 'acks', uuid: `ack-${n}`, value: { uuid: `ack-${n}`, n } },
        { collection: 'progress', uuid: 'counter', value: { uuid: 'counter', n: counter + 1 } },
      ],
      result: n,
    };
  });
  process.stdout.write(`ack ${n}\n`);
}
await store.close();
process.stdout.write('done\n');
