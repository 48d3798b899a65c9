import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** How large, deep and long a request's variables may be (`GRAPHQL_MAX_VARIABLES_*`). */
export interface VariableLimits {
  /** The variables' size, about the length of their JSON text (strings, keys, numbers and punctuation). */
  maxBytes: number;
  /** Deepest nesting of objects and lists inside the variables object (`{"f": {"parent": {}}}` nests two). */
  maxDepth: number;
  /** Most items in any one list of them. */
  maxListLength: number;
}

/**
 * What a client sees when its variables break a limit: what to change. Like the query limits, the number is
 * not told (`query-limits.ts`); the configuration and docs/security.md say it.
 */
const refusals = {
  bytes: [
    'VARIABLES_TOO_LARGE',
    413,
    'The variables are too large. Send fewer values at once, and split the work into several requests.',
  ],
  depth: [
    'VARIABLES_TOO_DEEP',
    400,
    'The variables are nested too deeply. Nest filters fewer levels, or split the query.',
  ],
  list: [
    'VARIABLE_LIST_TOO_LONG',
    400,
    'A list in the variables is too long. Send fewer values in one list, and split the work into several requests.',
  ],
  unicode: [
    'VARIABLES_NOT_UNICODE',
    400,
    'A string in the variables is not valid Unicode (a lone surrogate such as "\\ud800"). Send well-formed UTF-16 strings.',
  ],
} as const satisfies Record<string, readonly [string, number, string]>;

export type VariableRefusal = keyof typeof refusals;

/** A UTF-16 code unit of a surrogate pair standing alone: not a character, and not encodable as UTF-8. */
const loneSurrogate = /\p{Cs}/u;

/** The JSON text a number or a literal (`true`, `null`) takes, roughly: what the size counts for it. */
const scalarBytes = 8;

/**
 * Which limit a request's variables break, or undefined when they keep them all. The variables are walked
 * with a stack of their own, not by recursion: JSON nested 60,000 deep parses (V8's parser does not recurse),
 * and it is refused here before anything recursive (graphql-js's input coercion, the cost model, a filter's
 * translation) meets it. The walk stops at the first limit broken, so a large refusal costs no more than the
 * limit.
 */
export function brokenVariableLimit(variables: unknown, limits: VariableLimits): VariableRefusal | undefined {
  const stack: { value: unknown; depth: number }[] = [{ value: variables, depth: 0 }];
  let bytes = 0;
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (typeof value === 'string') {
      bytes += value.length + 2;
      if (loneSurrogate.test(value)) return 'unicode';
    } else if (typeof value !== 'object' || value === null) {
      bytes += scalarBytes;
    } else {
      // The variables object itself is level 0: `{"uuids": ["a"]}` as a variable's value nests 2 levels.
      if (depth > limits.maxDepth) return 'depth';
      bytes += 2;
      if (Array.isArray(value)) {
        if (value.length > limits.maxListLength) return 'list';
        bytes += value.length;
        for (const item of value) stack.push({ value: item, depth: depth + 1 });
      } else {
        for (const [key, item] of Object.entries(value)) {
          bytes += key.length + 4;
          if (loneSurrogate.test(key)) return 'unicode';
          stack.push({ value: item, depth: depth + 1 });
        }
      }
    }
    if (bytes > limits.maxBytes) return 'bytes';
  }
  return undefined;
}

/** The refusal of one broken limit: a client's mistake, with its own code and status on every road. */
export function variableRefusal(kind: VariableRefusal): GraphQLError {
  const [code, status, message] = refusals[kind];
  return new GraphQLError(message, { extensions: { code, http: { status } } });
}

/**
 * Refuses a request whose variables are too large, too deep, hold a list too long or a string that is not
 * Unicode, as soon as its parameters are read (GET or POST, Yoga's road or the JSON exchange), before they are
 * parsed against the document, weighed or coerced: 1 MB of UUIDs otherwise planned thousands of legacy calls
 * per request, variables nested thousands deep overflowed the stack in the input coercion and a lone surrogate
 * failed the legacy path's encoding, both as 500 "Unexpected error." (issue 35).
 *
 * @example
 * createYoga({ schema, plugins: [useVariableLimits({ maxBytes: 262_144, maxDepth: 32, maxListLength: 1_000 })] });
 */
export function useVariableLimits(limits: VariableLimits): Plugin {
  return {
    onParams({ params }) {
      const variables: unknown = params.variables;
      if (variables === undefined || variables === null) return;
      const broken = brokenVariableLimit(variables, limits);
      if (broken !== undefined) throw variableRefusal(broken);
    },
  };
}
