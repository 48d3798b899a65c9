import type { CheckResult, ReadinessCheck } from './readiness.js';

/** What readiness asks the legacy backend, and which answers count as up (`LEGACY_READINESS_*`). */
export interface LegacyProbeConfig {
  method: 'GET' | 'HEAD';
  /** Path below `LEGACY_URL` (its own path prefix is kept), with a query if needed. */
  path: string;
  /** Statuses that prove the backend answers; anything else, redirects included, is "answered N". */
  upStatuses: number[];
}

/**
 * The default probe: `GET /service/o/`, up on 200 or 401. OS2mo 2.4.0 redirects `GET /health` to `/health/`,
 * and `/health/` asks LoRa, AMQP and DAR on every call; `/service/o/` is served by its Service API router,
 * which answers an anonymous call with 401 before touching any store, and the stand-in does the same with its
 * token check on (200 with it off). The probe carries no token, so readiness never spends or depends on the
 * gateway's backend credential, and a 401 still proves the Service API is there to answer.
 */
export const defaultLegacyProbe: LegacyProbeConfig = {
  method: 'GET',
  path: '/service/o/',
  upStatuses: [200, 401],
};

/**
 * Readiness of the legacy backend: one request of `probe` to `legacyUrl`, without credentials and without
 * following redirects. The reason names the status or the failure, never the address.
 *
 * @example
 * createReadiness({ checks: { legacy: legacyProbe(new URL('http://127.0.0.1:8082'), defaultLegacyProbe) }, timeoutMs: 2000 });
 */
export function legacyProbe(legacyUrl: URL, probe: LegacyProbeConfig): ReadinessCheck {
  const target = new URL(legacyUrl);
  const [pathname, search] = probe.path.split('?', 2) as [string, string | undefined];
  target.pathname = `${legacyUrl.pathname.replace(/\/$/, '')}${pathname}`;
  target.search = search === undefined ? '' : `?${search}`;

  return async (timeoutMs): Promise<CheckResult> => {
    let response: Response;
    try {
      response = await fetch(target, {
        method: probe.method,
        headers: { accept: 'application/json' },
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      return { ok: false, reason: timedOut ? `no answer within ${timeoutMs} ms` : 'unreachable' };
    }
    await response.body?.cancel();
    return probe.upStatuses.includes(response.status)
      ? { ok: true }
      : { ok: false, reason: `answered ${response.status}` };
  };
}
