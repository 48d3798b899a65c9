import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { describe, expect, it } from 'vitest';
import { browserSecurityHeaders } from './content-security-policy.js';

const authServerUrl = 'https://idp.example:8443/realms/org';

/** Hono's own middleware with the policy the gateway used before it made the list itself. */
function honoSecureHeaders() {
  const identityProvider = new URL(authServerUrl).origin;
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

async function answerHeaders(middleware: ReturnType<typeof honoSecureHeaders>) {
  const app = new Hono();
  app.use('*', middleware);
  app.get('/', (c) => {
    c.header('X-Powered-By', 'legacy');
    c.header('X-Frame-Options', 'ALLOWALL');
    return c.text('ok');
  });
  const response = await app.request('/');
  return [...response.headers.entries()];
}

describe('browserSecurityHeaders', () => {
  it("sets exactly the headers Hono's secureHeaders sets with the gateway's policy, replacing the handler's", async () => {
    const ours = await answerHeaders(browserSecurityHeaders({ authServerUrl }));
    expect(ours).toEqual(await answerHeaders(honoSecureHeaders()));
    expect(Object.fromEntries(ours)).toMatchObject({
      'x-frame-options': 'SAMEORIGIN',
      'content-security-policy': expect.stringContaining("frame-src 'self' https://idp.example:8443"),
    });
    expect(Object.fromEntries(ours)).not.toHaveProperty('x-powered-by');
  });
});
