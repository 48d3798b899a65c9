import type { Readable } from 'node:stream';
import type { CprReader, ServiceCpr } from '../cpr/service-cpr.js';
import type { AnswerHeaders } from '../legacy/forward-headers.js';
import type { ForwardResponse } from '../legacy/legacy-client.js';

/** Answers up to this size are forwarded in one piece; larger ones are streamed. */
export const bufferedBodyLimit = 64 * 1024;

/** A forwarded `/service` call's answer to the client, before either road writes it. */
export interface ServiceAnswer {
  status: number;
  headers: AnswerHeaders;
  /** In memory (its `content-length` set), streamed from the backend, or none (a 204, a HEAD). */
  body: Buffer<ArrayBuffer> | Readable | undefined;
}

export interface ServiceAnswerRequest {
  method: string;
  /** Who asked: the gateway's request id (which the answer carries), the client's, the principal. */
  reader: CprReader;
  cpr: ServiceCpr | undefined;
  /** Set when the endpoint's answer can carry CPR numbers (`ServiceCpr.endpointOf`). */
  cprEndpoint: string | undefined;
}

/**
 * Shapes the legacy service's answer to a forwarded `/service` call for the client, the same on the app's
 * road (`servicePassthrough`) and the read lane: the request id added, no body for a 204 or a HEAD, an
 * answer that can carry CPR numbers checked by the CPR policy, small bodies in one piece (cheaper than a
 * stream of chunks) and large or unsized ones streamed, so the gateway never holds a big answer in memory.
 *
 * @example
 * const answer = await serviceAnswer(await legacy.forward(…), { method: 'GET', reader, cpr, cprEndpoint });
 */
export async function serviceAnswer(
  upstream: ForwardResponse,
  request: ServiceAnswerRequest,
): Promise<ServiceAnswer> {
  const { status, headers } = upstream;
  const { reader } = request;
  if (reader.requestId) headers['x-request-id'] = reader.requestId;
  if (status === 204 || request.method === 'HEAD') {
    upstream.body.resume();
    return { status, headers, body: undefined };
  }
  if (request.cpr !== undefined && request.cprEndpoint !== undefined && status === 200) {
    const checked = await request.cpr.answer(request.cprEndpoint, upstream, reader);
    headers['content-length'] = String(checked.length);
    return { status, headers, body: checked };
  }
  if (upstream.length !== undefined && upstream.length <= bufferedBodyLimit) {
    const buffered = Buffer.from(await upstream.body.arrayBuffer());
    headers['content-length'] = String(buffered.length);
    return { status, headers, body: buffered };
  }
  return { status, headers, body: upstream.body };
}
