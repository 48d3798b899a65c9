import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/**
 * A recording proxy in front of the legacy service for the peer tests (Mesh's own server, Hive Gateway):
 * every call is forwarded with its `Authorization` and recorded with its start and end, so a test can
 * count the legacy calls a query costs, read their dependent rounds and see which credential each carried.
 */

export interface LegacyCall {
  method: string;
  path: string;
  /** The `Authorization` header the peer sent, or null. */
  authorization: string | null;
  startedAt: number;
  endedAt: number;
}

/**
 * `delayMs` holds each call that long before forwarding it, so that calls made together overlap even when
 * the legacy service answers fast (the rounds are read from the overlaps).
 */
export async function startCountingProxy(targetUrl: string, delayMs = 0) {
  const calls: LegacyCall[] = [];
  const server: ServerType = await new Promise((resolve) => {
    const started = serve(
      {
        hostname: '127.0.0.1',
        port: 0,
        fetch: async (request) => {
          const url = new URL(request.url);
          const startedAt = performance.now();
          const authorization = request.headers.get('authorization');
          if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
          const upstream = await fetch(`${targetUrl}${url.pathname}${url.search}`, {
            method: request.method,
            headers: {
              accept: 'application/json',
              'content-type': 'application/json',
              ...(authorization === null ? {} : { authorization }),
            },
            body: request.method === 'GET' ? undefined : await request.text(),
          });
          const body = await upstream.arrayBuffer();
          calls.push({
            method: request.method,
            path: url.pathname,
            authorization,
            startedAt,
            endedAt: performance.now(),
          });
          return new Response(body, {
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The dependent round of each call: one after the latest round that had finished when the call
 * started (calls of one round overlap when every legacy response is delayed).
 */
export function roundsOf(calls: readonly LegacyCall[]): number[] {
  const ordered = [...calls].sort((a, b) => a.startedAt - b.startedAt);
  const rounds: number[] = [];
  ordered.forEach((call, index) => {
    let round = 1;
    for (let before = 0; before < index; before++) {
      if (ordered[before]!.endedAt <= call.startedAt) round = Math.max(round, rounds[before]! + 1);
    }
    rounds.push(round);
  });
  return rounds;
}

/** Each call's path with its dependent round, sorted by round then path: a plan a test can compare. */
export function planOf(calls: readonly LegacyCall[]): { path: string; round: number }[] {
  const ordered = [...calls].sort((a, b) => a.startedAt - b.startedAt);
  const rounds = roundsOf(ordered);
  return sortPlan(ordered.map((call, index) => ({ path: call.path, round: rounds[index]! })));
}

export function sortPlan(plan: { path: string; round: number }[]): { path: string; round: number }[] {
  return [...plan].sort((a, b) => a.round - b.round || a.path.localeCompare(b.path));
}
