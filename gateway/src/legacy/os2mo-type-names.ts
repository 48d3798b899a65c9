import type { ObjectType } from './backend-hooks.js';
import type { DetailType } from './legacy-paths.js';

/**
 * OS2mo's name for each kind of Service API object: the name its GraphQL mutations begin with
 * (`ituser_create`) and, but for people, its event routing key. The Service API's `it` is OS2mo's `ituser`;
 * the other names are the same on both sides. `null` where OS2mo no longer has the kind: it replaced roles by
 * role bindings (36.0.0) and deleted engagement associations (28.0.0), in every version it serves.
 *
 * The one map from Service API names to OS2mo's: the events, the OS2mo mutations and the coverage report's
 * write replacements read it.
 */
export const os2moObjectNames = {
  org_unit: 'org_unit',
  employee: 'employee',
  engagement: 'engagement',
  manager: 'manager',
  owner: 'owner',
  it: 'ituser',
  address: 'address',
  association: 'association',
  role: null,
  leave: 'leave',
  kle: 'kle',
  related_unit: 'related_unit',
  engagement_association: null,
} as const satisfies Record<ObjectType, string | null>;

/**
 * The GraphQL field that lists each detail type's records: the root collection (`itusers`) and a unit's or a
 * person's listing (but for a person's managers, `manager_roles`), in v1/v2 and in OS2mo's versions alike.
 * v1/v2 still list 2.x's roles and engagement associations, which OS2mo's versions no longer serve.
 */
export const detailCollectionNames = {
  engagement: 'engagements',
  manager: 'managers',
  owner: 'owners',
  it: 'itusers',
  address: 'addresses',
  association: 'associations',
  role: 'roles',
  leave: 'leaves',
  kle: 'kles',
  related_unit: 'related_units',
  engagement_association: 'engagement_associations',
} as const satisfies Record<DetailType, string>;
