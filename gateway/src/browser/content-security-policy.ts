import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/**
 * Hono's secure headers with the Content-Security-Policy the browser tools need, for every response.
 * GraphiQL and Voyager run inline scripts and styles from this origin only. GraphiQL's stylesheet inlines
 * its fonts; Voyager runs Graphviz (WebAssembly) in a worker it starts from a blob and caches the drawn graph
 * as data: URLs it reads back with fetch. The pages sign in at the identity provider, in a frame and by fetch.
 *
 * @example
 * app.use('*', browserSecurityHeaders({ authServerUrl: config.idp.authServerUrl }));
 */
export function browserSecurityHeaders(options: { authServerUrl: string }): MiddlewareHandler {
  const identityProvider = new URL(options.authServerUrl).origin;
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", "'unsafe-inline'", "'wasm-unsafe-eval'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'", 'data:'],
      workerSrc: ["'self'", 'blob:'],
      connectSrc: ["'self'", 'data:', identityProvider],
      frameSrc: ["'self'", identityProvider],
    },
  });
}
