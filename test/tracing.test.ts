import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceQuery } from '../gateway/src/graphql/reference-query.js';
import { referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver.js';
import { startTestStack, type TestStack } from './stack.js';

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const server = 2;
const client = 3;

let receiver: OtlpReceiver;
let stack: TestStack | undefined;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
  stack = await startTestStack({
    legacyProxy: true,
    gatewayEnv: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'gateway-under-test' },
  });
});
afterAll(async () => {
  await stack?.close();
  await receiver.close();
});

describe('OpenTelemetry traces (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  it("gives one GraphQL request a span, and each of its legacy calls a child span, under the caller's trace", async () => {
    const running = stack!;
    const token = await running.token('alice');
    const caller = { traceId: hex(16), spanId: hex(8) };
    const before = running.legacyProxy!.requests.length;
    const response = await fetch(`${running.gatewayUrl}/graphql/v2`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        traceparent: `00-${caller.traceId}-${caller.spanId}-01`,
        'x-request-id': 'traced-request-1',
        'x-upstream-trace': '1',
      },
      body: JSON.stringify({ query: referenceQuery, variables: { uuids: referenceUnitUuids } }),
    });
    const body = (await response.json()) as {
      errors?: unknown;
      extensions: { upstream: { requests: number } };
    };
    expect(response.status).toBe(200);
    expect(body.errors).toBeUndefined();
    const calls = body.extensions.upstream.requests;
    expect(calls).toBe(6);

    // What the backend received: every call carries the request id and a traceparent of the caller's trace.
    const received = running.legacyProxy!.requests.slice(before);
    expect(received).toHaveLength(calls);
    for (const request of received) expect(request.headers['x-request-id']).toBe('traced-request-1');
    const sentParents = received.map((request) => {
      const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(request.headers.traceparent));
      expect(match?.[1]).toBe(caller.traceId);
      return match?.[2];
    });

    // Closing the gateway sends the spans it still holds.
    await running.close();
    stack = undefined;
    const spans = receiver.spans.filter((span) => span.traceId === caller.traceId);
    const requestSpans = spans.filter((span) => span.kind === server);
    expect(requestSpans).toHaveLength(1);
    const requestSpan = requestSpans[0]!;
    expect(requestSpan).toMatchObject({
      parentSpanId: caller.spanId,
      name: 'POST /graphql/:version',
      serviceName: 'gateway-under-test',
      attributes: { 'http.route': '/graphql/:version', 'http.response.status_code': 200 },
    });
    const callSpans = spans.filter((span) => span.kind === client);
    expect(callSpans).toHaveLength(calls);
    for (const span of callSpans) {
      expect(span.parentSpanId).toBe(requestSpan.spanId);
      expect(span.name).toBe('legacy GET');
      expect(span.attributes['http.response.status_code']).toBe(200);
    }
    // The backend's parent of each call is that call's own span.
    expect(new Set(sentParents)).toEqual(new Set(callSpans.map((span) => span.spanId)));
    expect(spans).toHaveLength(1 + calls);
  });
});
