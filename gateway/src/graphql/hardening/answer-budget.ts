import {
  getNamedType,
  GraphQLError,
  isLeafType,
  isObjectType,
  type GraphQLFieldResolver,
  type GraphQLSchema,
} from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';

/** What one request's answer may still take, in objects, and whether it has taken too much. */
interface AnswerBudget {
  left: number;
  exceeded: boolean;
}

/**
 * Each executing request's budget, keyed by its GraphQL context: the resolvers' wrappers are made once per
 * schema (every gateway of a process shares a version's schema), so they find the budget of the request they
 * resolve for here, and the limit is the gateway's that set it.
 */
const budgets = new WeakMap<object, AnswerBudget>();

/** The schemas whose resolvers count what they give. */
const counting = new WeakSet<GraphQLSchema>();

function answerTooLarge(): GraphQLError {
  return new GraphQLError(
    'The answer would be too large. Ask for fewer objects at once (a smaller limit, fewer aliases or nested lists), or split the query.',
    { extensions: { code: 'ANSWER_TOO_LARGE', http: { spec: true, status: 400 } } },
  );
}

/** How many objects a resolver's value puts in the answer: a list's items, a page's objects, or one. */
function objectsIn(value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (Array.isArray(value)) return value.length;
  const objects = (value as { objects?: unknown }).objects;
  return Array.isArray(objects) ? objects.length : 1;
}

/** Takes what `value` puts in the answer from the budget; past it, the request stops. */
function take(budget: AnswerBudget, value: unknown): unknown {
  budget.left -= objectsIn(value);
  if (budget.left < 0) {
    budget.exceeded = true;
    throw answerTooLarge();
  }
  return value;
}

function counted(resolve: GraphQLFieldResolver<unknown, unknown>): GraphQLFieldResolver<unknown, unknown> {
  return (source, args, context, info) => {
    const budget = budgets.get(context as object);
    if (budget === undefined) return resolve(source, args, context, info);
    // Past the budget nothing more is resolved (nor read from the legacy service): every field fails at once.
    if (budget.exceeded) throw answerTooLarge();
    const value = resolve(source, args, context, info);
    return value instanceof Promise ? value.then((given) => take(budget, given)) : take(budget, value);
  };
}

/**
 * Wraps every resolver that gives objects (a link, a page, a list) so that it counts them. Fields without a
 * resolver read what their parent's resolver gave (a page's `objects`, a record's `validity`), which is
 * counted there. Done once per schema, before it is first executed (graphql-jit compiles the resolvers as
 * they are then).
 */
function countObjects(schema: GraphQLSchema): void {
  if (counting.has(schema)) return;
  counting.add(schema);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.resolve && !isLeafType(getNamedType(field.type))) field.resolve = counted(field.resolve);
    }
  }
}

/**
 * A request's share of the gateway's memory: its answer may hold at most `maxObjects` objects, counted while
 * it is built (each object a resolver gives, each item of a list or page it gives). Past that, nothing more
 * is resolved or read, and the request answers one `ANSWER_TOO_LARGE` error and no data. The cost model
 * weighs a document before it runs; this bounds what it really gives, whatever the data holds: 30 aliases of a
 * facet's classes and their facet's classes had answered 84 MB from a few cached reads, 1.4 GB of the
 * gateway's memory, and eight at once ended it (issue 35).
 *
 * @example
 * createYoga({ schema, plugins: [useAnswerBudget({ maxObjects: 20_000 })] });
 */
export function useAnswerBudget({ maxObjects }: { maxObjects: number }): Plugin {
  return {
    onExecute({ args }) {
      countObjects(args.schema);
      const budget: AnswerBudget = { left: maxObjects, exceeded: false };
      budgets.set(args.contextValue as object, budget);
      return {
        onExecuteDone({ result, setResult }) {
          if (!budget.exceeded || isAsyncIterable(result)) return;
          setResult({ errors: [answerTooLarge()] });
        },
      };
    },
  };
}
