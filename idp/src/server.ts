import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { createIdp, type IdpOptions } from './app.js';
import { developmentRealm } from './dev-realm.js';
import type { KeyRotation } from './keys.js';
import type { Realm } from './realm.js';

export interface StartIdpOptions extends Omit<IdpOptions, 'realm' | 'publicUrl'> {
  /** Default: the development realm (alice, oscar, nora) with RBAC as `rbacEnabled` says. */
  realm?: Realm;
  /** Only for the default realm; default false. */
  rbacEnabled?: boolean;
  /** Default 0: a free port the OS picks. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default `http://localhost:{the bound port}`. */
  publicUrl?: string;
}

export interface RunningIdp {
  /** `{auth_url}`, e.g. `http://localhost:8081`. */
  url: string;
  /** `{url}/auth/realms/{realm}`: the tokens' `iss`. */
  issuer: string;
  /** The JWKS: `{issuer}/protocol/openid-connect/certs`. */
  jwksUri: string;
  port: number;
  realm: Realm;
  rotateKeys(): Promise<KeyRotation>;
  close(): Promise<void>;
}

/**
 * Starts the identity provider on a real socket. Other components' tests use it on port 0:
 *
 * @example
 * const idp = await startIdp({ rbacEnabled: true });
 * // … fetch(`${idp.issuer}/protocol/openid-connect/token`, …) …
 * await idp.close();
 */
export async function startIdp(options: StartIdpOptions = {}): Promise<RunningIdp> {
  const { realm: givenRealm, rbacEnabled, port = 0, host = '127.0.0.1', publicUrl, ...idpOptions } = options;
  const realm = givenRealm ?? developmentRealm({ rbacEnabled: rbacEnabled ?? false });

  let attach!: (listener: (req: IncomingMessage, res: ServerResponse) => unknown) => void;
  const ready = new Promise<(req: IncomingMessage, res: ServerResponse) => unknown>((resolve) => {
    attach = resolve;
  });
  // The issuer needs the bound port, so the app is created after listening; early requests wait for it.
  const server = createServer((req, res) => {
    void ready.then((listener) => listener(req, res));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const boundPort = (server.address() as AddressInfo).port;
  const url = (publicUrl ?? `http://localhost:${boundPort}`).replace(/\/+$/, '');

  let idp;
  try {
    idp = await createIdp({ ...idpOptions, realm, publicUrl: url });
  } catch (error) {
    server.close();
    throw error;
  }
  attach(getRequestListener(idp.app.fetch));

  return {
    url,
    issuer: idp.issuer,
    jwksUri: `${idp.issuer}/protocol/openid-connect/certs`,
    port: boundPort,
    realm,
    rotateKeys: () => idp.rotateKeys(),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
  };
}
