import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { declaredLength } from '../http/body-limit.js';
import { clientGone, nodeBindings } from '../http/node-bindings.js';
import type { ServerContext, VersionServer } from './yoga.js';

/** The body of a Node request, read whole; the caller has already checked its declared length. */
function readBody(incoming: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.once('end', () => resolve(Buffer.concat(chunks)));
    incoming.once('error', reject);
    incoming.once('aborted', () => reject(new Error('The client closed the request before its body ended.')));
  });
}

/**
 * The request as Yoga should see it. Behind @hono/node-server, a POST of declared length is read straight
 * from Node's stream into Yoga's own Request class; handing Yoga Hono's request instead makes the server
 * build a Web Request with a ReadableStream body, which costs more than the rest of the request handling.
 */
async function requestForYoga(c: Context, server: VersionServer): Promise<Request> {
  const { incoming } = nodeBindings(c);
  if (!incoming || c.req.method !== 'POST' || declaredLength(c) === undefined) return c.req.raw;
  const body = await readBody(incoming);
  return new server.fetchAPI.Request(c.req.url, {
    method: 'POST',
    headers: c.req.raw.headers,
    body: body.toString(),
    signal: clientGone(c),
  }) as Request;
}

/** JSON answers are passed to Hono as one string, which @hono/node-server writes in one piece. */
const jsonType = /^application\/(?:graphql-response\+)?json\b/i;

/**
 * Runs one GraphQL request through a version's Yoga server. A JSON answer comes back as a plain Response
 * with its body in memory; anything else (an event stream, say) is returned as Yoga made it.
 *
 * @example
 * app.post('/graphql/v2', (c) => exchangeWithYoga(c, server, { principal: c.get('principal') }));
 */
export async function exchangeWithYoga(
  c: Context,
  server: VersionServer,
  serverContext: ServerContext,
  sameRequest?: (from: Request, to: Request) => void,
): Promise<Response> {
  const request = await requestForYoga(c, server);
  if (request !== c.req.raw) sameRequest?.(c.req.raw, request);
  const response = await server.fetch(request, serverContext);
  if (!jsonType.test(response.headers.get('content-type') ?? '')) return response;
  return new Response(await response.text(), {
    status: response.status,
    headers: new Headers(response.headers),
  });
}
