import {
  buildSchema,
  getNamedType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type GraphQLSchema,
} from 'graphql';
import type { GraphQLContext, Source } from '../context.js';
import { nextDay } from './date-time.js';
import { filterLink, oneOf, pageLink, type LinkFilter } from './link-filters.js';
import { oneResponse, pagedResponse, responseTarget } from './link-responses.js';
import type { FieldView, TypeView } from './ledger/index.js';

type Resolver = GraphQLFieldResolver<Source, GraphQLContext, Record<string, unknown>>;
type ResolverMap = Record<string, Record<string, unknown>>;

const uuidOf = (value: unknown): string | null =>
  value && typeof value === 'object' && 'uuid' in value ? String((value as { uuid: unknown }).uuid) : null;

/** How an OS2mo field's value is made from its graph field's value. */
function adaptation(
  graphField: { type: Parameters<typeof isListType>[0] },
  servedType: string,
): ((value: unknown) => unknown) | null {
  const graphIsList = isListType(isNonNullType(graphField.type) ? graphField.type.ofType : graphField.type);
  const graphIsObject = isObjectType(getNamedType(graphField.type as never));
  const servedIsList = servedType.startsWith('[');
  const servedIsKey = servedType.replace(/[[\]!]/g, '') === 'UUID' && graphIsObject;
  const servedNullable = !servedType.endsWith('!');
  if (servedIsKey) {
    return graphIsList
      ? (value: unknown) => (Array.isArray(value) ? value.map(uuidOf).filter((key) => key !== null) : null)
      : uuidOf;
  }
  // OS2mo lists the object a link points to: zero or one element (null while a nullable link is empty).
  if (servedIsList && !graphIsList) {
    return (value: unknown) => (value == null ? (servedNullable ? null : []) : [value]);
  }
  return null;
}

const isPromise = (value: unknown): value is Promise<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as Promise<unknown>).then === 'function';

/** How a `*_response` link's value is made from what its graph field gives. */
function responseOf(
  field: FieldView,
  source: Source,
  args: Record<string, unknown>,
  context: GraphQLContext,
) {
  const target = responseTarget(field.type);
  return field.response === 'paged'
    ? (value: unknown) => pagedResponse(value, target, source, context, args)
    : (value: unknown) => oneResponse(value, target, source, context.today);
}

/** A validity's `to` as OS2mo v29 on gives it: the day after the last day included (the Service API's `to`). */
export const exclusiveEnd = (validity: { to?: string | null }) => (validity.to ? nextDay(validity.to) : null);

/** Whether a link was given OS2mo's `filter`, `limit` or `cursor`. */
const hasLinkArguments = (args: Record<string, unknown>) =>
  args.filter != null || args.limit != null || args.cursor != null;

/**
 * A link's answer under its `filter`, `limit` and `cursor`, from the objects it gives without them (a list,
 * one object or null): the filter's objects, a page of them, in the link's shape (a list, a page of
 * responses, or its one object).
 */
async function linkAnswer(
  value: unknown,
  field: FieldView,
  coordinate: string,
  source: Source,
  args: Record<string, unknown>,
  context: GraphQLContext,
  info: GraphQLResolveInfo,
): Promise<unknown> {
  const found = await value;
  const records = Array.isArray(found) ? (found as Source[]) : found == null ? [] : [found as Source];
  const filter = args.filter as LinkFilter | null | undefined;
  const kept =
    filter && field.filter
      ? await filterLink(records, filter, field.filter, source, context, info)
      : { records, window: { from: source.__at, to: source.__at } };
  if (field.response) {
    return pagedResponse(kept.records, responseTarget(field.type), source, context, args, kept.window);
  }
  const page = pageLink(kept.records, args);
  if (field.type.startsWith('[')) return found == null && !field.type.endsWith('!') ? null : page;
  return oneOf(page, coordinate, !field.type.endsWith('!'));
}

/**
 * The resolvers written beside the version for its `own` links to the objects its object names (`FieldView.own`,
 * a filter without a listing), each made to honour the link's `filter`, `limit` and `cursor` as the viewed
 * links do: the resolver gives the link's objects, the link's arguments narrow and page them. A `*_response`
 * page of its own pages itself, and a link over an owner's listing filters it over the window itself.
 */
export function withLinkArguments(
  resolvers: Readonly<Record<string, Readonly<Record<string, unknown>>>>,
  views: Readonly<Record<string, TypeView>>,
): ResolverMap {
  const result: ResolverMap = {};
  for (const [typeName, fields] of Object.entries(resolvers)) {
    result[typeName] = { ...fields };
    for (const [fieldName, resolver] of Object.entries(fields)) {
      const field = views[typeName]?.fields[fieldName];
      // A link over an owner's listing (`filter.listing`) reads it over the filter's window itself.
      if (!field?.own || field.filter?.listing !== null || field.response) continue;
      if (typeof resolver !== 'function') continue;
      const resolve = resolver as Resolver;
      const wrapped: Resolver = (source, args, context, info) =>
        hasLinkArguments(args)
          ? linkAnswer(
              resolve(source, args, context, info),
              field,
              `${typeName}.${fieldName}`,
              source,
              args,
              context,
              info,
            )
          : resolve(source, args, context, info);
      result[typeName][fieldName] = wrapped;
    }
  }
  return result;
}

/**
 * Resolvers for the viewed types, made from the graph's own resolvers: each OS2mo field runs the resolver
 * (or the default, the record's property) of the graph field it views, under that field's name, and
 * adapts the value where OS2mo's shape differs (a list of the linked object, or its UUID).
 */
export function viewResolvers(
  graphTypeDefs: string,
  graphResolvers: ResolverMap,
  views: Readonly<Record<string, TypeView>>,
): ResolverMap {
  const graph: GraphQLSchema = buildSchema(graphTypeDefs);
  const result: ResolverMap = {};
  for (const [typeName, view] of Object.entries(views)) {
    const graphType = graph.getType(view.graphType);
    if (!isObjectType(graphType)) continue;
    const own = graphResolvers[view.graphType] ?? {};
    const fields: Record<string, Resolver> = {};
    for (const [fieldName, field] of Object.entries(view.fields)) {
      if (field.none) {
        const answer = emptyAnswer(field.type);
        fields[fieldName] = () => answer;
        continue;
      }
      const from = field.from ?? fieldName;
      const graphField = graphType.getFields()[from];
      if (!graphField) continue;
      const base = own[from] as Resolver | undefined;
      const adapt = field.response ? null : adaptation(graphField, field.type);
      if (!base && !adapt && from === fieldName && !field.filter) continue;
      fields[fieldName] = (source, args, context, info) => {
        const value = base
          ? base(
              source,
              args,
              context,
              from === fieldName ? info : ({ ...info, fieldName: from } as GraphQLResolveInfo),
            )
          : source[from];
        if (field.filter && hasLinkArguments(args)) {
          return linkAnswer(value, field, `${typeName}.${fieldName}`, source, args, context, info);
        }
        const answer = field.response ? responseOf(field, source, args, context) : adapt;
        if (!answer) return value;
        return isPromise(value) ? value.then(answer) : answer(value);
      };
    }
    result[typeName] = fields;
  }
  // OS2mo's validity ends are exclusive; the legacy `to` is the last day included.
  result.Validity = { ...result.Validity, to: exclusiveEnd };
  return result;
}

/** The answer OS2mo gives for a field with no value, by its type: an empty page, an empty list or null. */
export function emptyAnswer(type: string): unknown {
  if (/ResponsePaged!?$/.test(type)) return { objects: [], page_info: { next_cursor: null } };
  if (type.startsWith('[')) return [];
  if (type.endsWith('!')) throw new Error(`A field of type ${type} cannot be answered with nothing.`);
  return null;
}
