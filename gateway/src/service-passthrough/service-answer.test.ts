import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { serviceCpr } from '../cpr/service-cpr.js';
import type { ForwardResponse } from '../legacy/legacy-client.js';
import { createLogger } from '../observability/index.js';
import { bufferedBodyLimit, serviceAnswer, type ServiceAnswerRequest } from './service-answer.js';

/** A legacy answer as `legacy.forward` gives it: a Node stream that can also be read whole. */
function upstream(status: number, text: string, sized = true) {
  const length = sized ? Buffer.byteLength(text) : undefined;
  const body = Object.assign(Readable.from([Buffer.from(text)]), {
    arrayBuffer: async () => new Uint8Array(Buffer.from(text)).buffer,
  });
  const headers = Object.assign(Object.create(null) as Record<string, string>, {
    'content-type': 'application/json',
  });
  return { status, headers, length, body } as unknown as ForwardResponse;
}

const get = (overrides: Partial<ServiceAnswerRequest> = {}): ServiceAnswerRequest => ({
  method: 'GET',
  reader: { principal: undefined, requestId: 'r-1', clientRequestId: undefined },
  cpr: undefined,
  cprEndpoint: undefined,
  ...overrides,
});

async function text(body: unknown): Promise<string> {
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of body as Readable) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('serviceAnswer', () => {
  it('adds the request id, and keeps small bodies in one piece with their length', async () => {
    const answer = await serviceAnswer(upstream(200, '[1]'), get());
    expect(answer.status).toBe(200);
    expect(answer.headers).toMatchObject({ 'x-request-id': 'r-1', 'content-length': '3' });
    expect(Buffer.isBuffer(answer.body)).toBe(true);
    expect(await text(answer.body)).toBe('[1]');
  });

  it('streams a large body and a body without a length', async () => {
    const large = JSON.stringify('x'.repeat(bufferedBodyLimit));
    const big = await serviceAnswer(upstream(200, large), get());
    expect(big.body).toBeInstanceOf(Readable);
    expect(await text(big.body)).toBe(large);
    const unsized = await serviceAnswer(upstream(200, '[2]', false), get());
    expect(unsized.body).toBeInstanceOf(Readable);
    expect(unsized.headers['content-length']).toBeUndefined();
  });

  it('answers a 204 and a HEAD without a body, the backend body drained', async () => {
    for (const [status, method] of [
      [204, 'GET'],
      [200, 'HEAD'],
    ] as const) {
      const legacy = upstream(status, 'ignored');
      const answer = await serviceAnswer(legacy, get({ method }));
      expect(answer.body).toBeUndefined();
      // Read to its end and dropped, so the backend connection is free for the next call.
      expect((legacy.body as Readable).readableFlowing).toBe(true);
      expect(answer.headers['x-request-id']).toBe('r-1');
    }
  });

  it('passes a CPR endpoint’s answer through the CPR policy, and only a 200', async () => {
    const cpr = serviceCpr({
      policy: { roles: ['cpr'], clients: undefined },
      endpoints: ['/service/e/{id}/'],
      logger: createLogger({ level: 'silent' }),
    });
    const person = JSON.stringify({ uuid: 'p', cpr_no: '0101011234' });
    const checked = await serviceAnswer(upstream(200, person), get({ cpr, cprEndpoint: '/service/e/{id}/' }));
    expect(JSON.parse(await text(checked.body))).toEqual({ uuid: 'p' });
    expect(checked.headers['content-length']).toBe(String(Buffer.byteLength('{"uuid":"p"}')));
    const missing = await serviceAnswer(upstream(404, person), get({ cpr, cprEndpoint: '/service/e/{id}/' }));
    expect(await text(missing.body)).toBe(person);
  });
});
