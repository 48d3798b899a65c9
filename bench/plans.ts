import { Pool } from 'undici';
import { planOf, startCountingProxy, type LegacyCall } from '../test/counting-proxy.js';
import { startMeshServer } from '../test/mesh-server.js';
import { startHivePeer } from './hive/peer.js';

/**
 * The legacy calls and dependent rounds each way of getting the reference data costs, counted as the peer
 * tests count them: the peers and the direct plan run once against a recording proxy in front of the
 * legacy service (so the proxy's hop never enters a measurement), and each call's `Authorization` is
 * checked to be the caller's token. The gateway reports its own plan (`X-Upstream-Trace`).
 */

export interface LegacyPlan {
  requests: number;
  rounds: number;
  /** Every legacy call carried the caller's bearer token. */
  token_relayed: boolean;
}

export function planFromCalls(calls: readonly LegacyCall[], authorization: string): LegacyPlan {
  return {
    requests: calls.length,
    rounds: Math.max(0, ...planOf(calls).map((call) => call.round)),
    token_relayed: calls.length > 0 && calls.every((call) => call.authorization === authorization),
  };
}

export interface PlanSubjects {
  /** The supergraph the Hive peer serves. */
  supergraph: string;
  authorization: string;
  /** Runs the reference query against a peer at `url` and returns its data in the reference shape. */
  mesh(url: string): Promise<unknown>;
  hive(url: string): Promise<unknown>;
  /** Runs the direct plan against this pool. */
  direct(legacy: Pool): Promise<void>;
}

export async function countPeerPlans(legacyUrl: string, subjects: PlanSubjects) {
  // The proxy holds calls in waves, as in the peer tests: a wave is one dependent round.
  const proxy = await startCountingProxy(legacyUrl);
  const counted = async (work: () => Promise<unknown>) => {
    const first = proxy.calls.length;
    const data = await work();
    return { data, plan: planFromCalls(proxy.calls.slice(first), subjects.authorization) };
  };
  try {
    const mesh = await startMeshServer(proxy.url);
    const meshRun = await counted(() => subjects.mesh(mesh.url)).finally(() => mesh.stop());
    const hive = await startHivePeer(proxy.url, { supergraph: subjects.supergraph });
    const hiveRun = await counted(() => subjects.hive(hive.url)).finally(() => hive.stop());
    const pool = new Pool(proxy.url);
    const directRun = await counted(() => subjects.direct(pool)).finally(() => pool.close());
    return { mesh: meshRun, hive: hiveRun, direct: directRun.plan };
  } finally {
    await proxy.close();
  }
}
