import {
  Agent,
  createServer,
  request,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ProxiedRequest {
  method: string;
  /** Path and query, as the client sent them. */
  path: string;
  /** The headers as they arrived (names in lower case). */
  headers: IncomingHttpHeaders;
}

export interface LoopbackProxy {
  /** `http://127.0.0.1:{port}`: point a client here instead of at the target. */
  url: string;
  /** Every request that reached the target through this proxy, in arrival order. */
  readonly requests: readonly ProxiedRequest[];
  /** Requests whose path matches, e.g. `/\/certs$/`. */
  count(path?: RegExp): number;
  /** While down, every connection is dropped at once, as if the target were unreachable. */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

/**
 * A forwarding HTTP proxy on a loopback port the OS chooses, so a test can see exactly which requests a
 * component sent to another (the gateway to the legacy service, or to the identity provider's JWKS) and
 * can take the target away without stopping it.
 *
 * @example
 * const proxy = await startLoopbackProxy(legacy.url);
 * // … start the gateway with LEGACY_URL = proxy.url …
 * expect(proxy.count()).toBe(0);
 */
export async function startLoopbackProxy(
  target: string,
  options: {
    down?: boolean;
    /** Paths answered 404 without reaching the target, as a backend without them would (FastAPI's body). */
    notFound?: RegExp;
  } = {},
): Promise<LoopbackProxy> {
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  const agent = new Agent({ keepAlive: true });
  let down = options.down ?? false;

  const forward = (incoming: IncomingMessage, respond: ServerResponse) => {
    if (down) {
      incoming.socket.destroy();
      return;
    }
    requests.push({ method: incoming.method ?? 'GET', path: incoming.url ?? '/', headers: incoming.headers });
    if (options.notFound?.test(incoming.url ?? '/')) {
      incoming.resume();
      respond.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not Found"}');
      return;
    }
    const outgoing = request(
      new URL(incoming.url ?? '/', target),
      { method: incoming.method, headers: incoming.headers, agent },
      (answer) => {
        respond.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(respond);
      },
    );
    outgoing.on('error', () => respond.destroy());
    incoming.pipe(outgoing);
  };

  const server = createServer(forward);
  server.on('connection', (socket) => {
    if (down) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    count: (path) => (path ? requests.filter((entry) => path.test(entry.path)).length : requests.length),
    setDown: (value) => {
      down = value;
      // Kept-alive connections would otherwise still reach the target.
      if (down) for (const socket of sockets) socket.destroy();
    },
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      agent.destroy();
    },
  };
}
