import { getOperationAST, GraphQLError, type DocumentNode, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { coordinatesCache } from '../usage/schema-coordinates.js';
import { loggerFor, type Observability } from './observability.js';
import type { OperationOutcome } from './metrics.js';

export interface OperationObservationOptions {
  /** The version this Yoga server answers, e.g. `v2`. */
  version: string;
  observability: Observability;
}

interface OperationState {
  started: number;
  operationName: string | undefined;
  operationType: string;
  executed: boolean;
  coordinates?: readonly string[];
}

/** Operation names come from clients: long enough to recognise, never unbounded in a log line. */
const maxNameLength = 100;

function describe(document: DocumentNode, operationName: string | null | undefined) {
  const operation = getOperationAST(document, operationName);
  return {
    operationType: operation?.operation ?? 'unknown',
    operationName: (operationName ?? operation?.name?.value)?.slice(0, maxNameLength),
  };
}

function outcomeOf(result: unknown, executed: boolean): OperationOutcome {
  if (!executed) return 'rejected';
  const { data, errors } = (result ?? {}) as ExecutionResult;
  if (errors === undefined || errors.length === 0) return 'success';
  // Partial: some root field has data despite the errors; otherwise the client got nothing it asked for.
  const answered = Object.values(data ?? {}).some((value) => value !== null && value !== undefined);
  return answered ? 'partial' : 'error';
}

/**
 * Counts every GraphQL operation by version, type and outcome, times it, tells the access log which
 * operation a request carried, and logs resolver failures that Yoga is about to mask (with the request id:
 * the client sees only "Unexpected error."). Per-request state lives in a `WeakMap` keyed by the request.
 *
 * @example
 * createYoga({ schema, plugins: [useOperationObservation({ version: 'v2', observability })] });
 */
export function useOperationObservation(options: OperationObservationOptions): Plugin {
  const { version, observability } = options;
  const { metrics } = observability;
  const states = new WeakMap<Request, OperationState>();
  const coordinatesOf = coordinatesCache();

  return {
    onParams({ request, params }) {
      states.set(request, {
        started: performance.now(),
        operationName: params.operationName?.slice(0, maxNameLength),
        operationType: 'unknown',
        executed: false,
      });
    },
    onValidate({ params, context }) {
      const state = states.get(context.request);
      if (state) Object.assign(state, describe(params.documentAST, state.operationName));
    },
    onExecute({ args }) {
      const state = states.get(args.contextValue.request);
      if (state) {
        Object.assign(state, describe(args.document, args.operationName), {
          executed: true,
          coordinates: coordinatesOf(args.schema, args.document, args.operationName),
        });
      }
      return {
        onExecuteDone({ result }) {
          if (!('errors' in result) || result.errors === undefined) return;
          for (const error of result.errors) {
            const cause = error.originalError;
            if (cause === undefined || cause instanceof GraphQLError) continue;
            loggerFor(observability, args.contextValue.request).error(
              { err: cause, path: error.path?.join('.'), version },
              'graphql: unexpected error in a resolver',
            );
          }
        },
      };
    },
    onResultProcess({ request, result }) {
      const state = states.get(request);
      if (state === undefined) return;
      states.delete(request);
      const outcome = outcomeOf(result, state.executed);
      metrics.graphqlOperations.inc({ version, operation_type: state.operationType, outcome });
      metrics.graphqlOperationDuration.observe(
        { version, operation_type: state.operationType },
        (performance.now() - state.started) / 1000,
      );
      const record = observability.requests.get(request);
      if (record) {
        record.operation = {
          version,
          operationName: state.operationName,
          operationType: state.operationType,
          outcome,
          coordinates: state.coordinates,
        };
      }
    },
  };
}
