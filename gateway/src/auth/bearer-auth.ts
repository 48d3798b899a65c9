import type { Context, MiddlewareHandler } from 'hono';
import type { Principal, TokenFailure, TokenVerifier } from './token-verifier.js';
import { TokenError } from './token-verifier.js';

export type GatewayVariables = { principal: Principal; requestId: string };

/** Which error body a failure gets: the legacy body on `/service`, a GraphQL body on `/graphql/vN`. */
export type ErrorFlavour = 'service' | 'graphql';

export interface BearerAuthOptions {
  verifier: TokenVerifier;
  realm: string;
  flavour: ErrorFlavour;
}

/** `Authorization: Bearer <token>`: one scheme (any case), one space, one token. */
const bearerHeader = /^Bearer ([^\s]+)$/i;

export function authFailureResponse(
  c: Context,
  failure: TokenFailure,
  flavour: ErrorFlavour,
  realm: string,
): Response {
  if (failure.kind === 'unavailable') {
    c.header('Retry-After', '5');
    return flavour === 'service'
      ? c.json(
          {
            error: true,
            status: 503,
            error_key: 'E_AUTH_UNAVAILABLE',
            description: `${failure.reason} Try again shortly.`,
          },
          503,
        )
      : graphqlJson(
          c,
          {
            errors: [
              { message: `${failure.reason} Try again shortly.`, extensions: { code: 'AUTH_UNAVAILABLE' } },
            ],
          },
          503,
        );
  }
  const challenge =
    failure.reason === missingToken
      ? `Bearer realm="${realm}"`
      : `Bearer realm="${realm}", error="invalid_token", error_description="${failure.reason.replace(/"/g, "'")}"`;
  c.header('WWW-Authenticate', challenge);
  return flavour === 'service'
    ? c.json({ error: true, status: 401, error_key: 'E_UNAUTHORIZED', description: failure.reason }, 401)
    : graphqlJson(c, { errors: [{ message: failure.reason, extensions: { code: 'UNAUTHENTICATED' } }] }, 401);
}

const graphqlResponseType = 'application/graphql-response+json';

/**
 * Whether the client accepts `application/graphql-response+json` (GraphQL over HTTP): then a failure the
 * gateway answers itself uses it, as Yoga does for the rest, and clients such as Apollo Client read the
 * errors instead of reporting a bare server error. `q=0` means "not this one".
 */
function acceptsGraphqlResponse(c: Context): boolean {
  return (c.req.header('accept') ?? '').split(',').some((range) => {
    const [type, ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    if (type !== graphqlResponseType) return false;
    const q = params.find((param) => param.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** A GraphQL error body in the media type the client asked for, `application/json` otherwise. */
function graphqlJson(c: Context, body: unknown, status: 401 | 503): Response {
  if (!acceptsGraphqlResponse(c)) return c.json(body, status);
  return c.body(JSON.stringify(body), status, { 'content-type': `${graphqlResponseType}; charset=utf-8` });
}

const missingToken = 'A bearer token is required: send "Authorization: Bearer <access token>".';

/**
 * Requires a valid access token and stores its principal in `c.get('principal')`. Failures answer 401 with
 * `WWW-Authenticate` (or 503 when the identity provider is unreachable and no key is cached) before any
 * legacy call is made.
 *
 * @example
 * app.use('/service/*', bearerAuth({ verifier, realm: 'org', flavour: 'service' }));
 */
export function bearerAuth(options: BearerAuthOptions): MiddlewareHandler<{ Variables: GatewayVariables }> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    if (header === undefined || header === '') {
      return authFailureResponse(
        c,
        { kind: 'unauthenticated', reason: missingToken },
        options.flavour,
        options.realm,
      );
    }
    const match = bearerHeader.exec(header);
    if (!match?.[1]) {
      return authFailureResponse(
        c,
        { kind: 'unauthenticated', reason: 'The Authorization header must be "Bearer <access token>".' },
        options.flavour,
        options.realm,
      );
    }
    try {
      c.set('principal', await options.verifier.verify(match[1]));
    } catch (error) {
      if (error instanceof TokenError)
        return authFailureResponse(c, error.failure, options.flavour, options.realm);
      throw error;
    }
    await next();
  };
}
