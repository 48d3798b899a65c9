import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import type { IResolvers } from '@graphql-tools/utils';
import type { GraphQLContext } from '../../context.js';
import type { Logger } from '../../../observability/logger.js';
import { eventOwner } from '../../../events/event-owner.js';
import {
  EventRejected,
  type EventStore,
  type Listener,
  type ListenerFilter,
  type Namespace,
  type Page,
  type PendingEvent,
} from '../../../events/event-store.js';

/** The role that reads every client's pending events, as OS2mo's `read_event_all` (`full_event_resolver`). */
const readAllEvents = 'read_event_all';

/** The event store of the request, or the error that says why there is none. */
export function eventStoreOf(context: GraphQLContext): EventStore {
  const store = context.events?.store;
  if (store === undefined) {
    throw new GraphQLError(
      "OS2mo's event system needs the gateway's database, and this gateway has none: set DATABASE_URL.",
      { extensions: { code: 'DATABASE_NOT_CONFIGURED' } },
    );
  }
  return store;
}

/**
 * A store call: a client's refusal as its GraphQL error, the database failing as an outage whose cause is
 * logged, never shown (a GraphQLError carrying it would be masked whole).
 */
export async function eventCall<T>(work: () => Promise<T>, log?: Logger): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof EventRejected) {
      throw new GraphQLError(error.message, { extensions: { code: error.code } });
    }
    if (error instanceof GraphQLError) throw error;
    log?.warn({ err: error }, "events: the gateway's database failed");
    throw new GraphQLError("The gateway's database cannot be reached; try again shortly.", {
      extensions: { code: 'DATABASE_UNAVAILABLE' },
    });
  }
}

interface PageArgs<F> {
  filter?: F | null;
  limit?: number | null;
  cursor?: string | null;
}

const paged = <T>(page: Page<T>) => ({ objects: page.objects, page_info: { next_cursor: page.nextCursor } });

const owner = (context: GraphQLContext) => eventOwner(context.principal);

/** A resolver on the store, with the caller's owner UUID. */
function withStore<Args, Result>(
  resolve: (store: EventStore, args: Args, context: GraphQLContext, root: never) => Promise<Result>,
) {
  return (root: never, args: Args, context: GraphQLContext) =>
    eventCall(() => resolve(eventStoreOf(context), args, context, root), context.log);
}

/** What OS2mo's `me` answers for a caller it holds no record of (`actor_uuid_to_actor`, `mora/graphapi/actor.py`). */
const unknownActor =
  'The gateway keeps no register of users and integrations: the actor is known only by the UUID its token gives.';

const notAToken = 'An EventToken is the string event_fetch gave, passed back as given.';

/** A string either way; decoding it (and refusing what no fetch gave) is the store's. */
const eventTokenScalar = new GraphQLScalarType({
  name: 'EventToken',
  serialize: (value) => value,
  parseValue: (value) => {
    if (typeof value !== 'string') throw new GraphQLError(notAToken);
    return value;
  },
  parseLiteral: (node) => {
    if (node.kind !== Kind.STRING) throw new GraphQLError(notAToken);
    return node.value;
  },
});

export const eventResolvers: IResolvers = {
  EventToken: eventTokenScalar,
  Actor: { __resolveType: () => 'UnknownActor' },
  Query: {
    event_fetch: withStore((store, args: { filter: { listener: string } }, context) =>
      store.fetch(owner(context), args.filter.listener),
    ),
    events: withStore(async (store, args: PageArgs<Parameters<EventStore['events']>[1]>, context) =>
      paged(
        await store.events(
          context.principal.roles.includes(readAllEvents) ? undefined : owner(context),
          args.filter ?? {},
          args,
        ),
      ),
    ),
    event_listeners: withStore(async (store, args: PageArgs<ListenerFilter>) =>
      paged(await store.listeners(args.filter ?? {}, args)),
    ),
    event_namespaces: withStore(async (store, args: PageArgs<Parameters<EventStore['namespaces']>[0]>) =>
      paged(await store.namespaces(args.filter ?? {}, args)),
    ),
    me: (_root: unknown, _args: unknown, context: GraphQLContext) => ({
      actor: { uuid: owner(context), error: unknownActor },
      email: context.principal.email ?? null,
      username: context.principal.username ?? null,
      roles: [...context.principal.roles].sort(),
    }),
  },
  Mutation: {
    event_acknowledge: withStore((store, args: { input: { token: string } }, context) =>
      store.acknowledge(owner(context), args.input.token),
    ),
    event_listener_declare: withStore(
      (store, args: { input: Parameters<EventStore['declareListener']>[1] }, context) =>
        store.declareListener(owner(context), args.input),
    ),
    event_listener_delete: withStore(
      (store, args: { input: Parameters<EventStore['deleteListener']>[1] }, context) =>
        store.deleteListener(owner(context), args.input),
    ),
    event_namespace_declare: withStore(
      (store, args: { input: Parameters<EventStore['declareNamespace']>[1] }, context) =>
        store.declareNamespace(owner(context), args.input),
    ),
    event_namespace_delete: withStore((store, args: { input: { name: string } }, context) =>
      store.deleteNamespace(owner(context), args.input.name),
    ),
    event_send: withStore((store, args: { input: Parameters<EventStore['send']>[1] }, context) =>
      store.send(owner(context), args.input),
    ),
    event_silence: withStore(
      (store, args: { input: { listeners: ListenerFilter; subjects: string[] } }, context) =>
        store.silence(owner(context), args.input, true),
    ),
    event_unsilence: withStore(
      (
        store,
        args: {
          input: { listeners: ListenerFilter | null; subjects: string[] | null; priorities: number[] | null };
        },
        context,
      ) => store.silence(owner(context), args.input, false),
    ),
  },
  FullEvent: {
    listener: withStore(async (store, _args: unknown, _context, root: PendingEvent) => {
      const [listener] = (await store.listeners({ uuids: [root.listener] }, {})).objects;
      return listener;
    }),
  },
  Listener: {
    namespace: withStore(async (store, _args: unknown, _context, root: Listener) => {
      const [namespace] = (await store.namespaces({ names: [root.namespace] }, {})).objects;
      return namespace;
    }),
    events: withStore(
      async (
        store,
        args: PageArgs<Omit<Parameters<EventStore['events']>[1], 'listeners'>>,
        context,
        root: Listener,
      ) =>
        (
          await store.events(
            context.principal.roles.includes(readAllEvents) ? undefined : owner(context),
            { ...args.filter, listeners: { uuids: [root.uuid] } },
            args,
          )
        ).objects,
    ),
  },
  Namespace: {
    listeners: withStore(
      async (store, args: PageArgs<Omit<ListenerFilter, 'namespaces'>>, _context, root: Namespace) =>
        (await store.listeners({ ...args.filter, namespaces: { names: [root.name] } }, args)).objects,
    ),
  },
  UnknownActor: {
    display_name: () => null,
    event_namespaces: withStore(
      async (
        store,
        args: PageArgs<{ names?: string[] | null; public?: boolean | null }>,
        _context,
        root: { uuid: string },
      ) => (await store.namespaces({ ...args.filter, owners: [root.uuid] }, args)).objects,
    ),
    event_listeners: withStore(
      async (store, args: PageArgs<Omit<ListenerFilter, 'owners'>>, _context, root: { uuid: string }) =>
        (await store.listeners({ ...args.filter, owners: [root.uuid] }, args)).objects,
    ),
  },
};
