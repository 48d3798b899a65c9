import type { Plugin } from 'graphql-yoga';
import type { GraphQLContext } from './context.js';

/**
 * A CPR number is personal data: a traced CPR lookup shows its path without the number, as the graph never
 * echoes it either.
 */
const cprLookupQuery = /^(\/service\/e\/cpr_lookup\/)\?.*$/;
export function traceablePath(path: string): string {
  return path.replace(cprLookupQuery, '$1?q=hidden');
}

/** Whether a request gets `extensions.upstream`: configuration allows it and the request sends `X-Upstream-Trace: 1`. */
export function upstreamTraceRequested(enabled: boolean, request: Request): boolean {
  return enabled && request.headers.get('x-upstream-trace') === '1';
}

/**
 * Adds `extensions.upstream` — every legacy call the operation made (method, path, status, duration,
 * round) — when the request sends `X-Upstream-Trace: 1` and configuration allows it.
 */
export function useUpstreamTrace(options: {
  enabled: boolean;
}): Plugin<GraphQLContext & { request: Request }> {
  return {
    onExecute({ args }) {
      const context = args.contextValue;
      if (!upstreamTraceRequested(options.enabled, context.request)) return;
      return {
        onExecuteDone({ result, setResult }) {
          if (!('data' in result) && !('errors' in result)) return;
          const calls = context.calls.map((call) => ({
            ...call,
            path: traceablePath(call.path),
            duration_ms: Math.round(call.duration_ms * 100) / 100,
            started_ms: Math.round(call.started_ms * 100) / 100,
          }));
          const rounds = calls.reduce((max, call) => Math.max(max, call.round), 0);
          setResult({
            ...result,
            extensions: {
              ...(result as { extensions?: object }).extensions,
              upstream: { requests: calls.length, rounds, calls },
            },
          });
        },
      };
    },
  };
}
