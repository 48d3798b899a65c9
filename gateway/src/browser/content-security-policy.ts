import type { MiddlewareHandler } from 'hono';

export interface SecurityHeaderOptions {
  /** The identity provider's address: the browser tools sign in there, in a frame and by fetch. */
  authServerUrl: string;
}

/** Hono's `secureHeaders` defaults, in its order. */
const defaultSecureHeaders: readonly (readonly [string, string])[] = [
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Origin-Agent-Cluster', '?1'],
  ['Referrer-Policy', 'no-referrer'],
  ['Strict-Transport-Security', 'max-age=15552000; includeSubDomains'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  ['X-Frame-Options', 'SAMEORIGIN'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  ['X-XSS-Protection', '0'],
];

/**
 * The Content-Security-Policy the browser tools need. GraphiQL and Voyager run inline scripts and styles from
 * this origin only. GraphiQL's stylesheet inlines its fonts; Voyager runs Graphviz (WebAssembly) in a worker
 * it starts from a blob and caches the drawn graph as data: URLs it reads back with fetch. The pages sign in
 * at the identity provider, in a frame and by fetch.
 */
function contentSecurityPolicy(identityProvider: string): string {
  return [
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    `connect-src 'self' data: ${identityProvider}`,
    `frame-src 'self' ${identityProvider}`,
  ].join('; ');
}

/**
 * Every security header the gateway sets on every response, worked out once at start: Hono's `secureHeaders`
 * defaults and the Content-Security-Policy. Both the Hono app and the `/service` read lane apply this list.
 */
export function securityHeaders(options: SecurityHeaderOptions): readonly (readonly [string, string])[] {
  const identityProvider = new URL(options.authServerUrl).origin;
  return [...defaultSecureHeaders, ['Content-Security-Policy', contentSecurityPolicy(identityProvider)]];
}

/**
 * The security headers (`securityHeaders`) on every response, replacing any a handler set, and without
 * `X-Powered-By`: what Hono's `secureHeaders` does with these options, from a list made once.
 *
 * @example
 * app.use('*', browserSecurityHeaders({ authServerUrl: config.idp.authServerUrl }));
 */
export function browserSecurityHeaders(options: SecurityHeaderOptions): MiddlewareHandler {
  const headers = securityHeaders(options);
  return async (c, next) => {
    await next();
    for (const [name, value] of headers) c.res.headers.set(name, value);
    c.res.headers.delete('X-Powered-By');
  };
}
