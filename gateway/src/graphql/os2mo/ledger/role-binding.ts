import { at, uuidsBoundArgs, type TypeLedger } from './entry.js';
import { noRoleBindings, roleBindingWrites } from './facts.js';

/**
 * OS2mo's role bindings, of which the backend holds none at all: served so that a query naming them
 * validates, as against OS2mo, and answered empty (the collection is in `collections-view.ts`).
 */
export const roleBinding: TypeLedger = {
  type: 'RoleBinding',
  contract: [],
  fields: {},
  more: {
    ...at(
      noRoleBindings,
      [
        'RoleBinding',
        'RoleBindingFilter',
        'RoleBindingResponse',
        'RoleBindingResponsePaged',
        'Query.rolebindings',
      ],
      { since: 22 },
    ),
    ...at(
      noRoleBindings,
      ['RoleBinding.ituser_response', 'RoleBinding.org_unit_response', 'RoleBinding.role_response'],
      { since: 26 },
    ),
    // The filter member of the same fact: with no role binding at all, a role binding filter's `role` keeps
    // none whatever it is given, as every role binding filter does; OS2mo asks for the binding's role class
    // whenever it is not null (`mora/graphapi/resolvers.py`@66.1.2:3369-3387; its default is null,
    // `mora/graphapi/filters.py`@66.1.2:983-984). OS2mo added it in v26, an IT account's bound filter too.
    ...at(noRoleBindings, ['RoleBindingFilter.role', 'ItuserBoundRoleBindingFilter.role'], { since: 26 }),
    ...at(roleBindingWrites, [
      'RoleBindingCreateInput',
      'RoleBindingTerminateInput',
      'RoleBindingUpdateInput',
      'Mutation.rolebinding_create',
      'Mutation.rolebinding_delete',
      'Mutation.rolebinding_terminate',
      'Mutation.rolebinding_update',
      'Mutation.rolebindings_create',
    ]),
  },
};

/** The SDL of the role binding type: no object exists, so no field of it is ever resolved. */
export const roleBindingTypeDefs = `
"""A role an IT account gives in a unit (OS2mo's access rules); the Service API has none."""
type RoleBinding {
  uuid: UUID!
  user_key: String!
  validity: Validity!
  role_response: ClassResponse!
  ituser_response: ITUserResponse!
  org_unit_response: OrganisationUnitResponse
  role(${uuidsBoundArgs('Class')}): [Class!]! @deprecated(reason: "Use \`role_response\`.")
  ituser(${uuidsBoundArgs('ITUser')}): [ITUser!]! @deprecated(reason: "Use \`ituser_response\`.")
  org_unit(${uuidsBoundArgs('OrganisationUnit')}): [OrganisationUnit!]! @deprecated(reason: "Use \`org_unit_response\`.")
}
`;
