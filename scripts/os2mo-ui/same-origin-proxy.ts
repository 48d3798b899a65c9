import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SameOriginProxyOptions {
  /** Port to listen on (0: one the OS chooses), on 127.0.0.1. */
  port: number;
  /** Path prefixes that go to the gateway (`/graphql` takes `/graphql/v29` too). */
  gatewayPrefixes: readonly string[];
  /** Where those go, and everything else: `http://127.0.0.1:{port}`, read at each request. */
  targets: () => { gateway: string; ui: string };
}

export interface SameOriginProxy {
  /** `http://localhost:{port}`: the one origin the browser, the realm and the gateway's CORS know. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Whether a request's path belongs to the gateway: the prefix itself, or below it. */
export function isGatewayPath(path: string, prefixes: readonly string[]): boolean {
  return prefixes.some(
    (prefix) => path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`),
  );
}

/**
 * One origin for OS2mo's UI and the gateway, as OS2mo serves them (the UI calls `${PUBLIC_BASE_URL}/graphql/v29`
 * on its own origin): the gateway's paths go to the gateway, everything else to the UI's server. Requests and
 * answers are streamed as they are, Host included, so the gateway sees the origin the browser used.
 */
export async function startSameOriginProxy(options: SameOriginProxyOptions): Promise<SameOriginProxy> {
  const server: Server = createServer((incoming, outgoing) => {
    const path = incoming.url ?? '/';
    const { gateway, ui } = options.targets();
    const target = new URL(path, isGatewayPath(path, options.gatewayPrefixes) ? gateway : ui);
    const forwarded = httpRequest(
      target,
      { method: incoming.method, headers: incoming.headers },
      (answer: IncomingMessage) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', (error) => {
      if (outgoing.headersSent) return outgoing.destroy();
      outgoing.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
      outgoing.end(`The same-origin proxy cannot reach ${target.origin}: ${error.message}\n`);
    });
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
