import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { createGatewayApp, type GatewayApp } from './app.js';
import type { GatewayConfig } from './config.js';
import type { GatewayMetrics, Logger } from './observability/index.js';

export interface StartGatewayOptions {
  /** The configuration, or a function of the bound port (tests let the OS choose the port first). */
  config: GatewayConfig | ((port: number) => GatewayConfig | Promise<GatewayConfig>);
  clock?: () => Date;
  /** Where the gateway logs; default JSON lines on stdout at `LOG_LEVEL`. Tests capture them. */
  logger?: Logger;
  /** Whether plain `/service` reads take the lane on Node's request (`serviceReadLane`); default true. */
  serviceReadLane?: boolean;
  /** Whether plain JSON POSTs to GraphQL skip Yoga's HTTP layer (`ParamsExchange`); default true. */
  paramsExchange?: boolean;
}

export interface RunningGateway {
  url: string;
  port: number;
  config: GatewayConfig;
  logger: Logger;
  metrics: GatewayMetrics;
  /** The record of the backend (`DATABASE_URL`); undefined without one. */
  backendRecord: GatewayApp['backendRecord'];
  /** How many `/service` reads the lane on Node's request answered; undefined when there is no lane. */
  serviceReadsServed(): number | undefined;
  /**
   * Stops accepting connections and lets in-flight requests finish, for at most `graceMs` (default
   * `SHUTDOWN_GRACE_MS`); then cuts the connections still open. Closes the legacy pool last. `forced`
   * says whether any request was cut.
   */
  close(graceMs?: number): Promise<{ forced: boolean }>;
}

/**
 * Listens first, then builds the app, so a configuration may depend on the port the OS chose.
 *
 * @example
 * const gateway = await startGateway({ config: readGatewayConfig() });
 */
export async function startGateway(options: StartGatewayOptions): Promise<RunningGateway> {
  const initial = typeof options.config === 'function' ? undefined : options.config;
  type Listener = (req: IncomingMessage, res: ServerResponse) => unknown;
  let attach!: (listener: Listener) => void;
  const ready = new Promise<Listener>((resolve) => {
    attach = resolve;
  });
  // Once the app is built, requests go to it directly rather than through a promise each.
  let attached: Listener | undefined;
  void ready.then((listener) => (attached = listener));
  let draining = false;
  const inFlight = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    // While draining, a response closes its connection, so no client keeps one open for a next request.
    if (draining) res.setHeader('Connection', 'close');
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
    if (attached) attached(req, res);
    else void ready.then((listener) => listener(req, res));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(initial?.port ?? 0, initial?.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let config: GatewayConfig;
  let gateway: GatewayApp;
  try {
    config = typeof options.config === 'function' ? await options.config(port) : options.config;
    // The app checks what needs the served versions (DEPRECATION_CONFIG's versions) and may refuse to start.
    gateway = createGatewayApp(config, {
      clock: options.clock,
      logger: options.logger,
      paramsExchange: options.paramsExchange,
    });
  } catch (error) {
    server.close();
    throw error;
  }
  const app = getRequestListener(gateway.app.fetch);
  const lane = options.serviceReadLane === false ? undefined : gateway.serviceReads;
  attach(lane ? (req, res) => lane.take(req, res) || app(req, res) : app);

  let closing: Promise<{ forced: boolean }> | undefined;
  const close = async (graceMs: number): Promise<{ forced: boolean }> => {
    draining = true;
    for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    let forced = false;
    const cut = setTimeout(() => {
      forced = inFlight.size > 0;
      server.closeAllConnections();
    }, graceMs);
    await closed;
    clearTimeout(cut);
    // Requests that were cut may still wait on the legacy service: end those calls rather than wait.
    if (forced) await gateway.legacy.destroy();
    await gateway.close();
    return { forced };
  };

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    config,
    logger: gateway.logger,
    metrics: gateway.metrics,
    backendRecord: gateway.backendRecord,
    serviceReadsServed: () => lane?.served,
    close: (graceMs = config.operations.shutdownGraceMs) => (closing ??= close(graceMs)),
  };
}
