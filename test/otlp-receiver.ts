import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** A span as OTLP/HTTP JSON carries it (ids in hex), with the fields the tests read. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** 2 = server, 3 = client. */
  kind: number;
  attributes: Record<string, unknown>;
  /** The resource's `service.name`. */
  serviceName: unknown;
}

export interface OtlpReceiver {
  /** The base URL, as `OTEL_EXPORTER_OTLP_ENDPOINT` takes it. */
  url: string;
  readonly spans: readonly ReceivedSpan[];
  close(): Promise<void>;
}

type KeyValue = { key: string; value: Record<string, unknown> };

const attributes = (list: KeyValue[] | undefined) =>
  Object.fromEntries((list ?? []).map(({ key, value }) => [key, Object.values(value)[0]]));

/**
 * An OTLP/HTTP trace receiver on a loopback port the OS chooses: it decodes each JSON export sent to
 * `/v1/traces` (gzip or not) into flat spans and answers `200 {}`, as a collector would.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      if (incoming.url !== '/v1/traces' || !/json/.test(incoming.headers['content-type'] ?? '')) {
        response.writeHead(415).end();
        return;
      }
      const raw = Buffer.concat(chunks);
      const body = JSON.parse(
        (incoming.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8'),
      ) as {
        resourceSpans?: {
          resource?: { attributes?: KeyValue[] };
          scopeSpans?: {
            spans?: (Omit<ReceivedSpan, 'attributes' | 'serviceName'> & { attributes?: KeyValue[] })[];
          }[];
        }[];
      };
      for (const resourceSpans of body.resourceSpans ?? []) {
        const serviceName = attributes(resourceSpans.resource?.attributes)['service.name'];
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
              name: span.name,
              kind: span.kind,
              attributes: attributes(span.attributes as KeyValue[] | undefined),
              serviceName,
            });
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
