import type { MiddlewareHandler } from 'hono';
import type { GatewayVariables } from '../auth/bearer-auth.js';
import { GatewayError } from '../errors/gateway-error.js';
import { judgedBody } from '../http/judged-body.js';
import { createLegacyLoaders } from '../legacy/legacy-loaders.js';
import {
  LegacyResponseError,
  LegacyTimeoutError,
  LegacyUnavailableError,
  type LegacyClient,
} from '../legacy/legacy-client.js';
import type { RbacDecision } from './rbac-decision.js';
import type { RbacPolicy } from './rbac-policy.js';
import { isServicePostRead } from './service-post-reads.js';
import { writeIntents } from './write-intents.js';

export interface ServiceRbacOptions {
  policy: RbacPolicy;
  legacy: LegacyClient;
  clock?: () => Date;
}

/**
 * A refusal, written by the `/service` routes' `onError` in the legacy body: 403, or 409 with the legacy
 * service's own `E_ALREADY_EXISTS` for a create over an object that exists.
 */
function forbidden(decision: RbacDecision): GatewayError {
  return decision.conflict
    ? new GatewayError(409, 'CONFLICT', decision.reason, { errorKey: 'E_ALREADY_EXISTS' })
    : new GatewayError(403, 'FORBIDDEN', decision.reason);
}

/**
 * RBAC for `/service` writes: every request but GET, HEAD and the `POST`s that write nothing (`validate/*`) is
 * decided by the RBAC policy before anything is sent to the legacy service; a refusal answers 403
 * `E_FORBIDDEN`. Reads are never restricted. A write to a path RBAC does not know is read as `unreadable`:
 * only an admin may send it, because RBAC cannot tell which unit it changes.
 *
 * When the token settles the decision (RBAC off, admin, no role) the body is not looked at here. For an
 * owner the decision reads the body `judgedBody` parsed once and strictly — after `bodyLimit`, so it is
 * bounded — and the passthrough forwards those same bytes. A body that is not strict JSON (NaN, UTF-16, a
 * BOM, a compressed body, …) never gets here: it is 400 for every role, so no write goes on undecided.
 *
 * @example
 * app.use('/service/*', bearerAuth(…), bodyLimit(…), strictJsonBody(), serviceRbac({ policy, legacy }));
 */
export function serviceRbac(options: ServiceRbacOptions): MiddlewareHandler<{ Variables: GatewayVariables }> {
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    // The `validate/*` checks write nothing: a read, which any token may send (`service-post-reads.ts`).
    if (isServicePostRead(c.req.method, c.req.path)) return next();
    const principal = c.get('principal');
    const byRole = options.policy.decideByRole(principal);
    if (byRole) {
      if (!byRole.allowed) throw forbidden(byRole);
      return next();
    }
    // Read once and strictly for every role (`strictJsonBody`): the passthrough forwards these bytes.
    const { value: body } = await judgedBody(c);

    let decision: RbacDecision;
    try {
      decision = await options.policy.decide(
        principal,
        writeIntents({ method: c.req.method, path: c.req.path, body }),
        {
          reads: createLegacyLoaders(options.legacy, {
            signal: c.req.raw.signal,
            authorization: c.req.header('authorization'),
            // The look-ups belong to this request: the backend sees its id, the trace its spans.
            requestId: c.get('requestId'),
            trace: c.get('traceContext'),
          }),
          today: (options.clock?.() ?? new Date()).toISOString().slice(0, 10),
        },
      );
    } catch (error) {
      const timeout = error instanceof LegacyTimeoutError;
      if (!timeout && !(error instanceof LegacyUnavailableError || error instanceof LegacyResponseError)) {
        throw error;
      }
      throw timeout
        ? new GatewayError(
            504,
            'UPSTREAM_TIMEOUT',
            'The legacy service did not answer in time, so the write could not be authorised.',
          )
        : new GatewayError(
            502,
            'UPSTREAM_UNAVAILABLE',
            'The legacy service did not answer the reads that authorise this write.',
          );
    }
    if (!decision.allowed) throw forbidden(decision);
    return next();
  };
}
