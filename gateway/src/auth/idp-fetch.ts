/**
 * The `fetch` for the gateway's calls to the identity provider (its signing keys, its token endpoint):
 * undici's, the client the legacy pool already uses, rather than Node's global one. Node's global `fetch` is
 * a second copy of undici with its own WebAssembly HTTP parser; leaving it unused keeps that copy's
 * connections and parser out of memory.
 */
export { fetch, type Response } from 'undici';
