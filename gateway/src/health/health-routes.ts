import type { LegacyClient } from '../legacy/legacy-client.js';
import { Hono } from 'hono';
import type { Database } from '../database/database.js';
import type { Logger } from '../observability/index.js';
import { legacyProbe, type LegacyProbeConfig } from './legacy-probe.js';
import { createReadiness, readinessRoute } from './readiness.js';
import { signingKeysCheck } from './signing-keys.js';

export interface HealthRouteOptions {
  /** The legacy backend (`LEGACY_URL`) and what readiness asks it (`LEGACY_READINESS_*`). */
  legacy: Pick<LegacyClient, 'probe'>;
  legacyProbe: LegacyProbeConfig;
  jwksUrl: URL;
  /** Whether the token verifier holds signing keys already (then a JWKS outage does not make us unready). */
  keysCached: () => boolean;
  onJwksFetch: (outcome: 'ok' | 'error') => void;
  readinessTimeoutMs: number;
  /** The gateway's own state, when `DATABASE_URL` is set: then readiness needs it too. */
  database?: Pick<Database, 'check'>;
  logger: Logger;
}

/**
 * `GET /health/live` (the process answers) and `GET /health/ready` (the legacy service, the signing keys and,
 * when configured, the database can be reached), for the orchestrator; neither needs a token.
 *
 * @example
 * app.route('/', healthRoutes({ legacy, legacyProbe, jwksUrl, keysCached: verifier.hasKeys, onJwksFetch, readinessTimeoutMs, logger }));
 */
export function healthRoutes(options: HealthRouteOptions): Hono {
  const app = new Hono();
  app.get('/health/live', (c) => c.json({ status: 'ok' }));
  const signingKeys = signingKeysCheck({
    jwksUrl: options.jwksUrl,
    keysCached: options.keysCached,
    onFetch: options.onJwksFetch,
  });
  const readiness = createReadiness({
    checks: {
      legacy: legacyProbe(options.legacy, options.legacyProbe),
      signing_keys: signingKeys.check,
      ...(options.database ? { database: options.database.check } : {}),
    },
    timeoutMs: options.readinessTimeoutMs,
    logger: options.logger,
  });
  app.get('/health/ready', readinessRoute(readiness));
  return app;
}
