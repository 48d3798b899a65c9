import { Readable } from 'node:stream';
import type { Handler } from 'hono';
import { upstreamTimeout, upstreamUnavailable } from '../errors/upstream-failure.js';
import { clientGone } from '../http/node-bindings.js';
import type { LegacyClient } from '../legacy/legacy-client.js';

/** Headers that describe one connection, not the message (RFC 9110 §7.6.1), plus ones we set ourselves. */
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);

/** Answers up to this size are forwarded in one piece; larger ones are streamed. */
const bufferedBodyLimit = 64 * 1024;

/** Never forwarded upstream: the gateway has checked the token; the legacy service need not see it. */
const requestOnly = new Set(['authorization', 'cookie']);

export interface ServicePassthroughOptions {
  legacy: LegacyClient;
  publicUrl: string;
}

/**
 * `/service/*` for existing integrations: the request goes to the legacy service unchanged (method, path,
 * query, body streamed) over the keep-alive pool, and the response comes back unchanged (status, headers,
 * body streamed), without connection headers and without the legacy service's own address.
 */
export function servicePassthrough({ legacy, publicUrl }: ServicePassthroughOptions): Handler {
  return async (c) => {
    const incoming = new URL(c.req.url);
    const headers: Record<string, string> = {};
    c.req.raw.headers.forEach((value, name) => {
      if (!hopByHop.has(name) && !requestOnly.has(name)) headers[name] = value;
    });
    headers['x-forwarded-proto'] = incoming.protocol.replace(':', '');
    headers['x-forwarded-host'] = incoming.host;
    const requestId = c.get('requestId' as never) as string | undefined;
    if (requestId) headers['x-request-id'] = requestId;

    const hasBody = c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.req.raw.body !== null;
    let upstream;
    try {
      upstream = await legacy.dispatcher.request({
        method: c.req.method as 'GET',
        path: `${legacy.basePath}${incoming.pathname}${incoming.search}`,
        headers,
        body: hasBody
          ? Readable.fromWeb(c.req.raw.body as import('node:stream/web').ReadableStream)
          : undefined,
        signal: clientGone(c),
      });
    } catch (error) {
      throw legacy.isTimeout(error) ? upstreamTimeout() : upstreamUnavailable();
    }

    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(upstream.headers)) {
      if (hopByHop.has(name) || value === undefined) continue;
      const text = Array.isArray(value) ? value.join(', ') : value;
      responseHeaders.set(name, name === 'location' ? text.replace(legacy.origin, publicUrl) : text);
    }
    if (requestId) responseHeaders.set('x-request-id', requestId);
    if (upstream.statusCode === 204 || c.req.method === 'HEAD') {
      upstream.body.resume();
      return new Response(null, { status: upstream.statusCode, headers: responseHeaders });
    }
    // Small bodies (most legacy answers) are passed in one piece: cheaper than a stream of chunks. Large or
    // unsized bodies are streamed, so the gateway never holds a big answer in memory.
    const length = Number(upstream.headers['content-length']);
    if (Number.isInteger(length) && length <= bufferedBodyLimit) {
      const buffered = Buffer.from(await upstream.body.arrayBuffer());
      responseHeaders.set('content-length', String(buffered.length));
      return new Response(buffered, { status: upstream.statusCode, headers: responseHeaders });
    }
    const body = Readable.toWeb(upstream.body) as ReadableStream;
    return new Response(body, { status: upstream.statusCode, headers: responseHeaders });
  };
}
