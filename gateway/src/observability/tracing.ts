import { createRequire } from 'node:module';
import type { Context, Span, TextMapGetter } from '@opentelemetry/api';

/**
 * OpenTelemetry's SDK, exporter and propagator, loaded only when tracing is configured: they hold about 5 MB
 * of the heap, which a gateway without an endpoint (the default) has no use for (the API itself is loaded
 * anyway, by prom-client). Loaded synchronously, as the app is made.
 */
function loadOpenTelemetry() {
  const require = createRequire(import.meta.url);
  return {
    api: require('@opentelemetry/api') as typeof import('@opentelemetry/api'),
    core: require('@opentelemetry/core') as typeof import('@opentelemetry/core'),
    exporter:
      require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http'),
    resources: require('@opentelemetry/resources') as typeof import('@opentelemetry/resources'),
    sdk: require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base'),
  };
}

/** Where a span sits in its trace, handed from the request to the legacy calls it makes (opaque to them). */
export type TraceContext = Context;

/** A legacy call's span: the `traceparent` to send with the call, and how to end it. */
export interface CallSpan {
  traceparent: string | undefined;
  /** Ends the span with the backend's status, or as failed when there was no answer. */
  end(outcome: { status: number } | { error: string }): void;
}

/** A request's span: its context (the parent of its legacy calls) and how to end it. */
export interface RequestSpan {
  context: TraceContext;
  end(route: string, status: number): void;
}

/**
 * OpenTelemetry spans for each request and each legacy call, with the W3C trace context read from the
 * caller's `traceparent` and written on every legacy call. Nothing global is registered and nothing is
 * patched: the request hands its context to the legacy calls itself.
 */
export interface Tracing {
  startRequest(method: string, headers: Headers): RequestSpan;
  startCall(parent: TraceContext | undefined, method: string, path: string): CallSpan;
  /** Sends the spans still buffered, then stops exporting. */
  shutdown(): Promise<void>;
}

const headerGetter: TextMapGetter<Headers> = {
  get: (carrier, key) => carrier.get(key) ?? undefined,
  keys: (carrier) => [...carrier.keys()],
};

/**
 * Tracing over OTLP/HTTP (JSON) to `{endpoint}/v1/traces`, or `undefined` without an endpoint: then no
 * span is made and no header is added anywhere.
 *
 * @example
 * const tracing = createTracing({ endpoint: config.tracing.endpoint, serviceName: 'org-gateway' });
 */
export function createTracing(options: {
  endpoint: URL | undefined;
  serviceName: string;
}): Tracing | undefined {
  if (options.endpoint === undefined) return undefined;
  const { api, core, exporter: otlp, resources, sdk } = loadOpenTelemetry();
  const { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } = api;
  const statusOf = (status: number) => (status >= 500 ? SpanStatusCode.ERROR : SpanStatusCode.UNSET);
  const exporter = new otlp.OTLPTraceExporter({
    url: `${options.endpoint.href.replace(/\/$/, '')}/v1/traces`,
  });
  const provider = new sdk.BasicTracerProvider({
    resource: resources.resourceFromAttributes({ 'service.name': options.serviceName }),
    spanProcessors: [new sdk.BatchSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('org-gateway');
  const propagator = new core.W3CTraceContextPropagator();

  const traceparentOf = (span: Span): string | undefined => {
    const carrier: Record<string, string> = {};
    propagator.inject(trace.setSpan(ROOT_CONTEXT, span), carrier, {
      set: (target, key, value) => {
        target[key] = value;
      },
    });
    return carrier.traceparent;
  };

  return {
    startRequest(method, headers) {
      const parent = propagator.extract(ROOT_CONTEXT, headers, headerGetter);
      const span = tracer.startSpan(
        method,
        { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } },
        parent,
      );
      return {
        context: trace.setSpan(parent, span),
        end(route, status) {
          span.updateName(`${method} ${route}`);
          span.setAttributes({ 'http.route': route, 'http.response.status_code': status });
          span.setStatus({ code: statusOf(status) });
          span.end();
        },
      };
    },
    startCall(parent, method, path) {
      const span = tracer.startSpan(
        `legacy ${method}`,
        {
          kind: SpanKind.CLIENT,
          attributes: { 'http.request.method': method, 'url.path': path.split('?')[0] },
        },
        parent ?? ROOT_CONTEXT,
      );
      return {
        traceparent: traceparentOf(span),
        end(outcome) {
          if ('status' in outcome) {
            span.setAttribute('http.response.status_code', outcome.status);
            span.setStatus({ code: statusOf(outcome.status) });
          } else {
            span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error });
          }
          span.end();
        },
      };
    },
    shutdown: () => provider.shutdown(),
  };
}
