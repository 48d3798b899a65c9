import {
  getNamedType,
  getNullableType,
  isListType,
  isObjectType,
  isInterfaceType,
  Kind,
  valueFromAST,
  type ASTNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { cprNumberWeight, cprNumbersInOperation } from '../cpr-searches.js';

/** GraphQL Armor's cost weights: a scalar 1, an object 2, each level below multiplied by 1.5. */
const scalarCost = 1;
const objectCost = 2;
const depthCostFactor = 1.5;

export interface WeightedCostInput {
  schema: GraphQLSchema;
  document: DocumentNode;
  /** The operation the request runs. */
  operation: OperationDefinitionNode;
  /** The request's own variables, so a `limit: $n` weighs what this request asks for. */
  variables?: Record<string, unknown> | null;
}

/**
 * What a collection without a limit (OS2mo's `limit: int = null`: every object) weighs: a page of v2's default
 * size. What it really reads is bounded when it runs, by the legacy-call budget.
 */
const unlimitedWeight = 100;
/** A link's objects without a limit (a unit's managers, a facet's classes): those of one object, not a listing. */
const unlimitedLinkWeight = 10;
/**
 * A link that follows UUIDs its object holds (OS2mo's `UuidsBound…Filter`: an IT user's engagements, a
 * manager's responsibilities) without a limit: the few its object names, not every record of an owner.
 */
const heldLinkWeight = 3;
/**
 * OS2mo's plain list links (`Facet.classes`, `Employee.addresses`, `Class.children`; every list link of v2,
 * which take no `limit`) without a limit weigh one object where they first appear on a path, as they did before
 * OS2mo's links took `limit`: the UI's search (a page of hits, each with its addresses and IT accounts) and its
 * tabs stay within the default limit. Below a list of the objects they give, each weighs what it can return,
 * capped at `repeatedListWeight`: a chain that comes back to the same list (a facet's classes, their facet's
 * classes, theirs; a unit's children's children) multiplies the answer at every turn while its data comes from
 * the same few cached reads. Weighing one object each, 30 aliases of such a chain passed as cheap and answered
 * 84 MB, 1.4 GB of the gateway's memory (issue 35). A `limit` given is weighed as given.
 */
const plainLinkWeight = 1;
/** What a plain list link weighs below a list of the same objects: a link's objects, as a page link without a limit. */
const repeatedListWeight = unlimitedLinkWeight;
/**
 * OS2mo's response wrappers (`ClassResponse`, `ClassResponsePaged`: v30's `*_response` links and root pages)
 * and the object type they wrap (`Class`). Their levels (`objects`, `current`, `validities`) hold the object
 * the link gives, so they add no level to the cost, and a paged `*_response` link without a limit weighs as its
 * deprecated plain twin (`classes_response` as `classes`): one spelling of a link costs what the other does, so
 * a client following v30's deprecation hints is not refused for it.
 */
const responseWrapper = /^(.+?)Response(Paged)?$/;
/** The object type a response wrapper wraps, and whether it is a page of them; undefined for any other type. */
function wrapperOf(type: GraphQLNamedType | undefined): { object: string; paged: boolean } | undefined {
  const match = type ? responseWrapper.exec(type.name) : null;
  return match ? { object: match[1]!, paged: match[2] !== undefined } : undefined;
}

/**
 * Lists whose objects are already weighed above them: a page's `objects` (the page field carries its limit)
 * and an object's `validities` (the registrations of the one object selected). They do not count as a list
 * a path has passed.
 */
const weighedAbove: ReadonlySet<string> = new Set(['objects', 'validities']);

/**
 * Fields that weigh as this many objects whatever they select: `Query.cpr_lookup` probes the CPR register
 * with a number, so one request may ask only a few (1,750 each: 11 within the default
 * `GRAPHQL_MAX_COST` of 20,000), never the hundreds aliases would otherwise allow.
 */
const fixedWeights: ReadonlyMap<string, number> = new Map([['Query.cpr_lookup', 500]]);

/**
 * Filter members that bind a listing to the records of the objects they name, as a link does: a unit's
 * addresses, a person's IT users, an engagement's IT users, a facet's classes, a unit's children.
 */
const ownerMembers = [
  'org_unit',
  'org_units',
  'employee',
  'employees',
  'engagement',
  'engagements',
  'facet',
  'facets',
  'parent',
  'parents',
];

/**
 * Owner members whose objects are themselves records of an owner: the IT users or addresses of a unit's
 * engagements are that unit's records too (OS2mo's UI lists them on the unit's page beside its own), so a
 * filter that finds the engagements by their owner weighs as that owner's records, not as ten per engagement.
 */
const recordOwnerMembers: ReadonlySet<string> = new Set(['engagement', 'engagements']);

/**
 * How many objects a filter can match at most, or infinity when it does not bound them: `uuids` and
 * `user_keys` name that many objects; an owner member (a UUID list or a filter that is itself bounded) names
 * that many owners, each weighing as a link's objects. The members are ANDed, so the tightest one counts.
 */
export function filterBound(filter: unknown): number {
  const { named, owned } = boundsOf(filter);
  return Math.min(named, owned);
}

/** `named`: how many objects its `uuids` or `user_keys` name; `owned`: how many records its owner members bound. */
function boundsOf(filter: unknown): { named: number; owned: number } {
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter))
    return { named: Infinity, owned: Infinity };
  const members = filter as Record<string, unknown>;
  let named = Infinity;
  for (const name of ['uuids', 'user_keys']) {
    const given = members[name];
    if (Array.isArray(given)) named = Math.min(named, given.length);
    // A list argument given one value by a variable (`uuids: $uuid`) is that one value: GraphQL's list input
    // coercion, which a variable's raw value has not been through yet.
    else if (typeof given === 'string') named = Math.min(named, 1);
  }
  let owned = Infinity;
  for (const name of ownerMembers) {
    const owner = members[name];
    if (Array.isArray(owner)) owned = Math.min(owned, owner.length * unlimitedLinkWeight);
    else if (typeof owner === 'string') owned = Math.min(owned, unlimitedLinkWeight);
    else {
      const inner = boundsOf(owner);
      const throughOwners = recordOwnerMembers.has(name) ? inner.owned : inner.owned * unlimitedLinkWeight;
      owned = Math.min(owned, inner.named * unlimitedLinkWeight, throughOwners);
    }
  }
  return { named, owned };
}

/** Whether a field can give more than one object: a list, or a page of them (OS2mo's links to one take `limit` too). */
function givesMany(field: GraphQLField<unknown, unknown>): boolean {
  if (isListType(getNullableType(field.type))) return true;
  const named = getNamedType(field.type);
  return isObjectType(named) && 'objects' in named.getFields();
}

/** How many objects a paged field can return: its `limit` (or the schema's default), or fewer its filter bounds. */
function pageSize(
  field: GraphQLField<unknown, unknown>,
  node: FieldNode,
  variables: Record<string, unknown> | null | undefined,
  isRoot: boolean,
  /** What a plain list link weighs here without a limit: one object, or more below a list of its objects. */
  plainList: number,
  /** A paged `*_response` link: without a limit it weighs as a plain list link (`plainList`). */
  pagedLink = false,
): number {
  if (!givesMany(field)) return 1;
  const definition = field.args.find((arg) => arg.name === 'limit');
  if (!definition) return weighedAbove.has(field.name) ? 1 : plainList;
  const argument = (name: string) => node.arguments?.find((arg) => arg.name.value === name);
  const limitNode = argument('limit');
  const given = limitNode
    ? valueFromAST(limitNode.value, definition.type, variables ?? undefined)
    : undefined;
  const unlimited = given === null || (given === undefined && definition.defaultValue == null);
  const filterDefinition = field.args.find((arg) => arg.name === 'filter');
  const followsHeld = getNamedType(filterDefinition?.type)?.name.startsWith('UuidsBound') ?? false;
  const limit = unlimited
    ? isRoot
      ? unlimitedWeight
      : isListType(getNullableType(field.type)) || pagedLink
        ? plainList
        : followsHeld
          ? heldLinkWeight
          : unlimitedLinkWeight
    : typeof given === 'number'
      ? given
      : Number(definition.defaultValue);
  const filterNode = argument('filter');
  const filter =
    filterDefinition && filterNode
      ? valueFromAST(filterNode.value, filterDefinition.type, variables ?? undefined)
      : undefined;
  return Math.max(1, Math.min(Number.isFinite(limit) && limit > 0 ? limit : 1, filterBound(filter)));
}

/**
 * GraphQL Armor's cost model, with one change: a list field multiplies the cost of its selection by the number
 * of objects it may return — `limit` as given (literally or by a variable), else the schema's default page size
 * or a link's cap, or what its filter bounds when that is fewer (see `filterBound`); a plain list link weighs
 * one object the first time a path passes a list of its objects and `repeatedListWeight` below it. Armor
 * itself only weighs `first`/`last` literals, so 30 aliases of `engagements(limit: 1000)` cost as much as 30 of
 * `limit: 1`. Fragments are weighed where they are spread, like Armor does.
 *
 * This function and `filterBound` are the model's interface (`useQueryLimits` and the comparison tools call
 * them); a field that weighs a fixed number of objects whatever it selects is a `fixedWeights` entry.
 *
 * The answer depends on the request's variables, so it is computed for each request (at execution), never
 * as a validation rule: Yoga caches validation per document, and a cheap request would let every later
 * request of the same document through whatever its variables (issue 20).
 */
export function weightedCost({ schema, document, operation, variables }: WeightedCostInput): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  // A fragment's cost depends on the lists its spread is below (`passed`): kept per fragment and those lists.
  const fragmentCosts = new Map<string, number>();
  const root = schema.getRootType(operation.operation) ?? undefined;

  /**
   * `passed`: the types of the plain list links the path has followed so far; `flat`: the selection is of a
   * link's response wrapper, whose levels are the object's own.
   */
  const selectionCost = (
    selectionSet: SelectionSetNode,
    parent: GraphQLNamedType | undefined,
    passed: ReadonlySet<string>,
    flat = false,
  ): number => {
    const factor = flat ? 1 : depthCostFactor;
    let total = 0;
    for (const selection of selectionSet.selections) total += factor * cost(selection, parent, passed, flat);
    return total;
  };

  const cost = (
    node: ASTNode,
    parent: GraphQLNamedType | undefined,
    passed: ReadonlySet<string>,
    flat = false,
  ): number => {
    if (node.kind === Kind.FIELD) {
      if (node.name.value === '__schema' || node.name.value === '__type') return 0;
      if (!node.selectionSet) return scalarCost;
      const field =
        parent && (isObjectType(parent) || isInterfaceType(parent))
          ? parent.getFields()[node.name.value]
          : undefined;
      const type = field ? getNamedType(field.type) : undefined;
      const plainList =
        field !== undefined && isListType(getNullableType(field.type)) && !weighedAbove.has(field.name);
      // A response wrapper below the root (a root page's levels are weighed as they always were). A paged
      // `*_response` link weighs as its plain twin and counts as passing its objects; the wrapper a link gives
      // is flat, and so is every wrapper inside it (`ClassResponsePaged.objects`, `ClassResponse.current`).
      const wrapper = parent !== root ? wrapperOf(type) : undefined;
      const pagedLink = wrapper?.paged === true;
      const listed = plainList ? type!.name : pagedLink ? wrapper.object : undefined;
      const below = listed !== undefined && !passed.has(listed) ? new Set([...passed, listed]) : passed;
      const flatInside = wrapper !== undefined && (flat || wrapperOf(parent) === undefined);
      const inner = objectCost + selectionCost(node.selectionSet, type, below, flatInside);
      if (!field) return inner;
      const fixed = fixedWeights.get(`${parent!.name}.${field.name}`);
      const plainWeight = listed !== undefined && passed.has(listed) ? repeatedListWeight : plainLinkWeight;
      return inner * (fixed ?? pageSize(field, node, variables, parent === root, plainWeight, pagedLink));
    }
    if (node.kind === Kind.INLINE_FRAGMENT) {
      const type = node.typeCondition ? schema.getType(node.typeCondition.name.value) : parent;
      return objectCost + selectionCost(node.selectionSet, type ?? undefined, passed);
    }
    if (node.kind === Kind.FRAGMENT_SPREAD) {
      const name = node.name.value;
      const key = [name, ...[...passed].sort()].join('\n');
      const known = fragmentCosts.get(key);
      if (known !== undefined) return scalarCost + depthCostFactor * known;
      // A fragment that spreads itself is invalid anyway; weigh it once.
      fragmentCosts.set(key, 0);
      const fragment = fragments.get(name);
      if (!fragment) return scalarCost;
      const type = schema.getType(fragment.typeCondition.name.value) ?? undefined;
      const fragmentCost = objectCost + selectionCost(fragment.selectionSet, type, passed);
      fragmentCosts.set(key, fragmentCost);
      return scalarCost + depthCostFactor * fragmentCost;
    }
    return 0;
  };

  let total = 0;
  for (const selection of operation.selectionSet.selections) total += cost(selection, root, new Set());
  // Each CPR number searched by weighs as a register lookup does, wherever in a filter it sits.
  return total + cprNumberWeight * cprNumbersInOperation(document, operation, variables);
}
