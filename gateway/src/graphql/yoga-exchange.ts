import type { Context } from 'hono';
import { clientGone } from '../http/node-bindings.js';
import { plainJsonParams } from './json-params.js';
import type { ServerContext } from './server-context.js';
import { paramsExchangeOf, type VersionServer } from './yoga.js';

export interface YogaExchangeOptions {
  /** The request's body, already read whole within the body limits (`readBoundedBody`); none for a GET. */
  body?: Uint8Array;
  /** The version's endpoint, when the route's own path is another (Yoga answers its endpoint only). */
  url?: string;
  /** Told when Yoga gets its own copy of a request, so what is known about the first applies to both. */
  sameRequest?: (from: Request, to: Request) => void;
}

/**
 * The request as Yoga should see it: a POST's body, already read, goes into Yoga's own Request class as a
 * string. Handing Yoga Hono's request instead makes the server build a Web Request with a ReadableStream
 * body, which costs more than the rest of the request handling.
 */
function requestForYoga(c: Context, server: VersionServer, body: string | undefined, url?: string): Request {
  if (body === undefined) return c.req.raw;
  return new server.fetchAPI.Request(url ?? c.req.url, {
    method: c.req.method,
    headers: c.req.raw.headers,
    body,
    signal: clientGone(c),
  }) as Request;
}

/** JSON answers are passed to Hono as one string, which @hono/node-server writes in one piece. */
const jsonType = /^application\/(?:graphql-response\+)?json\b/i;

/**
 * Runs one GraphQL request through a version's Yoga server. A JSON POST of one well-formed request skips
 * Yoga's request parsing (the route has read its body already); anything else goes through `server.fetch`.
 * A JSON answer comes back as a plain Response with its body in memory; anything else (an event stream, say)
 * is returned as Yoga made it.
 *
 * @example
 * app.post('/graphql/v2', (c) => exchangeWithYoga(c, server, { principal: c.get('principal') }));
 */
export async function exchangeWithYoga(
  c: Context,
  server: VersionServer,
  serverContext: ServerContext,
  options: YogaExchangeOptions = {},
): Promise<Response> {
  const { body } = options;
  const text = body && Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString();
  const request = requestForYoga(c, server, text, options.url);
  if (request !== c.req.raw) options.sameRequest?.(c.req.raw, request);
  const exchange = paramsExchangeOf(server);
  const params =
    exchange && text !== undefined ? plainJsonParams(c.req.header('content-type'), text) : undefined;
  const response =
    exchange && params
      ? await exchange.answer(request, params, serverContext)
      : await server.fetch(request, serverContext);
  if (!jsonType.test(response.headers.get('content-type') ?? '')) return response;
  return new Response(await response.text(), {
    status: response.status,
    headers: new Headers(response.headers),
  });
}
