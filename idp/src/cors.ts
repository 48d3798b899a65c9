import type { Context } from 'hono';

// The request headers Keycloak allows cross-origin.
const ALLOWED_HEADERS =
  'Origin, Accept, X-Requested-With, Content-Type, Access-Control-Request-Method, Access-Control-Request-Headers, Authorization, DPoP';

/**
 * Answers a CORS preflight. Like Keycloak, a preflight is allowed for any origin (it carries no client);
 * the actual response then allows only the client's web origins.
 */
export function preflight(c: Context, methods: readonly string[]): Response {
  c.header('Vary', 'Origin');
  const origin = c.req.header('Origin');
  if (origin) {
    c.header('Access-Control-Allow-Origin', origin);
    c.header('Access-Control-Allow-Credentials', 'true');
    c.header('Access-Control-Allow-Methods', [...methods, 'OPTIONS'].join(', '));
    c.header('Access-Control-Allow-Headers', ALLOWED_HEADERS);
    c.header('Access-Control-Max-Age', '3600');
  }
  return c.body(null, 200);
}

/** Lets the browser read this response if the request's origin is allowed. */
export function allowOrigin(c: Context, allowed: (origin: string) => boolean): void {
  c.header('Vary', 'Origin');
  const origin = c.req.header('Origin');
  if (origin && allowed(origin)) {
    c.header('Access-Control-Allow-Origin', origin);
    c.header('Access-Control-Allow-Credentials', 'true');
  }
}

/** A client's (resolved) web origins, `*` allowing every origin. */
export function webOriginAllows(webOrigins: readonly string[], origin: string): boolean {
  return webOrigins.includes('*') || webOrigins.includes(origin);
}
