/**
 * OS2mo's coordinates whose value the backend provably never holds: OS2mo 2.x, whose Service API the
 * gateway fronts, had no such attribute, so every record it wrote lacks it. OS2mo itself answers these for
 * 2.x-written data with null, an empty list or an empty page, and so does the gateway: the truthful answer
 * for this backend. Each entry gives OS2mo's type (with the arguments served) and the reason a reader can
 * check against the contract (`openapi/legacy-service.yaml`).
 */
export interface HeldNone {
  /** `Type.field` of OS2mo's schema. */
  coordinate: string;
  /** OS2mo's type of the field; nullable, a list, or a `*ResponsePaged!`, which decides the answer. */
  type: string;
  /** OS2mo's arguments that the gateway accepts, as SDL (all of them change nothing here). */
  args?: string;
  /** Our own one-line reason for a field OS2mo marks deprecated. */
  deprecated?: string;
  /** Why the backend never holds a value: what the 2.x record lacks. */
  reason: string;
}

const page = 'limit: int = null, cursor: Cursor = null';
/** The arguments of a link to the objects its object names by UUID (OS2mo's `UuidsBound…Filter`). */
const uuidsBound = (type: string) => `filter: UuidsBound${type}Filter, ${page}`;

const itUserNoEngagement =
  "a 2.x IT account (`ItUser` in the contract) names its IT system, person and unit, never an engagement: OS2mo's engagement scoping came later";
const itUserNoPrimary =
  'a 2.x IT account has no primary class: OS2mo gave IT accounts a primary type after 2.x';
const noItUserAddress =
  'a 2.x address (`Address` in the contract) names its person, unit or engagement, never an IT account';
const associationNoItFields =
  "a 2.x association (`Association` in the contract) has no trade union, job function or IT account: those belong to OS2mo's later IT associations and union data";

const classNoItSystem =
  'a 2.x class (`Class`, `ClassWithFacet`, `ClassWrite` in the contract) names no IT system';
const facetNoParent = 'a 2.x facet (`Facet` in the contract) has no parent facet';
const facetNoChildren = 'a 2.x facet (`Facet` in the contract) has no parent facet, so none has children';
const engagementNoLeave =
  "a 2.x engagement (`Engagement` in the contract) names no leave (a leave names its engagement), and OS2mo's own engagement read fills no `leave_uuid` (`mora/handler/impl/engagement.py`@HEAD)";
const noRoleBindings =
  "the contract has no role binding (OS2mo's access rules on IT accounts came after 2.x, which never had them)";

/** Every coordinate the gateway answers with OS2mo's empty answer, because 2.x never held a value for it. */
export const backendHoldsNone: readonly HeldNone[] = [
  { coordinate: 'ITUser.external_id', type: 'String', reason: 'a 2.x IT account has no external id' },
  {
    coordinate: 'ITUser.engagement_uuid',
    type: 'UUID',
    deprecated: 'Use `engagements_responses`.',
    reason: itUserNoEngagement,
  },
  {
    coordinate: 'ITUser.engagement_uuids',
    type: '[UUID!]!',
    deprecated: 'Use `engagements_responses`.',
    reason: itUserNoEngagement,
  },
  {
    coordinate: 'ITUser.engagement_response',
    type: 'EngagementResponse',
    reason: itUserNoEngagement,
  },
  {
    coordinate: 'ITUser.engagements_responses',
    type: 'EngagementResponsePaged!',
    args: `filter: UuidsBoundEngagementFilter, ${page}`,
    reason: itUserNoEngagement,
  },
  { coordinate: 'ITUser.primary_response', type: 'ClassResponse', reason: itUserNoPrimary },
  {
    coordinate: 'ITUser.primary',
    args: `filter: UuidsBoundClassFilter, ${page}`,
    type: 'Class',
    deprecated: 'Use `primary_response`.',
    reason: itUserNoPrimary,
  },
  {
    coordinate: 'ITUser.binding_type',
    type: 'String',
    reason: 'a 2.x IT account has no binding type: OS2mo added it with its IT-account engagements',
  },
  {
    coordinate: 'ITUser.engagement',
    args: `filter: UuidsBoundEngagementFilter, ${page}`,
    type: '[Engagement!]',
    deprecated: 'Use `engagements_responses`.',
    reason: itUserNoEngagement,
  },
  {
    coordinate: 'ITUser.engagements',
    args: `filter: UuidsBoundEngagementFilter, ${page}`,
    type: '[EngagementResponse!]!',
    deprecated: 'Use `engagements_responses`.',
    reason: itUserNoEngagement,
  },
  {
    coordinate: 'Engagement.itusers',
    args: `filter: EngagementBoundITUserFilter, ${page}`,
    type: '[ITUserResponse!]!',
    deprecated: 'Use `itusers_response`.',
    reason: itUserNoEngagement,
  },
  {
    coordinate: 'ITUser.primary_uuid',
    type: 'UUID',
    deprecated: 'Use `primary_response { uuid }`.',
    reason: itUserNoPrimary,
  },
  {
    coordinate: 'ITUser.addresses_response',
    type: 'AddressResponsePaged!',
    args: `filter: ItuserBoundAddressFilter, ${page}`,
    reason: noItUserAddress,
  },
  { coordinate: 'Address.ituser_response', type: 'ITUserResponse', reason: noItUserAddress },
  {
    coordinate: 'Address.ituser',
    args: `filter: UuidsBoundITUserFilter, ${page}`,
    type: '[ITUser!]!',
    deprecated: 'Use `ituser_response`.',
    reason: noItUserAddress,
  },
  {
    coordinate: 'ITUser.addresses',
    args: `filter: ItuserBoundAddressFilter, ${page}`,
    type: '[Address!]!',
    deprecated: 'Use `addresses_response`.',
    reason: noItUserAddress,
  },
  {
    coordinate: 'Address.ituser_uuid',
    type: 'UUID',
    deprecated: 'Use `ituser_response { uuid }`.',
    reason: noItUserAddress,
  },
  { coordinate: 'Association.trade_union_response', type: 'ClassResponse', reason: associationNoItFields },
  {
    coordinate: 'Association.trade_union',
    args: `filter: UuidsBoundClassFilter, ${page}`,
    type: 'Class',
    deprecated: 'Use `trade_union_response`.',
    reason: associationNoItFields,
  },
  {
    coordinate: 'Association.job_function',
    args: `filter: UuidsBoundClassFilter, ${page}`,
    type: 'Class',
    deprecated: 'Use `job_function_response`.',
    reason: associationNoItFields,
  },
  {
    coordinate: 'Association.it_user',
    args: `filter: UuidsBoundITUserFilter, ${page}`,
    type: '[ITUser!]!',
    deprecated: 'Use `it_user_response`.',
    reason: associationNoItFields,
  },
  {
    coordinate: 'Association.trade_union_uuid',
    type: 'UUID',
    deprecated: 'Use `trade_union_response { uuid }`.',
    reason: associationNoItFields,
  },
  { coordinate: 'Association.job_function_response', type: 'ClassResponse', reason: associationNoItFields },
  {
    coordinate: 'Association.job_function_uuid',
    type: 'UUID',
    deprecated: 'Use `job_function_response { uuid }`.',
    reason: associationNoItFields,
  },
  { coordinate: 'Association.it_user_response', type: 'ITUserResponse', reason: associationNoItFields },
  {
    coordinate: 'Association.it_user_uuid',
    type: 'UUID',
    deprecated: 'Use `it_user_response { uuid }`.',
    reason: associationNoItFields,
  },
  {
    coordinate: 'Manager.engagement_response',
    type: 'EngagementResponse',
    reason: 'a 2.x manager position (`Manager` in the contract) names no engagement',
  },
  {
    coordinate: 'Engagement.itusers_response',
    type: 'ITUserResponsePaged!',
    args: `filter: EngagementBoundITUserFilter, ${page}`,
    reason: itUserNoEngagement,
  },
  { coordinate: 'Class.it_system_response', type: 'ITSystemResponse', reason: classNoItSystem },
  {
    coordinate: 'Class.it_system',
    type: 'ITSystem',
    args: uuidsBound('ITSystem'),
    deprecated: 'Use `it_system_response`.',
    reason: classNoItSystem,
  },
  {
    coordinate: 'Class.it_system_uuid',
    type: 'UUID',
    deprecated: 'Use `it_system_response { uuid }`.',
    reason: classNoItSystem,
  },
  { coordinate: 'Facet.parent_response', type: 'FacetResponse', reason: facetNoParent },
  {
    coordinate: 'Facet.parent',
    type: 'Facet',
    args: uuidsBound('Facet'),
    deprecated: 'Use `parent_response`.',
    reason: facetNoParent,
  },
  {
    coordinate: 'Facet.parent_uuid',
    type: 'UUID',
    deprecated: 'Use `parent_response { uuid }`.',
    reason: facetNoParent,
  },
  {
    coordinate: 'Facet.children_response',
    type: 'FacetResponsePaged!',
    args: `filter: ParentBoundFacetFilter, ${page}`,
    reason: facetNoChildren,
  },
  {
    coordinate: 'Facet.children',
    type: '[Facet!]!',
    args: `filter: ParentBoundFacetFilter, ${page}`,
    deprecated: 'Use `children_response`.',
    reason: facetNoChildren,
  },
  { coordinate: 'Engagement.leave_response', type: 'LeaveResponse', reason: engagementNoLeave },
  {
    coordinate: 'Engagement.leave',
    args: `filter: UuidsBoundLeaveFilter, ${page}`,
    type: 'Leave',
    deprecated: 'Use `leave_response`.',
    reason: engagementNoLeave,
  },
  {
    coordinate: 'Engagement.leave_uuid',
    type: 'UUID',
    deprecated: 'Use `leave { uuid }`.',
    reason: engagementNoLeave,
  },
  {
    coordinate: 'ITUser.rolebindings',
    args: `filter: ItuserBoundRoleBindingFilter, ${page}`,
    type: '[RoleBinding!]!',
    deprecated: 'Use `rolebindings_response`.',
    reason: noRoleBindings,
  },
  {
    coordinate: 'ITUser.rolebindings_response',
    type: 'RoleBindingResponsePaged!',
    args: `filter: ItuserBoundRoleBindingFilter, ${page}`,
    reason: noRoleBindings,
  },
  {
    coordinate: 'ITSystem.roles',
    type: '[ClassResponse!]!',
    args: `filter: ItSystemboundclassfilter, ${page}`,
    deprecated: 'Use `roles_response`.',
    reason: "a 2.x IT system (`ItSystem` in the contract) has no roles: OS2mo's IT roles came later",
  },
  {
    coordinate: 'ITSystem.roles_response',
    type: 'ClassResponsePaged!',
    args: `filter: ItSystemboundclassfilter, ${page}`,
    reason: "a 2.x IT system (`ItSystem` in the contract) has no roles: OS2mo's IT roles came later",
  },
];

/**
 * OS2mo's entity types of which the backend holds no object at all, each with the reason and its SDL (the
 * collection over it is in `collections-view.ts`, answered empty). No object exists, so no field of
 * these types is ever resolved; they are served so that a query naming them validates, as against OS2mo.
 */
export const heldNoneTypes: readonly { type: string; reason: string; typeDefs: string }[] = [
  {
    type: 'RoleBinding',
    reason: noRoleBindings,
    typeDefs: `
"""A role an IT account gives in a unit (OS2mo's access rules); the Service API has none."""
type RoleBinding {
  uuid: UUID!
  user_key: String!
  validity: Validity!
  role_response: ClassResponse!
  ituser_response: ITUserResponse!
  org_unit_response: OrganisationUnitResponse
  role(${uuidsBound('Class')}): [Class!]! @deprecated(reason: "Use \`role_response\`.")
  ituser(${uuidsBound('ITUser')}): [ITUser!]! @deprecated(reason: "Use \`ituser_response\`.")
  org_unit(${uuidsBound('OrganisationUnit')}): [OrganisationUnit!]! @deprecated(reason: "Use \`org_unit_response\`.")
}
`,
  },
];

/** The answer OS2mo gives for a field with no value, by its type: an empty page, an empty list or null. */
export function emptyAnswer(type: string): unknown {
  if (/ResponsePaged!?$/.test(type)) return { objects: [], page_info: { next_cursor: null } };
  if (type.startsWith('[')) return [];
  if (type.endsWith('!')) throw new Error(`A field of type ${type} cannot be answered with nothing.`);
  return null;
}

/** The entries of one OS2mo type, by field name. */
export function heldNoneOf(typeName: string): HeldNone[] {
  return backendHoldsNone.filter((entry) => entry.coordinate.startsWith(`${typeName}.`));
}
