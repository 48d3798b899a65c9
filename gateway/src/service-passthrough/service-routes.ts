import { Hono, type MiddlewareHandler } from 'hono';
import { bearerAuth, type GatewayVariables } from '../auth/bearer-auth.js';
import { readingApiRoute } from '../contract/contract-operations.js';
import type { TokenVerifier } from '../auth/token-verifier.js';
import { legacyErrorHandler, type UnexpectedErrorLog } from '../errors/legacy-error-body.js';
import { payloadTooLarge } from '../errors/payload-too-large.js';
import { bodyTooSlow } from '../errors/request-body.js';
import { bufferedBody } from '../http/body-limit.js';
import { strictJsonBody } from '../http/judged-body.js';
import { routeChain } from '../http/route-chain.js';
import type { LegacyClient } from '../legacy/legacy-client.js';
import type { RbacPolicy } from '../rbac/rbac-policy.js';
import { serviceRbac } from '../rbac/service-rbac.js';
import { serviceEvents, type ServiceEventsOptions } from './service-events.js';
import type { ServiceCpr } from '../cpr/service-cpr.js';
import { servicePassthrough } from './service-passthrough.js';
import { canonicalServicePath } from './service-path.js';
import type { WriteHook } from '../backend-record/backend-writes.js';
import { alsoOnReadLane, withReadSteps } from './read-lane-steps.js';

export interface ServiceRouteOptions {
  legacy: LegacyClient;
  verifier: TokenVerifier;
  realm: string;
  /** The gateway's public address: a legacy `Location` is rewritten to it. */
  publicUrl: string;
  maxBodyBytes: number;
  /** Longest time a client may take to send a whole body (`BODY_TIMEOUT_MS`). */
  bodyTimeoutMs: number;
  /** Decides every write (the same policy as the GraphQL mutations). */
  rbac: RbacPolicy;
  /**
   * Sees each GET's response after it is made and compares a sample of reads with GraphQL once sent;
   * left out when nothing is sampled (`SHADOW_SAMPLE_RATE=0`).
   */
  shadow?: MiddlewareHandler<{ Variables: GatewayVariables }>;
  /**
   * Deprecation headers, brownouts and retired endpoints (`serviceDeprecation`), right after the token;
   * left out when nothing under `/service` is deprecated.
   */
  deprecation?: MiddlewareHandler<{ Variables: GatewayVariables }>;
  /** Told about failures that are not a `GatewayError`; the client sees only `E_UNKNOWN`. */
  logUnexpected: UnexpectedErrorLog;
  clock?: () => Date;
  /** CPR numbers in the reads that can carry them (`serviceCpr`). */
  cpr?: ServiceCpr;
  /** OS2mo's event system (`DATABASE_URL`): each write's "mo" events, sent before it is answered. */
  events?: ServiceEventsOptions;
  /**
   * Per-client rate limits (`rateLimitStep`), right after the token; none when no limit is set. Not a step of
   * the read lane: with rate limits on, reads take the app's chain.
   */
  rateLimit?: MiddlewareHandler<{ Variables: GatewayVariables }>;
  /** Told of each write the backend accepted (the record of the backend, `DATABASE_URL`). */
  onWrite?: WriteHook;
}

/**
 * `/service/*` (and 2.4.0's reading API, `/api/v1/*`) for existing integrations, the whole chain in the order
 * it runs: one spelling of the path, bearer token, deprecation signals (when configured), body limit, the body
 * parsed strictly, RBAC for writes, shadow sampling of reads, then the passthrough to the legacy service.
 * Every refusal is the legacy API's own error body (`{"error": true, "status", "error_key", "description", …}`).
 *
 * @example
 * app.route('/', serviceRoutes({ legacy, verifier, realm, publicUrl, maxBodyBytes, rbac, shadow, logUnexpected }));
 */
export function serviceRoutes(options: ServiceRouteOptions): Hono<{ Variables: GatewayVariables }> {
  type Variables = { Variables: GatewayVariables };
  // The read lane checks the token and forwards a read itself, as these two do.
  const authenticate = alsoOnReadLane(bearerAuth({ verifier: options.verifier, realm: options.realm }));
  const passthrough = alsoOnReadLane(
    servicePassthrough({
      legacy: options.legacy,
      publicUrl: options.publicUrl,
      cpr: options.cpr,
      onWrite: options.onWrite,
    }),
  );
  const onError = legacyErrorHandler(options.logUnexpected);
  const deprecation = options.deprecation ? [options.deprecation] : [];
  const rateLimit = options.rateLimit ? [options.rateLimit] : [];
  // GET and HEAD have no body to bound and nothing for RBAC to decide (both steps pass them at once), so a
  // read runs only what applies to it; the shadow comparison samples GETs only.
  // One spelling of each path before anything matches it (`canonicalServicePath`).
  const canonicalPath = canonicalServicePath();
  const readSteps = [
    canonicalPath,
    authenticate,
    ...rateLimit,
    ...deprecation,
    ...(options.shadow ? [options.shadow] : []),
    passthrough,
  ];
  const reads = routeChain<Variables>(readSteps, onError);
  const writes = routeChain<Variables>(
    [
      canonicalPath,
      authenticate,
      ...rateLimit,
      ...deprecation,
      // The whole body is read here, bounded in size and time, before RBAC or a legacy connection sees it.
      bufferedBody({
        maxSize: options.maxBodyBytes,
        timeoutMs: options.bodyTimeoutMs,
        onTooLarge: () => {
          throw payloadTooLarge(
            `The request body exceeds ${options.maxBodyBytes} bytes.`,
            options.maxBodyBytes,
          );
        },
        onTimeout: () => {
          throw bodyTooSlow();
        },
      }),
      // Parsed once, strictly, for every role: RBAC decides on it and the passthrough forwards its bytes.
      strictJsonBody(),
      serviceRbac({ policy: options.rbac, legacy: options.legacy, clock: options.clock }),
      ...(options.events ? [serviceEvents(options.events)] : []),
      passthrough,
    ],
    onError,
  );
  const app = new Hono<Variables>();
  // One route with one error boundary per request: separate `app.use` steps would each get a boundary of
  // their own once this app is mounted, and this route runs on every `/service` call.
  const dispatch: MiddlewareHandler<Variables> = (c, next) =>
    c.req.method === 'GET' || c.req.method === 'HEAD' ? reads(c, next) : writes(c, next);
  app.all('/service/*', withReadSteps(dispatch, readSteps));
  // OS2mo 2.4.0's reading API beside `/service` (`mora/app.py`: the same `auth` dependency), judged and
  // forwarded by the same chains; it has reads only, so a write there is refused as any unknown write is.
  app.all(readingApiRoute, dispatch);
  return app;
}
