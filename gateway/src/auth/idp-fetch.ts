import { Agent, fetch as undiciFetch, type RequestInit, type Response } from 'undici';

/**
 * The connections for the gateway's calls to the identity provider (its signing keys, its token endpoint):
 * an undici `Agent` of the package the legacy pool uses, named on every call. undici's own `fetch` would send
 * through the process's global dispatcher, and Node's built-in copy of undici claims that slot first (any
 * use of the global `Response`, as the HTTP server's adapter makes, loads it); its connections bring a second
 * WebAssembly HTTP parser. Named here, every call out parses with the one parser the legacy pool loaded.
 */
export const idpAgent = new Agent();

/** `fetch` through {@link idpAgent}. */
export function fetch(input: string | URL, init: RequestInit = {}): Promise<Response> {
  return undiciFetch(input, { ...init, dispatcher: idpAgent });
}

export type { Response };
