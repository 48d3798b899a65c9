import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';

/**
 * A recording proxy in front of the legacy service for the peer tests (Mesh's own server, Hive Gateway):
 * every call is forwarded with its `Authorization` and recorded, so a test can count the legacy calls a
 * query costs, read their dependent rounds and see which credential each carried.
 *
 * The rounds come from holding calls, not from timing them: the proxy holds every call it receives and lets
 * the held ones through together once no new call has come for `quietMs`. A peer's call that needs an
 * answer can only be made after that answer was let through, so it lands in a later wave; calls the peer
 * makes together land in the same wave however slowly the machine schedules them, as long as they arrive
 * within `quietMs` of each other (they are made in one tick; a shared CI machine once spread one round's
 * calls over more than the 20 ms a timing overlap allowed).
 *
 * A quiet time that ends while this process was stalled (a GC pause, a busy neighbour) proves nothing: a call
 * that came meanwhile on a new connection is only read a turn or two of the event loop after the due timer
 * has run. So the wave waits two more turns once the quiet time is up, and a call read in them restarts it.
 */

export interface LegacyCall {
  method: string;
  path: string;
  /** The `Authorization` header the peer sent, or null. */
  authorization: string | null;
  /** The wave the call was let through in, counted from the proxy's start. */
  wave: number;
}

export async function startCountingProxy(targetUrl: string, { quietMs = 300 }: { quietMs?: number } = {}) {
  const calls: LegacyCall[] = [];
  let wave = 0;
  let held: Array<(wave: number) => void> = [];
  /** Calls received so far: a wave goes only if none came since its quiet time began. */
  let received = 0;
  let timer: NodeJS.Timeout | undefined;
  const releaseIfQuiet = (seen: number, turns: number) => {
    if (seen !== received) return;
    if (turns > 0) {
      setImmediate(() => releaseIfQuiet(seen, turns - 1));
      return;
    }
    wave += 1;
    const releasing = held;
    held = [];
    for (const release of releasing) release(wave);
  };
  const hold = () =>
    new Promise<number>((release) => {
      held.push(release);
      const seen = ++received;
      clearTimeout(timer);
      timer = setTimeout(() => releaseIfQuiet(seen, 2), quietMs);
    });
  const server: ServerType = await new Promise((resolve) => {
    const started = serve(
      {
        hostname: '127.0.0.1',
        port: 0,
        fetch: async (request) => {
          const url = new URL(request.url);
          const authorization = request.headers.get('authorization');
          const body = request.method === 'GET' ? undefined : await request.text();
          const callWave = await hold();
          calls.push({ method: request.method, path: url.pathname, authorization, wave: callWave });
          const upstream = await fetch(`${targetUrl}${url.pathname}${url.search}`, {
            method: request.method,
            headers: {
              accept: 'application/json',
              'content-type': 'application/json',
              ...(authorization === null ? {} : { authorization }),
            },
            body,
          });
          return new Response(await upstream.arrayBuffer(), {
            status: upstream.status,
            headers: { 'content-type': upstream.headers.get('content-type') ?? 'application/json' },
          });
        },
      },
      () => resolve(started),
    );
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    /** How many calls are held now, waiting for their wave. */
    holding: () => held.length,
    close: () =>
      new Promise<void>((resolve) => {
        clearTimeout(timer);
        server.close(() => resolve());
      }),
  };
}

/**
 * Each call's path with its dependent round (its wave, counted from the first wave among `calls`), sorted
 * by round then path: a plan a test can compare.
 */
export function planOf(calls: readonly LegacyCall[]): { path: string; round: number }[] {
  const first = Math.min(...calls.map((call) => call.wave));
  return sortPlan(calls.map((call) => ({ path: call.path, round: call.wave - first + 1 })));
}

export function sortPlan(plan: { path: string; round: number }[]): { path: string; round: number }[] {
  return [...plan].sort((a, b) => a.round - b.round || a.path.localeCompare(b.path));
}
