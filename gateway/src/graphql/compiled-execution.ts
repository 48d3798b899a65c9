import {
  execute,
  getNamedType,
  getNullableType,
  getOperationAST,
  GraphQLError,
  isInputObjectType,
  isListType,
  isObjectType,
  typeFromAST,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type Source,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';

/** The offset of a 1-based line and column in `body`, for `GraphQLError`'s `positions`. */
function offsetOf(body: string, line: number, column: number): number {
  let offset = 0;
  for (let at = 1; at < line; at += 1) {
    const next = body.slice(offset).search(/\r\n|[\n\r]/);
    if (next < 0) break;
    offset += next + (body.startsWith('\r\n', offset + next) ? 2 : 1);
  }
  return offset + column - 1;
}

/**
 * graphql-jit's field errors carry `locations` but not the document's source and positions that graphql-js
 * errors carry, and every later step that rebuilds an error (the legacy error mapping, hidden suggestions,
 * Yoga's mask) keeps only those: rebuilt here as graphql-js errors, they keep their locations to the end.
 */
function withSource(error: GraphQLError, source: Source | undefined): GraphQLError {
  if (error.source || !source || !error.locations?.length) return error;
  return new GraphQLError(error.message, {
    source,
    positions: error.locations.map(({ line, column }) => offsetOf(source.body, line, column)),
    path: error.path,
    originalError: error.originalError,
    extensions: error.extensions,
  });
}

/**
 * graphql-js's default resolver calls a field's value when it is a function (a mutation payload's lazily
 * read-back `object`); graphql-jit's reads it as it is. Fields that hold a function get a resolver that
 * calls it, as graphql-js would. Only the payload types hold one, so only fields without a resolver named
 * `object` on `*Payload` types are given one.
 */
function callLazyPayloadObjects(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || !type.name.endsWith('Payload')) continue;
    const field = type.getFields().object;
    if (!field || field.resolve) continue;
    field.resolve = (payload: { object?: unknown }) =>
      typeof payload.object === 'function' ? (payload.object as () => unknown)() : payload.object;
  }
}

/** A variable's value with the defaults of the input-object fields it leaves out filled in, at any depth. */
function fillDefaults(type: GraphQLInputType, value: unknown): unknown {
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    return Array.isArray(value) ? value.map((item) => fillDefaults(nullable.ofType, item)) : value;
  }
  if (!isInputObjectType(nullable) || typeof value !== 'object' || value === null || Array.isArray(value)) {
    return value;
  }
  const filled: Record<string, unknown> = { ...value };
  for (const field of Object.values(nullable.getFields())) {
    const given = filled[field.name];
    if (given === undefined && field.defaultValue !== undefined) filled[field.name] = field.defaultValue;
    else if (given !== undefined) filled[field.name] = fillDefaults(field.type, given);
  }
  return filled;
}

/**
 * graphql-jit 0.8 refuses a variable's input object that leaves out a non-null field with a default (OS2mo's
 * `EmployeeTerminateInput.vacate: Boolean! = false`), where GraphQL uses the default: the compiled code gets
 * the variables with those defaults filled in. Everything else it checks and coerces itself, as before.
 */
function withInputDefaults(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  variables: ExecutionArgs['variableValues'],
): ExecutionArgs['variableValues'] {
  if (!operation.variableDefinitions?.length || !variables) return variables;
  const filled: Record<string, unknown> = { ...variables };
  for (const definition of operation.variableDefinitions) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (type && filled[name] !== undefined) filled[name] = fillDefaults(type, filled[name]);
  }
  return filled;
}

/** Whether an input type can reach itself through its fields (OS2mo's `OrganisationUnitFilter.parent`). */
function reachesACycle(type: GraphQLInputType, path: Set<string> = new Set(), done: Set<string> = new Set()) {
  const named = getNamedType(type);
  if (!isInputObjectType(named) || done.has(named.name)) return false;
  if (path.has(named.name)) return true;
  path.add(named.name);
  const cyclic = Object.values(named.getFields()).some((field) => reachesACycle(field.type, path, done));
  path.delete(named.name);
  if (!cyclic) done.add(named.name);
  return cyclic;
}

/**
 * Whether an operation declares a variable whose input type contains itself: graphql-jit inlines the parser
 * of each variable's type, field by field, so such a type never ends (the process runs out of memory).
 */
export function runsInterpreted(schema: GraphQLSchema, operation: OperationDefinitionNode): boolean {
  return (operation.variableDefinitions ?? []).some((definition) => {
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    return type !== undefined && reachesACycle(type);
  });
}

/**
 * An operation's compiled code, the compiler's errors when it could not be compiled, or `interpreted` for
 * one that graphql-js runs itself (a variable of a self-containing input type).
 */
type Compilation = CompiledQuery | ExecutionResult | 'interpreted';

/** An operation executed once, not yet compiled. */
const seenOnce = Symbol('seen once');

/**
 * The code compiled for each operation, kept in a WeakMap keyed by the operation's node in the parsed
 * document. The node stands for the document and the operation together (it belongs to one parsed document
 * only), so two operations of one document never share code, and a document that leaves the bounded parser
 * cache (`createDocumentBudget`) takes its compiled code with it. An operation is compiled the second time it
 * runs: compiling costs far more memory than the document, and a stream of distinct documents (each run once)
 * would otherwise fill the budget's every entry with code. The schema is the server's one, fixed for the
 * map's life.
 */
function compiledOperations(schema: GraphQLSchema) {
  const byOperation = new WeakMap<OperationDefinitionNode, Compilation | typeof seenOnce>();
  return (document: DocumentNode, operation: OperationDefinitionNode): Compilation | undefined => {
    const known = byOperation.get(operation);
    if (known === undefined) {
      const first = runsInterpreted(schema, operation) ? 'interpreted' : seenOnce;
      byOperation.set(operation, first);
      return first === seenOnce ? undefined : first;
    }
    if (known !== seenOnce) return known;
    // Compiled by the resolved node's own name, so the code is the operation that was checked.
    const compilation = compileQuery(schema, document, operation.name?.value);
    byOperation.set(operation, compilation);
    return compilation;
  };
}

/** A request's operation that cannot be run: a user-facing error with its HTTP status, as Yoga renders it. */
function refusal(message: string, code: string, http: Record<string, unknown>): ExecutionResult {
  return { errors: [new GraphQLError(message, { extensions: { code, http } })] };
}

/**
 * The operation a request runs, or why it must not run: GET runs queries only. Yoga checks that while
 * parsing; it is checked again here on the very operation that is executed, so no cache can slip a mutation
 * past it.
 */
function operationToRun(args: ExecutionArgs): OperationDefinitionNode | ExecutionResult {
  const operation = getOperationAST(args.document, args.operationName);
  if (!operation) {
    return refusal(
      'The document holds several operations: name the one to run in `operationName`.',
      'OPERATION_RESOLUTION_FAILURE',
      { status: 400 },
    );
  }
  const method = (args.contextValue as { request?: Request } | undefined)?.request?.method;
  if (method === 'GET' && operation.operation !== 'query') {
    return refusal(
      `A ${operation.operation} is sent with POST; GET runs queries only.`,
      'METHOD_NOT_ALLOWED',
      { status: 405, headers: { Allow: 'POST' } },
    );
  }
  return operation;
}

/**
 * Executes each operation through the code graphql-jit compiled for it, once: graphql-js' executor was about
 * 5% of the gateway's CPU on the reference query, the compiled code under 1% (issue 16, `npm run bench:cpu`).
 * The code is cached per document **and** operation (`compiledOperations`): `@envelop/graphql-jit` keyed it by
 * the document alone, so a document holding several operations ran the first one compiled whatever
 * `operationName` later requests named (issue 20). An operation that cannot be compiled answers with the
 * compiler's errors, as an invalid one would. An operation with a variable of a self-containing input type
 * (OS2mo's unit filters) runs through graphql-js instead, which coerces such variables as it meets them.
 * Register it first: its result hook must run before any other
 * plugin rebuilds an error.
 *
 * @example
 * createYoga({ schema, plugins: [useCompiledExecution(schema), useHardening(…), …] });
 */
export function useCompiledExecution(schema: GraphQLSchema): Plugin {
  callLazyPayloadObjects(schema);
  const compiled = compiledOperations(schema);
  const run = (args: ExecutionArgs) => {
    const operation = operationToRun(args);
    if (!('kind' in operation)) return operation;
    const compilation = compiled(args.document, operation);
    // The first run, and an operation graphql-jit cannot compile: graphql-js, on the very operation checked above.
    if (compilation === undefined || compilation === 'interpreted') {
      return execute({ ...args, operationName: operation.name?.value });
    }
    if (!isCompiledQuery(compilation)) return compilation;
    const stringify = compilation.stringify;
    const withStringify = (result: ExecutionResult) => Object.assign(result, { stringify });
    const variables = withInputDefaults(args.schema, operation, args.variableValues);
    const result = compilation.query(args.rootValue, args.contextValue, variables);
    return result instanceof Promise ? result.then(withStringify) : withStringify(result);
  };
  return {
    onExecute({ args, setExecuteFn }) {
      setExecuteFn(run);
      const source = args.document.loc?.source;
      return {
        onExecuteDone({ result, setResult }) {
          if (isAsyncIterable(result) || !result.errors?.length) return;
          setResult({ ...result, errors: result.errors.map((error) => withSource(error, source)) });
        },
      };
    },
  };
}
