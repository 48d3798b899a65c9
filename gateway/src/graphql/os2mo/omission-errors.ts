import { GraphQLError } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { OmissionList } from './schema-conformance.js';

/** The code of an error about something OS2mo's schema has and this gateway declares left out. */
export const NOT_SERVED_CODE = 'NOT_SERVED_BY_THIS_BACKEND';

/**
 * graphql-js's (and graphql-jit's) messages for a name the schema lacks, each with the schema coordinate it
 * names: a field, an argument, an input field (also inside a variable's value), a type, an enum value.
 */
const unknownNames: readonly [RegExp, (match: RegExpMatchArray) => string][] = [
  [/Cannot query field "(\w+)" on type "(\w+)"/, ([, field, type]) => `${type}.${field}`],
  [/Unknown argument "(\w+)" on field "(\w+)\.(\w+)"/, ([, arg, type, field]) => `${type}.${field}(${arg}:)`],
  [/Field "(\w+)" is not defined by type "?(\w+)"?/, ([, field, type]) => `${type}.${field}`],
  [/^Unknown type "(\w+)"/, ([, type]) => type!],
  [/Value "(\w+)" does not exist in "(\w+)" enum/, ([, value, type]) => `${type}.${value}`],
];

/** The schema coordinate a "no such name" error names, if it is one. */
export function unknownCoordinateOf(message: string): string | undefined {
  for (const [pattern, coordinate] of unknownNames) {
    const match = message.match(pattern);
    if (match) return coordinate(match);
  }
  return undefined;
}

/** The one sentence that says a coordinate is a known gap of this backend, and why. */
export function notServedMessage(coordinate: string, reason: string): string {
  return `OS2mo's GraphQL has \`${coordinate}\`, which this gateway does not serve: ${reason.replace(/\.?$/, '.')}`;
}

function explained(omissions: OmissionList, error: GraphQLError): GraphQLError {
  const coordinate = unknownCoordinateOf(error.message);
  const reason = coordinate === undefined ? undefined : omissions[coordinate];
  if (reason === undefined) return error;
  return new GraphQLError(notServedMessage(coordinate!, reason), {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, code: NOT_SERVED_CODE, coordinate },
  });
}

const explainAll = (omissions: OmissionList, errors: readonly Error[]) =>
  errors.map((error) => (error instanceof GraphQLError ? explained(omissions, error) : error));

/**
 * Replaces graphql-js's bare "Cannot query field …" (and its kin for arguments, input fields, types and enum
 * values) with a sentence naming OS2mo's coordinate and the declared reason, when the name is one of the
 * version's declared omissions: an integrator then knows it is a known gap, not a typo. Covers validation
 * and the variables checked when execution starts; any other name keeps graphql-js's message.
 *
 * @example
 * createYoga({ schema, plugins: [useOmissionErrors(declaredOmissionsOf('v30')!)] });
 */
export function useOmissionErrors(omissions: OmissionList): Plugin {
  return {
    onValidate() {
      return ({ valid, result, setResult }) => {
        if (!valid) setResult(explainAll(omissions, result) as GraphQLError[]);
      };
    },
    onExecute() {
      return {
        onExecuteDone({ result, setResult }) {
          if (isAsyncIterable(result) || result.errors === undefined) return;
          setResult({ ...result, errors: explainAll(omissions, result.errors) as GraphQLError[] });
        },
      };
    },
  };
}
