/**
 * Where the compare command finds the gateway and the identity provider when it is not told: from the same
 * variables `npm start`, `npm run idp` and `npm run token` read, so a stack started on other ports is found
 * without flags. The gateway must not import the identity provider's source, so this is our own reading.
 */

export const DEFAULT_GATEWAY_URL = 'http://localhost:8080';
export const DEFAULT_IDP_URL = 'http://localhost:8081';

/** A variable that names a place but cannot be one; the message names the variable. */
export class StackAddressError extends Error {}

type Environment = Record<string, string | undefined>;

function portUrl(env: Environment, name: string): string | undefined {
  const port = env[name]?.trim();
  if (!port) return undefined;
  if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65_535) {
    throw new StackAddressError(
      `${name} must be a port number from 1 to 65535, got ${JSON.stringify(port)}.`,
    );
  }
  return `http://localhost:${Number(port)}`;
}

function firstUrl(env: Environment, names: string[]): string | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (!value) continue;
    if (!URL.canParse(value) || !/^https?:\/\//.test(value)) {
      throw new StackAddressError(`${name} must be an http(s) URL, got ${JSON.stringify(value)}.`);
    }
    return value.replace(/\/+$/, '');
  }
  return undefined;
}

/** `GATEWAY_URL`, else `GATEWAY_PUBLIC_URL`, else `http://localhost:GATEWAY_PORT`, else port 8080. */
export function gatewayUrlFromEnv(env: Environment): string {
  return (
    firstUrl(env, ['GATEWAY_URL', 'GATEWAY_PUBLIC_URL']) ??
    portUrl(env, 'GATEWAY_PORT') ??
    DEFAULT_GATEWAY_URL
  );
}

/** `IDP_URL`, else `IDP_PUBLIC_URL`, else `http://localhost:IDP_PORT`, else port 8081. */
export function idpUrlFromEnv(env: Environment): string {
  return firstUrl(env, ['IDP_URL', 'IDP_PUBLIC_URL']) ?? portUrl(env, 'IDP_PORT') ?? DEFAULT_IDP_URL;
}
