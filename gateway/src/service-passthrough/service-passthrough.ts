import { Readable } from 'node:stream';
import type { Context, Handler } from 'hono';
import { GatewayError } from '../errors/gateway-error.js';
import { upstreamError } from '../legacy/upstream-error.js';
import { judgedBody } from '../http/judged-body.js';
import { connectionGone, nodeBindings } from '../http/node-bindings.js';
import type { ServiceCpr } from '../cpr/service-cpr.js';
import { webHeaders } from '../legacy/forward-headers.js';
import type { LegacyClient } from '../legacy/legacy-client.js';
import type { TraceContext } from '../observability/tracing.js';
import type { Principal } from '../auth/token-verifier.js';
import { serviceAnswer } from './service-answer.js';
import { serviceWrite, type WriteHook } from '../backend-record/backend-writes.js';

export interface ServicePassthroughOptions {
  legacy: LegacyClient;
  publicUrl: string;
  /** Logs and, by policy, withholds the CPR numbers of the reads that can carry them. */
  cpr?: ServiceCpr;
  /** Told of each write the backend accepted (the record of the backend, `DATABASE_URL`). */
  onWrite?: WriteHook;
}

/**
 * The whole request body, read before a legacy connection is taken (the body limit bounds its size and
 * time): the bytes `judgedBody` parsed strictly, the ones RBAC decided on, never a second reading.
 */
async function requestBody(c: Context): Promise<Uint8Array | undefined> {
  return (await judgedBody(c)).bytes;
}

/**
 * The parts of the request's URL the passthrough needs. `c.req.url` is already a parsed and normalised
 * `href` (Hono's Node adapter and `Request` both make it with `URL`), so slicing it gives what parsing it
 * again would, without a `URL` object per request.
 */
export function requestTarget(href: string): { protocol: string; host: string; target: string } {
  const schemeEnd = href.indexOf('://');
  const authorityStart = schemeEnd + 3;
  const hash = href.indexOf('#', authorityStart);
  const end = hash === -1 ? href.length : hash;
  let authorityEnd = authorityStart;
  while (authorityEnd < end && href[authorityEnd] !== '/' && href[authorityEnd] !== '?') authorityEnd += 1;
  // An authority with credentials (`user@host`) is never sent by a client; keep only the host as URL does.
  const authority = href.slice(authorityStart, authorityEnd);
  const path = href.slice(authorityEnd, end);
  return {
    protocol: href.slice(0, schemeEnd),
    host: authority.slice(authority.lastIndexOf('@') + 1),
    target: path.startsWith('/') ? path : `/${path}`,
  };
}

const isWrite = (method: string) => method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';

/**
 * A write whose legacy call broke (502) or went unanswered (504) may have been made all the same: the
 * connection can die after the backend committed. The answer says so, and how to retry safely.
 */
function uncertainWrite(failure: unknown): unknown {
  if (!(failure instanceof GatewayError) || (failure.status !== 502 && failure.status !== 504))
    return failure;
  return new GatewayError(
    failure.status,
    failure.code,
    `${failure.message} The write may have been made all the same: read the record before you send it again. A create that carries its own "uuid" can be sent again safely.`,
    { errorKey: failure.errorKey, context: failure.context, headers: failure.headers },
  );
}

/**
 * `/service/*` for existing integrations: the request goes to the legacy service unchanged (method, path,
 * query, body) through `legacy.forward`, which also decides the headers and the backend credential, and
 * the response comes back unchanged (status, headers, body streamed), without connection headers and
 * without the legacy service's own address. The body is read whole first, so a slow upload never holds
 * one of the connections that reads need.
 */
export function servicePassthrough({ legacy, publicUrl, cpr, onWrite }: ServicePassthroughOptions): Handler {
  return async (c) => {
    const incoming = requestTarget(c.req.url);
    const requestId = c.get('requestId' as never) as string | undefined;
    const principal = c.get('principal' as never) as Principal | undefined;
    const cprEndpoint = cpr?.endpointOf(c.req.method, incoming.target);
    if (cprEndpoint !== undefined) {
      const refusal = cpr!.refusal(cprEndpoint, principal);
      if (refusal) throw refusal;
    }
    let upstream;
    const sent = await requestBody(c);
    try {
      upstream = await legacy.forward({
        method: c.req.method,
        target: incoming.target,
        headers: c.req.raw.headers,
        body: sent,
        signal: connectionGone(c),
        client: {
          address: nodeBindings(c).incoming?.socket.remoteAddress,
          protocol: incoming.protocol,
          host: incoming.host,
        },
        requestId,
        trace: c.get('traceContext' as never) as TraceContext | undefined,
        publicUrl,
        identityEncoding: cprEndpoint !== undefined,
      });
    } catch (error) {
      const failure = upstreamError(error) ?? error;
      throw isWrite(c.req.method) ? uncertainWrite(failure) : failure;
    }

    const answer = await serviceAnswer(upstream, {
      method: c.req.method,
      reader: {
        principal,
        requestId,
        clientRequestId: c.req.header('x-request-id'),
        target: incoming.target,
      },
      cpr,
      cprEndpoint,
    });
    if (onWrite && isWrite(c.req.method) && answer.status < 300) {
      onWrite(serviceWrite(incoming.target, sent, answer.body, c.req.header('authorization')));
    }
    const body =
      answer.body === undefined || Buffer.isBuffer(answer.body)
        ? (answer.body ?? null)
        : (Readable.toWeb(answer.body) as ReadableStream);
    return new Response(body, { status: answer.status, headers: webHeaders(answer.headers) });
  };
}
