import type { Handler } from 'hono';
import type { GatewayConfig } from '../config.js';

/**
 * `GET /idp.json`: the identity provider's adapter configuration (Keycloak's `keycloak.json` shape) that the
 * browser pages and existing front ends read to sign in as a public client.
 *
 * @example
 * app.get('/idp.json', idpConfigRoute(config.idp));
 */
export function idpConfigRoute(idp: GatewayConfig['idp']): Handler {
  const body = {
    realm: idp.realm,
    'auth-server-url': idp.authServerUrl,
    'ssl-required': idp.sslRequired,
    resource: idp.clientId,
    'public-client': true,
    'confidential-port': 0,
  };
  return (c) => c.json(body);
}
