import type { LegacyClient, LegacyProbe } from '../legacy/legacy-client.js';
import type { ReadinessCheck } from './readiness.js';

/** What readiness asks the legacy backend, and which answers count as up (`LEGACY_READINESS_*`). */
export type LegacyProbeConfig = LegacyProbe;

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
 * Readiness of the legacy backend: one request of `probe` through the legacy client's pool, without
 * credentials and without following redirects. The reason names the status or the failure, never the address.
 *
 * @example
 * createReadiness({ checks: { legacy: legacyProbe(legacy, defaultLegacyProbe) }, timeoutMs: 2000 });
 */
export function legacyProbe(legacy: Pick<LegacyClient, 'probe'>, probe: LegacyProbeConfig): ReadinessCheck {
  return (timeoutMs) => legacy.probe(probe, timeoutMs);
}
