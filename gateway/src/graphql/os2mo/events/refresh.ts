import { GraphQLError, type GraphQLResolveInfo } from 'graphql';
import type { IResolvers } from '@graphql-tools/utils';
import type { GraphQLContext } from '../../context.js';
import { defaultPriority, moNamespace } from '../../../events/event-store.js';
import { eventCall, eventStoreOf } from './event-resolvers.js';

/**
 * OS2mo's `*_refresh` mutations (`mora/graphapi/mutators.py`, HEAD: `address_refresh` … and `refresh`): each
 * selects objects with its collection's own filter, limit and cursor, and sends an event in the "mo" namespace
 * for each, with the object's routing key; the answer is the page of UUIDs.
 */
interface Refresh {
  /** The mutation's prefix and the routing key of its events. */
  name: string;
  routingKey: string;
  /** The collection whose filter it takes and whose root selects the objects. */
  root: string;
  filter: string;
  /** The first OS2mo version whose printout has it. */
  since: number;
}

const refreshes: readonly Refresh[] = [
  { name: 'address', routingKey: 'address', root: 'addresses', filter: 'AddressFilter', since: 21 },
  {
    name: 'association',
    routingKey: 'association',
    root: 'associations',
    filter: 'AssociationFilter',
    since: 21,
  },
  { name: 'class', routingKey: 'class', root: 'classes', filter: 'ClassFilter', since: 21 },
  // OS2mo sends a person's events with the routing key "person" (its `employee_refresh`).
  { name: 'employee', routingKey: 'person', root: 'employees', filter: 'EmployeeFilter', since: 21 },
  {
    name: 'engagement',
    routingKey: 'engagement',
    root: 'engagements',
    filter: 'EngagementFilter',
    since: 21,
  },
  { name: 'facet', routingKey: 'facet', root: 'facets', filter: 'FacetFilter', since: 21 },
  { name: 'itsystem', routingKey: 'itsystem', root: 'itsystems', filter: 'ITSystemFilter', since: 21 },
  { name: 'ituser', routingKey: 'ituser', root: 'itusers', filter: 'ITUserFilter', since: 21 },
  { name: 'kle', routingKey: 'kle', root: 'kles', filter: 'KLEFilter', since: 21 },
  { name: 'leave', routingKey: 'leave', root: 'leaves', filter: 'LeaveFilter', since: 21 },
  { name: 'manager', routingKey: 'manager', root: 'managers', filter: 'ManagerFilter', since: 21 },
  {
    name: 'org_unit',
    routingKey: 'org_unit',
    root: 'org_units',
    filter: 'OrganisationUnitFilter',
    since: 21,
  },
  { name: 'owner', routingKey: 'owner', root: 'owners', filter: 'OwnerFilter', since: 21 },
  {
    name: 'related_unit',
    routingKey: 'related_unit',
    root: 'related_units',
    filter: 'RelatedUnitFilter',
    since: 21,
  },
  // v21's `role_refresh` is of roles, which OS2mo's versions here do not serve (the ledger: `ledger/mutations.ts`).
  {
    name: 'rolebinding',
    routingKey: 'rolebinding',
    root: 'rolebindings',
    filter: 'RoleBindingFilter',
    since: 22,
  },
];

/**
 * The arguments of a refresh in one version, as that version's printout has them: v21 takes an AMQP queue;
 * v22 deprecates it and adds the exchange; v29 adds the GraphQL event system's `listener`, `owner` and
 * `priority`. v26-v28 have no printout here and keep v25's shape.
 */
function refreshArguments(version: number): string {
  const queue =
    version >= 22
      ? 'queue: String = null @deprecated(reason: "OS2mo\'s AMQP queue; this gateway has no AMQP.")'
      : 'queue: String = null';
  const exchange = version >= 22 ? '\n  exchange: String = null' : '';
  const events =
    version >= 29
      ? `
  listener: UUID = null @deprecated(reason: "Send to one listener; prefer owner.")
  owner: UUID = null
  priority: Int! = ${defaultPriority}`
      : '';
  return `filter: X = null, limit: int = null, cursor: Cursor = null, ${queue}${exchange}${events}`;
}

const servedIn = (version: number) => refreshes.filter((refresh) => version >= refresh.since);

/** The refresh mutations one version serves. */
export const refreshMutationFields = (version: number): string[] =>
  servedIn(version).map((refresh) => `${refresh.name}_refresh`);

/** The refresh mutations of one version, and `UUIDPaged`, the page of UUIDs they answer. */
export function refreshTypeDefs(version: number): string {
  const fields = servedIn(version).map(
    (refresh) =>
      `  """Sends a "${refresh.routingKey}" event for each object the filter selects; answers their UUIDs."""
  ${refresh.name}_refresh(${refreshArguments(version).replace('X', refresh.filter)}): UUIDPaged!`,
  );
  return `
"""A page of UUIDs."""
type UUIDPaged {
  objects: [UUID!]!
  page_info: PageInfo!
}

extend type Mutation {
${fields.join('\n')}
}
`;
}

interface RefreshArgs {
  filter?: unknown;
  limit?: number | null;
  cursor?: string | null;
  queue?: string | null;
  exchange?: string | null;
  listener?: string | null;
  owner?: string | null;
  priority?: number;
}

interface CollectionPage {
  objects: { uuid: string }[];
  page_info: { next_cursor: string | null };
}

/**
 * With RBAC on, a refresh needs the role `admin`, as OS2mo's `refresh_*` permissions (`mora/graphapi/rbac_map.py`)
 * are its admin's: a refresh sends to every listener of the routing key, not only the caller's.
 */
function assertMayRefresh(context: GraphQLContext): void {
  if (context.events?.rbacEnabled && !context.principal.roles.includes('admin')) {
    throw new GraphQLError('Sending refresh events needs the role admin.', {
      extensions: { code: 'FORBIDDEN' },
    });
  }
}

function refreshResolver(refresh: Refresh) {
  return async (root: unknown, args: RefreshArgs, context: GraphQLContext, info: GraphQLResolveInfo) => {
    if (args.exchange && (args.listener || args.owner)) {
      throw new GraphQLError(
        'exchange is the AMQP event system, listener and owner the GraphQL one: give one or the other.',
        { extensions: { code: 'BAD_USER_INPUT' } },
      );
    }
    assertMayRefresh(context);
    // An exchange (AMQP only, which this gateway does not have) sends nothing, as OS2mo without AMQP.
    const store = args.exchange ? undefined : eventStoreOf(context);
    const collection = info.schema.getQueryType()!.getFields()[refresh.root]!;
    const page = (await collection.resolve!(
      root,
      { filter: args.filter ?? null, limit: args.limit ?? null, cursor: args.cursor ?? null },
      context,
      info,
    )) as CollectionPage;
    const uuids = page.objects.map((object) => object.uuid);
    if (store) {
      await eventCall(
        () =>
          store.add(moNamespace, refresh.routingKey, uuids, args.priority ?? defaultPriority, {
            listener: args.listener,
            owner: args.owner,
          }),
        context.log,
      );
    }
    return { objects: uuids, page_info: page.page_info };
  };
}

export function refreshResolvers(version: number): IResolvers {
  return {
    Mutation: Object.fromEntries(
      servedIn(version).map((refresh) => [`${refresh.name}_refresh`, refreshResolver(refresh)]),
    ),
  } as IResolvers;
}
