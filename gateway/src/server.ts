import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { createGatewayApp } from './app.js';
import type { GatewayConfig } from './config.js';

export interface StartGatewayOptions {
  /** The configuration, or a function of the bound port (tests let the OS choose the port first). */
  config: GatewayConfig | ((port: number) => GatewayConfig | Promise<GatewayConfig>);
  clock?: () => Date;
}

export interface RunningGateway {
  url: string;
  port: number;
  config: GatewayConfig;
  /** Stops accepting connections, lets in-flight requests finish, then closes the legacy pool. */
  close(): Promise<void>;
}

/**
 * Listens first, then builds the app, so a configuration may depend on the port the OS chose.
 *
 * @example
 * const gateway = await startGateway({ config: readGatewayConfig() });
 */
export async function startGateway(options: StartGatewayOptions): Promise<RunningGateway> {
  const initial = typeof options.config === 'function' ? undefined : options.config;
  let attach!: (listener: (req: IncomingMessage, res: ServerResponse) => unknown) => void;
  const ready = new Promise<(req: IncomingMessage, res: ServerResponse) => unknown>((resolve) => {
    attach = resolve;
  });
  const server = createServer((req, res) => {
    void ready.then((listener) => listener(req, res));
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
  try {
    config = typeof options.config === 'function' ? await options.config(port) : options.config;
  } catch (error) {
    server.close();
    throw error;
  }
  const gateway = createGatewayApp(config, { clock: options.clock });
  attach(getRequestListener(gateway.app.fetch));

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    config,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await gateway.close();
    },
  };
}
