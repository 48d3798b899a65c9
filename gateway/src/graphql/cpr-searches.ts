import {
  getOperationAST,
  GraphQLError,
  Kind,
  valueFromASTUntyped,
  visit,
  type DocumentNode,
  type OperationDefinitionNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GraphQLContext } from './context.js';
import { cprNumbersIn, isCprSearch, logCprSearch } from '../cpr/cpr-search.js';

/**
 * What each CPR number a request searches by weighs in the query cost (`hardening/weighted-cost.ts`): a
 * search by number reads the whole person listing and answers whose the number is, as a `cpr_lookup` does.
 * At the default `CPR_MAX_NUMBERS_PER_REQUEST` of 100 that is 5,000 of the default `GRAPHQL_MAX_COST`.
 */
export const cprNumberWeight = 50;

/**
 * How many CPR numbers one operation searches by: every argument of every field in the operation and its
 * fragments, with the request's variables put in, counted by `cprNumbersIn` (a `cpr_numbers` at any depth
 * of a filter, a `query` that is a number).
 */
export function cprNumbersInOperation(
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | null | undefined,
): number {
  let count = 0;
  const countIn = (node: OperationDefinitionNode | DocumentNode['definitions'][number]) =>
    visit(node, {
      Argument(argument) {
        const value = valueFromASTUntyped(argument.value, variables ?? undefined);
        count += cprNumbersIn({ [argument.name.value]: value });
        // The argument's own value is counted whole; its inner nodes are not visited again.
        return false;
      },
    });
  countIn(operation);
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) countIn(definition);
  }
  return count;
}

/** The refusal of a request that searches by more CPR numbers than one request may. */
function tooManyNumbers(): GraphQLError {
  return new GraphQLError(
    'The request searches by too many CPR numbers at once. Ask for fewer numbers in each request.',
    { extensions: { code: 'TOO_MANY_CPR_NUMBERS', http: { spec: true, status: 400 } } },
  );
}

/**
 * CPR searches on GraphQL: a request that searches by more than `maxNumbers` CPR numbers (`cpr_numbers`
 * at any depth, a `query` that is a number) is refused before it executes, with the request's own
 * variables; one that runs writes one `cpr_search` line when it is done, from what its filters tallied
 * (`person-filters.ts`, `search-filters.ts`).
 *
 * @example
 * createYoga({ schema, plugins: [useCprSearches({ maxNumbers: 100, version: 'v30' }), useHardening(…)] });
 */
export function useCprSearches(options: { maxNumbers: number; version: string }): Plugin {
  const { maxNumbers } = options;
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const operation = getOperationAST(args.document, args.operationName);
      if (operation && cprNumbersInOperation(args.document, operation, args.variableValues) > maxNumbers) {
        setResultAndStopExecution({ errors: [tooManyNumbers()] });
        return undefined;
      }
      return {
        onExecuteDone() {
          const context = args.contextValue as Partial<GraphQLContext>;
          const cpr = context.cpr;
          if (!cpr?.search) return;
          logCprSearch(
            context.log,
            { road: 'graphql', endpoint: `/graphql/${options.version}` },
            cpr.search,
            { principal: context.principal, requestId: undefined, ids: cpr.ids },
            !cpr.mayRead,
          );
        },
      };
    },
  };
}

/**
 * A person search by text on GraphQL (OS2mo's `query`, v1–v30): a text that is a CPR number is a search of
 * the register, so it is tallied for the request's line, finds no one for a reader `CPR_READ_ROLES` leaves
 * out (before any read, so the answer cannot tell whose the number is), and whom it finds are its subjects.
 * Any other text is searched as it is.
 */
export async function cprCheckedSearch<T extends { uuid: string }>(
  context: GraphQLContext,
  text: string,
  search: () => Promise<T[]>,
): Promise<T[]> {
  if (!isCprSearch(text)) return search();
  context.cpr?.search?.numbers.add(text.replace(/\D/g, ''));
  if (context.cpr?.mayRead === false) return [];
  const found = await search();
  for (const person of found) context.cpr?.search?.subjects.add(person.uuid);
  return found;
}

/**
 * A `cpr_numbers` filter at any depth: the numbers are tallied for the request's line, and the people
 * `find` picks by them are its subjects; a reader `CPR_READ_ROLES` leaves out is found no one, so no
 * answer (however the numbers are split across requests) tells whose a number is.
 */
export async function cprCheckedNumbers<T extends { uuid: string }>(
  context: GraphQLContext,
  numbers: readonly string[],
  find: () => Promise<T[]>,
): Promise<T[]> {
  for (const number of numbers) context.cpr?.search?.numbers.add(number);
  if (context.cpr?.mayRead === false) return [];
  const found = await find();
  for (const person of found) context.cpr?.search?.subjects.add(person.uuid);
  return found;
}
