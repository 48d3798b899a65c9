import type { Pool } from 'undici';
import {
  measureInterleaved,
  perOperation,
  type CaseResult,
  type Counters,
  type MeasureOptions,
} from './harness.js';
import { cpuMs } from './proc.js';
import { legacyRequestsServed } from './stack.js';

/** A case of `npm run bench`: what it runs, and the process it goes through (whose CPU is counted), if any. */
export interface BenchCase {
  name: string;
  operation: () => Promise<void>;
  serverPid?: number | undefined;
}

/**
 * Measures a group of cases side by side (`measureInterleaved`) and adds, per operation, the legacy
 * requests served and the CPU time of each case's server and of the legacy service, read around every slice.
 */
export async function measureGroup(
  cases: BenchCase[],
  options: MeasureOptions,
  legacy: { pool: Pool; pid: number | undefined },
  slices = 3,
): Promise<CaseResult[]> {
  const counters = async (serverPid: number | undefined): Promise<Counters> => ({
    served: await legacyRequestsServed(legacy.pool),
    server: serverPid === undefined ? null : await cpuMs(serverPid),
    legacy: await cpuMs(legacy.pid),
  });
  const zero: Counters = { served: 0, server: 0, legacy: 0 };
  const totals = cases.map(({ serverPid }) => ({ ...zero, server: serverPid === undefined ? null : 0 }));
  const add = (a: number | null, b: number | null, c: number | null) =>
    a === null || b === null || c === null ? null : a + b - c;
  const measured = await measureInterleaved(
    cases.map(({ name, operation, serverPid }, index) => {
      let before: Counters = zero;
      return {
        name,
        operation,
        hooks: {
          before: async () => void (before = await counters(serverPid)),
          after: async () => {
            const after = await counters(serverPid);
            const total = totals[index]!;
            total.served = total.served + after.served - before.served;
            total.server = add(total.server, after.server, before.server);
            total.legacy = add(total.legacy, after.legacy, before.legacy);
          },
        },
      };
    }),
    options,
    slices,
  );
  return measured.map((result, index) => {
    console.error(`measured ${result.name}`);
    return { ...result, ...perOperation(result, zero, totals[index]!) };
  });
}
