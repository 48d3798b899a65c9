import type { Context, MiddlewareHandler } from 'hono';
import { GatewayError } from '../errors/gateway-error.js';
import type { Context as TraceContext } from '@opentelemetry/api';
import type { Principal, TokenFailure, TokenVerifier } from './token-verifier.js';
import { TokenError } from './token-verifier.js';

export type GatewayVariables = {
  principal: Principal;
  requestId: string;
  /** The request's span, set only when tracing is on (`traceRequests`). */
  traceContext?: TraceContext;
};

export interface BearerAuthOptions {
  verifier: TokenVerifier;
  realm: string;
}

/** `Authorization: Bearer <token>`: one scheme (any case), one space, one token. */
const bearerHeader = /^Bearer ([^\s]+)$/i;

const missingToken = 'A bearer token is required: send "Authorization: Bearer <access token>".';

/**
 * A token failure as the gateway error each route family writes in its own body: 503 `AUTH_UNAVAILABLE`
 * with `Retry-After` when no signing key can be had, otherwise 401 with the `WWW-Authenticate` challenge.
 */
function authFailure(failure: TokenFailure, realm: string): GatewayError {
  if (failure.kind === 'unavailable') {
    return new GatewayError(503, 'AUTH_UNAVAILABLE', `${failure.reason} Try again shortly.`, {
      headers: { 'Retry-After': '5' },
    });
  }
  const challenge =
    failure.reason === missingToken
      ? `Bearer realm="${realm}"`
      : `Bearer realm="${realm}", error="invalid_token", error_description="${failure.reason.replace(/"/g, "'")}"`;
  return new GatewayError(401, 'UNAUTHENTICATED', failure.reason, {
    errorKey: 'E_UNAUTHORIZED',
    headers: { 'WWW-Authenticate': challenge },
  });
}

/** Sets `Cache-Control: no-store` on the answer, copying it first if its headers are immutable (a fetched one). */
function noStore(c: Context): void {
  try {
    c.res.headers.set('Cache-Control', 'no-store');
  } catch {
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set('Cache-Control', 'no-store');
  }
}

/**
 * The principal of an `Authorization: Bearer <token>` header, or the gateway error its failure is: 401 with
 * `WWW-Authenticate`, or 503 when no signing key can be had. Framework-free, for every lane that checks tokens.
 */
export async function authenticateBearer(
  header: string | null | undefined,
  options: BearerAuthOptions,
): Promise<Principal> {
  if (header === undefined || header === null || header === '') {
    throw authFailure({ kind: 'unauthenticated', reason: missingToken }, options.realm);
  }
  const match = bearerHeader.exec(header);
  if (!match?.[1]) {
    throw authFailure(
      { kind: 'unauthenticated', reason: 'The Authorization header must be "Bearer <access token>".' },
      options.realm,
    );
  }
  try {
    return await options.verifier.verify(match[1]);
  } catch (error) {
    if (error instanceof TokenError) throw authFailure(error.failure, options.realm);
    throw error;
  }
}

/**
 * Requires a valid access token and stores its principal in `c.get('principal')`; the answer the route then
 * gives carries `Cache-Control: no-store`. Failures are thrown as
 * 401 with `WWW-Authenticate` (or 503 when the identity provider is unreachable and no key is cached)
 * before any legacy call is made; the route family's `onError` writes the body.
 *
 * @example
 * app.use('/service/*', bearerAuth({ verifier, realm: 'org' }));
 */
export function bearerAuth(options: BearerAuthOptions): MiddlewareHandler<{ Variables: GatewayVariables }> {
  return async (c, next) => {
    c.set('principal', await authenticateBearer(c.req.header('authorization'), options));
    await next();
    // What a token unlocks is personal data (names, CPR numbers): no browser or proxy may keep a copy.
    noStore(c);
  };
}
