/**
 * OS2mo's event API in its v29/v30 shape (`mora/graphapi/events.py`, `mora/graphapi/actor.py`,
 * `mora/graphapi/mutators.py`, HEAD), in this gateway's words: the types, arguments and defaults are OS2mo's
 * (held to its printout by `test/os2mo-conformance.test.ts`), the descriptions ours.
 */
const boundListenerFilter = (name: string, without: string) =>
  `"""Listeners of ${without === 'owners' ? 'this actor' : 'this namespace'}, narrowed further."""
input ${name} {
  uuids: [UUID!] = null
  user_keys: [String!] = null
  ${without === 'owners' ? '' : 'owners: [UUID!] = null\n  '}routing_keys: [String!] = null
  ${without === 'namespaces' ? '' : 'namespaces: NamespaceFilter = null'}
}
`;

export const eventTypeDefs = `
"""Opaque: acknowledges the event \`event_fetch\` handed out. Pass it back as given; never store or build one."""
scalar EventToken

"""One event for a listener: something about \`subject\` may have changed. Acknowledge it once handled."""
type Event {
  """What the event is about; in the "mo" namespace, the UUID of the object."""
  subject: String!
  """Lower is sooner; 1 is the highest."""
  priority: Int!
  """Acknowledges this delivery with \`event_acknowledge\`."""
  token: EventToken!
}

"""A pending event, as maintenance sees it (without a token)."""
type FullEvent {
  subject: String!
  priority: Int!
  """Silenced events are still delivered; silencing only quiets alerts."""
  silenced: Boolean!
  """The listener that receives it."""
  listener: Listener!
}

type FullEventPaged {
  objects: [FullEvent!]!
  page_info: PageInfo!
}

"""Which listener to fetch the next event of."""
input EventFilter {
  """A listener of the caller's."""
  listener: UUID!
}

"""Pending events: the caller's own (all clients' with the role read_event_all)."""
input FullEventFilter {
  listeners: ListenerFilter = null
  subjects: [String!] = null
  priorities: [Int!] = null
  silenced: Boolean = null
}

"""A listener's pending events, narrowed further."""
input ListenersBoundFullEventFilter {
  subjects: [String!] = null
  priorities: [Int!] = null
  silenced: Boolean = null
}

input EventAcknowledgeInput {
  """The token \`event_fetch\` gave with the event."""
  token: EventToken!
}

input EventSendInput {
  """A namespace the caller owns."""
  namespace: String!
  routing_key: String!
  """An identifier (at most 220 characters), not data."""
  subject: String!
  """1 is the highest."""
  priority: Int! = 10000
}

input EventSilenceInput {
  """Which of the caller's listeners."""
  listeners: ListenerFilter!
  subjects: [String!]!
}

input EventUnsilenceInput {
  listeners: ListenerFilter = null
  subjects: [String!] = null
  priorities: [Int!] = null
}

"""A subscription of one client to one routing key in one namespace."""
type Listener {
  uuid: UUID!
  """The client that declared it; only it fetches its events."""
  owner: UUID!
  """The client's own name for it, unique per namespace and client."""
  user_key: String!
  routing_key: String!
  """Its pending events; consume them with \`event_fetch\`."""
  events(filter: ListenersBoundFullEventFilter, limit: int = null, cursor: Cursor = null): [FullEvent!]!
  namespace: Namespace!
}

type ListenerPaged {
  objects: [Listener!]!
  page_info: PageInfo!
}

input ListenerCreateInput {
  namespace: String! = "mo"
  user_key: String!
  routing_key: String!
}

input ListenerDeleteInput {
  uuid: UUID!
  """Delete its pending events too; without, a listener with pending events is kept."""
  delete_pending_events: Boolean! = false
}

input ListenerFilter {
  uuids: [UUID!] = null
  user_keys: [String!] = null
  owners: [UUID!] = null
  routing_keys: [String!] = null
  namespaces: NamespaceFilter = null
}

${boundListenerFilter('NamespacesBoundListenerFilter', 'namespaces')}
${boundListenerFilter('OwnersBoundListenerFilter', 'owners')}

"""A group of listeners; "mo" is the gateway's own, for changes of organisation objects."""
type Namespace {
  name: String!
  """The client that may send in it."""
  owner: UUID!
  """Whether other clients may listen in it."""
  public: Boolean!
  listeners(filter: NamespacesBoundListenerFilter, limit: int = null, cursor: Cursor = null): [Listener!]!
}

type NamespacePaged {
  objects: [Namespace!]!
  page_info: PageInfo!
}

input NamespaceCreateInput {
  name: String!
  public: Boolean! = false
}

input NamespaceDeleteInput {
  name: String!
}

input NamespaceFilter {
  names: [String!] = null
  owners: [UUID!] = null
  public: Boolean = null
}

"""Namespaces of this actor, narrowed further."""
input OwnersBoundNamespaceFilter {
  names: [String!] = null
  public: Boolean = null
}

"""Who made a call: a user or a client."""
interface Actor {
  uuid: UUID!
  event_namespaces(filter: OwnersBoundNamespaceFilter, limit: int = null, cursor: Cursor = null): [Namespace!]!
  event_listeners(filter: OwnersBoundListenerFilter, limit: int = null, cursor: Cursor = null): [Listener!]!
  display_name: String
}

"""An actor the gateway holds no record of (it keeps no register of users and clients)."""
type UnknownActor implements Actor {
  uuid: UUID!
  event_namespaces(filter: OwnersBoundNamespaceFilter, limit: int = null, cursor: Cursor = null): [Namespace!]!
  event_listeners(filter: OwnersBoundListenerFilter, limit: int = null, cursor: Cursor = null): [Listener!]!
  display_name: String
  """Why the actor is unknown."""
  error: String!
}

"""The caller, as its access token says."""
type Myself {
  actor: Actor!
  email: String
  username: String
  """The realm roles of the token."""
  roles: [String!]!
}

extend type Query {
  """The caller's listener's next due event, or null; handed to one consumer at a time."""
  event_fetch(filter: EventFilter!): Event
  events(filter: FullEventFilter = null, limit: int = null, cursor: Cursor = null): FullEventPaged!
  event_listeners(filter: ListenerFilter = null, limit: int = null, cursor: Cursor = null): ListenerPaged!
  event_namespaces(filter: NamespaceFilter = null, limit: int = null, cursor: Cursor = null): NamespacePaged!
  """The caller, from its access token."""
  me: Myself!
}

extend type Mutation {
  """Removes a handled event (of this delivery); always true."""
  event_acknowledge(input: EventAcknowledgeInput!): Boolean!
  """Declares a listener of the caller's; idempotent, so call it at every start."""
  event_listener_declare(input: ListenerCreateInput!): Listener!
  event_listener_delete(input: ListenerDeleteInput!): Boolean!
  """Declares a namespace of the caller's to send events in; idempotent."""
  event_namespace_declare(input: NamespaceCreateInput!): Namespace!
  event_namespace_delete(input: NamespaceDeleteInput!): Boolean!
  """Sends an event in a namespace the caller owns."""
  event_send(input: EventSendInput!): Boolean!
  event_silence(input: EventSilenceInput!): Boolean!
  """Unsilences the caller's matching events, and makes them due at once."""
  event_unsilence(input: EventUnsilenceInput!): Boolean!
}
`;
