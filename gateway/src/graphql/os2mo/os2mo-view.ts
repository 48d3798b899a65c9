import { getNamedType, buildSchema, isObjectType, type GraphQLSchema } from 'graphql';
import { backendHoldsNone, type HeldNone } from './backend-holds-none.js';
import { linkFilterTypeDefs, type LinkListing } from './link-filters.js';

/**
 * OS2mo's names for the org graph's types: the graph is the one description of what the Service API serves,
 * and OS2mo's versions show it under OS2mo's names.
 */
export const os2moTypeNames: Readonly<Record<string, string>> = {
  OrgUnit: 'OrganisationUnit',
  Employee: 'Employee',
  Engagement: 'Engagement',
  Manager: 'Manager',
  Class: 'Class',
  Facet: 'Facet',
  ITSystem: 'ITSystem',
  Owner: 'Owner',
  Address: 'Address',
  Association: 'Association',
  ITUser: 'ITUser',
  KLE: 'KLE',
  Leave: 'Leave',
  RelatedUnit: 'RelatedUnit',
  Organisation: 'Organisation',
  Validity: 'Validity',
  UUID: 'UUID',
  Date: 'DateTime',
  String: 'String',
  Int: 'Int',
  Boolean: 'Boolean',
};

/** One served field: its type as OS2mo declares it, and the org graph field that backs it. */
export interface FieldView {
  /** OS2mo's type of the field, e.g. `[Employee!]` (a graph link to one object may be a list in OS2mo). */
  type: string;
  /** The org graph field (of the graph type this OS2mo type views) that answers it; default: the same name. */
  from?: string;
  /** OS2mo's arguments that the gateway honours, as SDL; arguments not written here are declared omissions. */
  args?: string;
  /** Our own one-line reason, for a field OS2mo marks deprecated. */
  deprecated?: string;
  /**
   * Read from the legacy record's own property of this name, which the org graph keeps from v1 and v2
   * (see `not-public.ts`); its resolver is written beside the version.
   */
  legacy?: string;
  /**
   * OS2mo's `*_response` link: the linked object's response wrapper (`one`), or a page of them (`paged`,
   * with `limit` and `cursor`), made from the graph field (a link, or a `*_uuid` key) that gives the objects.
   */
  response?: 'one' | 'paged';
  /**
   * The link takes OS2mo's `filter` (written in `args`): the bound filter's input type, and the detail
   * listing its window reads (null: the link's objects are the same at every time, as a facet's classes).
   */
  filter?: { input: string; listing: LinkListing | null };
  /** Served with OS2mo's empty answer: the backend never holds a value (`backend-holds-none.ts`). */
  none?: string;
  /** Answered by a resolver of its own, written beside the version, from Service API reads the graph has not. */
  own?: true;
}

/** An OS2mo type viewed over one org graph type. */
export interface TypeView {
  graphType: string;
  description?: string;
  fields: Readonly<Record<string, FieldView>>;
}

const usePerson = 'Use `person`.';
const pageArgs = 'limit: int = null, cursor: Cursor = null';
/** A link that takes OS2mo's bound `filter` (then `rest` of its arguments), read from a detail listing. */
const bound = (input: string, listing: LinkListing | null, rest?: string) => ({
  args: [`filter: ${input}`, rest].filter(Boolean).join(', '),
  filter: { input: input.replace(/ = null$/, ''), listing },
});
/** A link to the objects its object names by UUID (OS2mo's `UuidsBound…Filter`), paged as collections are. */
const byUuids = (type: string) => bound(`UuidsBound${type}Filter`, null, pageArgs);
const useUuidField = (field: string) => `Use \`${field} { uuid }\`.`;
const dropsRootOrganisation = 'OS2mo is dropping the root organisation.';

/**
 * The entity types v30 serves, field by field, as views of the graph. Everything else OS2mo's v30 has is in
 * the declared omissions (`v30-omissions.ts`), each with its reason.
 */
const graphViews: Readonly<Record<string, TypeView>> = {
  OrganisationUnit: {
    graphType: 'OrgUnit',
    description: 'An organisation unit.',
    fields: {
      uuid: { type: 'UUID!' },
      user_key: { type: 'String!' },
      name: { type: 'String!' },
      validity: { type: 'Validity!' },
      parent: {
        type: 'OrganisationUnit',
        deprecated: 'Use `parent_response`.',
        ...byUuids('OrganisationUnit'),
      },
      parent_uuid: { type: 'UUID', from: 'parent', deprecated: useUuidField('parent') },
      ancestors: { type: '[OrganisationUnit!]!' },
      root: {
        type: '[OrganisationUnit!]',
        deprecated: 'Use `root_response`.',
        own: true,
        ...bound('DescendantParentBoundOrganisationUnitFilter', null, pageArgs),
      },
      root_response: { type: 'OrganisationUnitResponse', response: 'one', own: true },
      children: {
        type: '[OrganisationUnit!]!',
        deprecated: 'Use `children_response`.',
        ...bound('ParentBoundOrganisationUnitFilter', null, pageArgs),
      },
      child_count: { type: 'Int!', args: 'filter: ParentBoundOrganisationUnitFilter', own: true },
      has_children: { type: 'Boolean!', args: 'filter: ParentBoundOrganisationUnitFilter', own: true },
      unit_type: {
        type: 'Class',
        from: 'org_unit_type',
        deprecated: 'Use `unit_type_response`.',
        ...byUuids('Class'),
      },
      unit_type_uuid: { type: 'UUID', from: 'org_unit_type', deprecated: useUuidField('unit_type') },
      time_planning: { type: 'Class', deprecated: 'Use `time_planning_response`.', ...byUuids('Class') },
      time_planning_uuid: { type: 'UUID', from: 'time_planning', deprecated: useUuidField('time_planning') },
      org_unit_level: { type: 'Class', deprecated: 'Use `unit_level_response`.', ...byUuids('Class') },
      org_unit_level_uuid: {
        type: 'UUID',
        from: 'org_unit_level',
        deprecated: useUuidField('org_unit_level'),
      },
      // No unit read of 2.4.0 gives a unit's hierarchy; its filtered children reads do (`unit-hierarchy.ts`).
      unit_hierarchy_response: { type: 'ClassResponse', response: 'one', own: true },
      org_unit_hierarchy_model: {
        type: 'Class',
        deprecated: 'Use `unit_hierarchy_response`.',
        own: true,
        ...byUuids('Class'),
      },
      org_unit_hierarchy: { type: 'UUID', deprecated: useUuidField('org_unit_hierarchy_model'), own: true },
      managers: {
        type: '[Manager!]!',
        deprecated: 'Use `managers_response`.',
        ...bound(
          'OrgUnitboundmanagerfilter',
          { type: 'manager', owner: 'unit' },
          `${pageArgs}, inherit: Boolean! = false`,
        ),
      },
      engagements: {
        type: '[Engagement!]!',
        deprecated: 'Use `engagements_response`.',
        ...bound('OrgUnitboundengagementfilter', { type: 'engagement', owner: 'unit' }, pageArgs),
      },
      owners: {
        type: '[Owner!]!',
        ...bound(
          'OrgUnitboundownerfilter = null',
          { type: 'owner', owner: 'unit' },
          'inherit: Boolean! = false',
        ),
      },
      addresses: {
        type: '[Address!]!',
        deprecated: 'Use `addresses_response`.',
        ...bound('OrgUnitboundaddressfilter', { type: 'address', owner: 'unit' }, pageArgs),
      },
      associations: {
        type: '[Association!]!',
        deprecated: 'Use `associations_response`.',
        ...bound('OrgUnitboundassociationfilter', { type: 'association', owner: 'unit' }, pageArgs),
      },
      itusers: {
        type: '[ITUser!]!',
        deprecated: 'Use `itusers_response`.',
        ...bound('OrgUnitboundituserfilter', { type: 'it', owner: 'unit' }, pageArgs),
      },
      kles: {
        type: '[KLE!]!',
        deprecated: 'Use `kles_response`.',
        ...bound('OrgUnitboundklefilter', { type: 'kle', owner: 'unit' }, pageArgs),
      },
      leaves: {
        type: '[Leave!]!',
        deprecated: 'Use `leaves_response`.',
        ...bound('OrgUnitboundleavefilter', { type: 'leave', owner: 'unit' }, pageArgs),
      },
      related_units: {
        type: '[RelatedUnit!]!',
        deprecated: 'Use `related_units_response`.',
        ...bound('OrgUnitboundrelatedunitfilter', { type: 'related_unit', owner: 'unit' }, pageArgs),
      },
      parent_response: { type: 'OrganisationUnitResponse', from: 'parent', response: 'one' },
      children_response: {
        type: 'OrganisationUnitResponsePaged!',
        from: 'children',
        response: 'paged',
        ...bound('ParentBoundOrganisationUnitFilter', null, pageArgs),
      },
      unit_type_response: { type: 'ClassResponse', from: 'org_unit_type', response: 'one' },
      unit_level_response: { type: 'ClassResponse', from: 'org_unit_level', response: 'one' },
      time_planning_response: { type: 'ClassResponse', from: 'time_planning', response: 'one' },
      managers_response: {
        type: 'ManagerResponsePaged!',
        from: 'managers',
        response: 'paged',
        ...bound(
          'OrgUnitboundmanagerfilter',
          { type: 'manager', owner: 'unit' },
          `${pageArgs}, inherit: Boolean! = false`,
        ),
      },
      engagements_response: {
        type: 'EngagementResponsePaged!',
        from: 'engagements',
        response: 'paged',
        ...bound('OrgUnitboundengagementfilter', { type: 'engagement', owner: 'unit' }, pageArgs),
      },
      addresses_response: {
        type: 'AddressResponsePaged!',
        from: 'addresses',
        response: 'paged',
        ...bound('OrgUnitboundaddressfilter', { type: 'address', owner: 'unit' }, pageArgs),
      },
      associations_response: {
        type: 'AssociationResponsePaged!',
        from: 'associations',
        response: 'paged',
        ...bound('OrgUnitboundassociationfilter', { type: 'association', owner: 'unit' }, pageArgs),
      },
      itusers_response: {
        type: 'ITUserResponsePaged!',
        from: 'itusers',
        response: 'paged',
        ...bound('OrgUnitboundituserfilter', { type: 'it', owner: 'unit' }, pageArgs),
      },
      kles_response: {
        type: 'KLEResponsePaged!',
        from: 'kles',
        response: 'paged',
        ...bound('OrgUnitboundklefilter', { type: 'kle', owner: 'unit' }, pageArgs),
      },
      leaves_response: {
        type: 'LeaveResponsePaged!',
        from: 'leaves',
        response: 'paged',
        ...bound('OrgUnitboundleavefilter', { type: 'leave', owner: 'unit' }, pageArgs),
      },
      related_units_response: {
        type: 'RelatedUnitResponsePaged!',
        from: 'related_units',
        response: 'paged',
        ...bound('OrgUnitboundrelatedunitfilter', { type: 'related_unit', owner: 'unit' }, pageArgs),
      },
    },
  },
  Employee: {
    graphType: 'Employee',
    description: 'A person.',
    fields: {
      uuid: { type: 'UUID!' },
      user_key: { type: 'String!' },
      name: { type: 'String!' },
      given_name: { type: 'String!', from: 'givenname' },
      givenname: { type: 'String!', deprecated: 'Use `given_name`.' },
      surname: { type: 'String!' },
      nickname: { type: 'String!' },
      nickname_given_name: { type: 'String', from: 'nickname_givenname' },
      nickname_givenname: { type: 'String', deprecated: 'Use `nickname_given_name`.' },
      nickname_surname: { type: 'String' },
      cpr_number: { type: 'CPR', legacy: 'cpr_no' },
      // OS2mo's older name of the same number: the same read, gate and log (`cpr-number.ts`).
      cpr_no: { type: 'CPR', legacy: 'cpr_no', deprecated: 'Use `cpr_number`.' },
      validity: { type: 'OpenValidity!', own: true },
      seniority: { type: 'Date', own: true },
      engagements: {
        type: '[Engagement!]!',
        deprecated: 'Use `engagements_response`.',
        ...bound('EmployeeBoundEngagementFilter', { type: 'engagement', owner: 'employee' }, pageArgs),
      },
      manager_roles: {
        type: '[Manager!]!',
        deprecated: 'Use `manager_roles_response`.',
        ...bound(
          'EmployeeBoundManagerFilter',
          { type: 'manager', owner: 'employee' },
          `${pageArgs}, inherit: Boolean! = false`,
        ),
      },
      addresses: {
        type: '[Address!]!',
        deprecated: 'Use `addresses_response`.',
        ...bound('EmployeeBoundAddressFilter', { type: 'address', owner: 'employee' }, pageArgs),
      },
      associations: {
        type: '[Association!]!',
        deprecated: 'Use `associations_response`.',
        ...bound('EmployeeBoundAssociationFilter', { type: 'association', owner: 'employee' }, pageArgs),
      },
      itusers: {
        type: '[ITUser!]!',
        deprecated: 'Use `itusers_response`.',
        ...bound('EmployeeBoundITUserFilter', { type: 'it', owner: 'employee' }, pageArgs),
      },
      leaves: {
        type: '[Leave!]!',
        deprecated: 'Use `leaves_response`.',
        ...bound('EmployeeBoundLeaveFilter', { type: 'leave', owner: 'employee' }, pageArgs),
      },
      engagements_response: {
        type: 'EngagementResponsePaged!',
        from: 'engagements',
        response: 'paged',
        ...bound('EmployeeBoundEngagementFilter', { type: 'engagement', owner: 'employee' }, pageArgs),
      },
      manager_roles_response: {
        type: 'ManagerResponsePaged!',
        from: 'manager_roles',
        response: 'paged',
        ...bound(
          'EmployeeBoundManagerFilter',
          { type: 'manager', owner: 'employee' },
          `${pageArgs}, inherit: Boolean! = false`,
        ),
      },
      addresses_response: {
        type: 'AddressResponsePaged!',
        from: 'addresses',
        response: 'paged',
        ...bound('EmployeeBoundAddressFilter', { type: 'address', owner: 'employee' }, pageArgs),
      },
      associations_response: {
        type: 'AssociationResponsePaged!',
        from: 'associations',
        response: 'paged',
        ...bound('EmployeeBoundAssociationFilter', { type: 'association', owner: 'employee' }, pageArgs),
      },
      itusers_response: {
        type: 'ITUserResponsePaged!',
        from: 'itusers',
        response: 'paged',
        ...bound('EmployeeBoundITUserFilter', { type: 'it', owner: 'employee' }, pageArgs),
      },
      leaves_response: {
        type: 'LeaveResponsePaged!',
        from: 'leaves',
        response: 'paged',
        ...bound('EmployeeBoundLeaveFilter', { type: 'leave', owner: 'employee' }, pageArgs),
      },
    },
  },
  Engagement: {
    graphType: 'Engagement',
    description: "A person's employment in a unit.",
    fields: {
      uuid: { type: 'UUID!' },
      user_key: { type: 'String!' },
      validity: { type: 'Validity!' },
      fraction: { type: 'Int' },
      ...Object.fromEntries(
        Array.from({ length: 10 }, (_, index) => [`extension_${index + 1}`, { type: 'String' }]),
      ),
      job_function: { type: 'Class!', deprecated: 'Use `job_function_response`.', ...byUuids('Class') },
      job_function_uuid: { type: 'UUID!', deprecated: useUuidField('job_function') },
      engagement_type: { type: 'Class!', deprecated: 'Use `engagement_type_response`.', ...byUuids('Class') },
      engagement_type_uuid: { type: 'UUID!', deprecated: useUuidField('engagement_type') },
      person: {
        type: '[Employee!]!',
        from: 'employee',
        deprecated: 'Use `person_response`.',
        ...byUuids('Employee'),
      },
      employee: { type: '[Employee!]!', deprecated: usePerson, ...byUuids('Employee') },
      employee_uuid: { type: 'UUID!', deprecated: useUuidField('person') },
      org_unit: {
        type: '[OrganisationUnit!]!',
        deprecated: 'Use `org_unit_response`.',
        ...byUuids('OrganisationUnit'),
      },
      org_unit_uuid: { type: 'UUID!', deprecated: useUuidField('org_unit') },
      job_function_response: { type: 'ClassResponse!', from: 'job_function', response: 'one' },
      engagement_type_response: { type: 'ClassResponse!', from: 'engagement_type', response: 'one' },
      is_primary: { type: 'Boolean!', own: true },
      primary: { type: 'Class', deprecated: 'Use `primary_response`.', ...byUuids('Class') },
      primary_uuid: { type: 'UUID', from: 'primary', deprecated: useUuidField('primary') },
      primary_response: { type: 'ClassResponse', from: 'primary', response: 'one' },
      person_response: { type: 'EmployeeResponse!', from: 'employee', response: 'one' },
      org_unit_response: { type: 'OrganisationUnitResponse!', from: 'org_unit', response: 'one' },
      addresses_response: {
        type: 'AddressResponsePaged!',
        response: 'paged',
        own: true,
        ...bound('EngagementBoundAddressFilter', null, pageArgs),
      },
      managers: {
        type: '[Manager!]!',
        ...bound(
          'OrgUnitboundmanagerfilter = null',
          { type: 'manager', owner: 'unit' },
          'inherit: Boolean! = false, exclude_self: Boolean! = false',
        ),
        own: true,
      },
    },
  },
  Manager: {
    graphType: 'Manager',
    description: 'A manager position of a unit; `person` is empty while it is vacant.',
    fields: {
      uuid: { type: 'UUID!' },
      user_key: { type: 'String!' },
      validity: { type: 'Validity!' },
      manager_type: { type: 'Class!', deprecated: 'Use `manager_type_response`.', ...byUuids('Class') },
      manager_type_uuid: { type: 'UUID', deprecated: useUuidField('manager_type') },
      manager_level: { type: 'Class!', deprecated: 'Use `manager_level_response`.', ...byUuids('Class') },
      manager_level_uuid: { type: 'UUID', deprecated: useUuidField('manager_level') },
      responsibilities: {
        type: '[Class!]!',
        from: 'responsibility',
        deprecated: 'Use `responsibilities_response`.',
        ...byUuids('Class'),
      },
      responsibility_uuids: {
        type: '[UUID!]',
        from: 'responsibility',
        deprecated: useUuidField('responsibilities'),
      },
      person: {
        type: '[Employee!]',
        from: 'employee',
        deprecated: 'Use `person_response`.',
        ...byUuids('Employee'),
      },
      employee: { type: '[Employee!]', deprecated: usePerson, ...byUuids('Employee') },
      employee_uuid: { type: 'UUID', deprecated: useUuidField('person') },
      org_unit: {
        type: '[OrganisationUnit!]!',
        deprecated: 'Use `org_unit_response`.',
        ...byUuids('OrganisationUnit'),
      },
      org_unit_uuid: { type: 'UUID!', deprecated: useUuidField('org_unit') },
      manager_type_response: { type: 'ClassResponse', from: 'manager_type', response: 'one' },
      manager_level_response: { type: 'ClassResponse', from: 'manager_level', response: 'one' },
      responsibilities_response: {
        type: 'ClassResponsePaged!',
        from: 'responsibility',
        response: 'paged',
        ...byUuids('Class'),
      },
      person_response: { type: 'EmployeeResponse', from: 'employee', response: 'one' },
      org_unit_response: { type: 'OrganisationUnitResponse!', from: 'org_unit', response: 'one' },
    },
  },
  Class: {
    graphType: 'Class',
    description: 'An entry of a facet: a manager type, a job function, an address type, …',
    fields: {
      uuid: { type: 'UUID!' },
      user_key: { type: 'String!' },
      name: { type: 'String!' },
      scope: { type: 'String' },
      example: { type: 'String', deprecated: 'OS2mo no longer uses it.' },
      owner: { type: 'UUID' },
      facet: { type: 'Facet!', deprecated: 'Use `facet_response`.', ...byUuids('Facet') },
      facet_uuid: { type: 'UUID!', from: 'facet', deprecated: useUuidField('facet') },
      facet_response: { type: 'FacetResponse!', from: 'facet', response: 'one' },
      children_response: {
        type: 'ClassResponsePaged!',
        from: 'children',
        response: 'paged',
        ...bound('ParentBoundClassFilter', null, pageArgs),
      },
      children: {
        type: '[Class!]!',
        deprecated: 'Use `children_response`.',
        ...bound('ParentBoundClassFilter', null, pageArgs),
      },
      parent: { type: 'Class', deprecated: 'Use `parent_response`.', own: true, ...byUuids('Class') },
      parent_uuid: { type: 'UUID', deprecated: useUuidField('parent'), own: true },
      parent_response: { type: 'ClassResponse', response: 'one', own: true },
      org_uuid: { type: 'UUID!', deprecated: dropsRootOrganisation, own: true },
      full_name: { type: 'String!', from: 'name', deprecated: 'Use `name`: it is the same.' },
      top_level_facet: {
        type: 'Facet!',
        from: 'facet',
        deprecated: "Use `facet`: a class's children share its facet.",
      },
    },
  },
  Facet: {
    graphType: 'Facet',
    description: 'A controlled vocabulary, whose entries are classes.',
    fields: {
      uuid: { type: 'UUID!' },
      user_key: { type: 'String!' },
      description: { type: 'String', deprecated: 'OS2mo no longer uses it.' },
      org_uuid: { type: 'UUID!', deprecated: dropsRootOrganisation, own: true },
      classes: {
        type: '[Class!]!',
        deprecated: 'Use `classes_responses`.',
        ...bound('FacetBoundClassFilter', null, pageArgs),
      },
      classes_responses: {
        type: 'ClassResponsePaged!',
        from: 'classes',
        response: 'paged',
        ...bound('FacetBoundClassFilter', null, pageArgs),
      },
    },
  },
  ITSystem: {
    graphType: 'ITSystem',
    description: 'An IT system in which people and units have accounts.',
    fields: {
      uuid: { type: 'UUID!' },
      user_key: { type: 'String!' },
      name: { type: 'String!' },
      system_type: { type: 'String' },
    },
  },
  Owner: {
    graphType: 'Owner',
    description: 'Who owns a unit or a person (an owner record of the unit or of the person).',
    fields: {
      uuid: { type: 'UUID!' },
      user_key: { type: 'String!' },
      validity: { type: 'Validity!' },
      org_unit_uuid: { type: 'UUID', from: 'org_unit', deprecated: useUuidField('org_unit') },
      employee_uuid: { type: 'UUID', from: 'person', deprecated: useUuidField('person') },
      owner_uuid: { type: 'UUID', from: 'owner', deprecated: useUuidField('owner') },
      owner_inference_priority: { type: 'OwnerInferencePriority', legacy: 'owner_inference_priority' },
      org_unit: {
        type: '[OrganisationUnit!]',
        deprecated: 'Use `org_unit_response`.',
        ...byUuids('OrganisationUnit'),
      },
      person: { type: '[Employee!]', deprecated: 'Use `person_response`.', ...byUuids('Employee') },
      owner: { type: '[Employee!]', deprecated: 'Use `owner_response`.', ...byUuids('Employee') },
      org_unit_response: { type: 'OrganisationUnitResponse', from: 'org_unit', response: 'one' },
      person_response: { type: 'EmployeeResponse', from: 'person', response: 'one' },
      owner_response: { type: 'EmployeeResponse', from: 'owner', response: 'one' },
    },
  },
  Address: {
    graphType: 'Address',
    description: 'An address of a person, a unit or an engagement.',
    fields: {
      uuid: { type: 'UUID!' },
      user_key: { type: 'String!' },
      validity: { type: 'Validity!' },
      name: { type: 'String' },
      href: { type: 'String' },
      value: { type: 'String!' },
      value2: { type: 'String' },
      resolve: { type: 'ResolvedAddress!', own: true },
      address_type_uuid: { type: 'UUID!', from: 'address_type', deprecated: useUuidField('address_type') },
      visibility_uuid: { type: 'UUID', from: 'visibility', deprecated: useUuidField('visibility') },
      employee_uuid: { type: 'UUID', deprecated: useUuidField('person') },
      org_unit_uuid: { type: 'UUID', deprecated: useUuidField('org_unit') },
      engagement_uuid: { type: 'UUID', deprecated: useUuidField('engagement_response') },
      address_type: { type: 'Class!', deprecated: 'Use `address_type_response`.', ...byUuids('Class') },
      visibility: { type: 'Class', deprecated: 'Use `visibility_response`.', ...byUuids('Class') },
      person: {
        type: '[Employee!]',
        from: 'employee',
        deprecated: 'Use `person_response`.',
        ...byUuids('Employee'),
      },
      employee: { type: '[Employee!]', deprecated: usePerson, ...byUuids('Employee') },
      org_unit: {
        type: '[OrganisationUnit!]',
        deprecated: 'Use `org_unit_response`.',
        ...byUuids('OrganisationUnit'),
      },
      address_type_response: { type: 'ClassResponse!', from: 'address_type', response: 'one' },
      visibility_response: { type: 'ClassResponse', from: 'visibility', response: 'one' },
      person_response: { type: 'EmployeeResponse', from: 'employee', response: 'one' },
      org_unit_response: { type: 'OrganisationUnitResponse', from: 'org_unit', response: 'one' },
      engagement_response: { type: 'EngagementResponse', from: 'engagement_uuid', response: 'one' },
      engagement: {
        type: '[Engagement!]',
        deprecated: 'Use `engagement_response`.',
        own: true,
        ...byUuids('Engagement'),
      },
    },
  },
  Association: {
    graphType: 'Association',
    description: "A person's association with a unit other than an employment.",
    fields: {
      uuid: { type: 'UUID!' },
      user_key: { type: 'String!' },
      validity: { type: 'Validity!' },
      employee_uuid: { type: 'UUID', deprecated: useUuidField('person') },
      org_unit_uuid: { type: 'UUID!', deprecated: useUuidField('org_unit') },
      association_type_uuid: {
        type: 'UUID',
        from: 'association_type',
        deprecated: useUuidField('association_type'),
      },
      primary_uuid: { type: 'UUID', from: 'primary', deprecated: useUuidField('primary') },
      substitute_uuid: { type: 'UUID', deprecated: useUuidField('substitute') },
      association_type: {
        type: 'Class',
        deprecated: 'Use `association_type_response`.',
        ...byUuids('Class'),
      },
      primary: { type: 'Class', deprecated: 'Use `primary_response`.', ...byUuids('Class') },
      person: {
        type: '[Employee!]!',
        from: 'employee',
        deprecated: 'Use `person_response`.',
        ...byUuids('Employee'),
      },
      employee: { type: '[Employee!]!', deprecated: usePerson, ...byUuids('Employee') },
      org_unit: {
        type: '[OrganisationUnit!]!',
        deprecated: 'Use `org_unit_response`.',
        ...byUuids('OrganisationUnit'),
      },
      substitute: { type: '[Employee!]!', deprecated: 'Use `substitute_response`.', ...byUuids('Employee') },
      association_type_response: { type: 'ClassResponse', from: 'association_type', response: 'one' },
      primary_response: { type: 'ClassResponse', from: 'primary', response: 'one' },
      person_response: { type: 'EmployeeResponse', from: 'employee', response: 'one' },
      org_unit_response: { type: 'OrganisationUnitResponse!', from: 'org_unit', response: 'one' },
      substitute_response: { type: 'EmployeeResponse', from: 'substitute', response: 'one' },
      dynamic_class_uuid: { type: 'UUID', deprecated: useUuidField('dynamic_class'), own: true },
      dynamic_class: {
        type: 'Class',
        deprecated: 'Use `dynamic_class_response`.',
        own: true,
        ...byUuids('Class'),
      },
      dynamic_class_response: {
        type: 'ClassResponse',
        deprecated: 'OS2mo means to replace it by fields of their own.',
        response: 'one',
        own: true,
      },
    },
  },
  ITUser: {
    graphType: 'ITUser',
    description: 'An account in an IT system, of a person or of a unit.',
    fields: {
      uuid: { type: 'UUID!' },
      user_key: { type: 'String!' },
      validity: { type: 'Validity!' },
      itsystem_uuid: { type: 'UUID!', deprecated: useUuidField('itsystem') },
      employee_uuid: { type: 'UUID', deprecated: useUuidField('person') },
      org_unit_uuid: { type: 'UUID', deprecated: useUuidField('org_unit') },
      itsystem: { type: 'ITSystem!', deprecated: 'Use `itsystem_response`.', ...byUuids('ITSystem') },
      person: {
        type: '[Employee!]',
        from: 'employee',
        deprecated: 'Use `person_response`.',
        ...byUuids('Employee'),
      },
      employee: { type: '[Employee!]', deprecated: usePerson, ...byUuids('Employee') },
      org_unit: {
        type: '[OrganisationUnit!]',
        deprecated: 'Use `org_unit_response`.',
        ...byUuids('OrganisationUnit'),
      },
      itsystem_response: { type: 'ITSystemResponse!', from: 'itsystem', response: 'one' },
      person_response: { type: 'EmployeeResponse', from: 'employee', response: 'one' },
      org_unit_response: { type: 'OrganisationUnitResponse', from: 'org_unit', response: 'one' },
    },
  },
  KLE: {
    graphType: 'KLE',
    description: 'A KLE number (subject classification) a unit handles, with its aspects.',
    fields: {
      uuid: { type: 'UUID!' },
      user_key: { type: 'String!' },
      validity: { type: 'Validity!' },
      kle_number_uuid: { type: 'UUID!', from: 'kle_number', deprecated: useUuidField('kle_number') },
      kle_aspect_uuids: { type: '[UUID!]!', from: 'kle_aspects', deprecated: useUuidField('kle_aspects') },
      org_unit_uuid: { type: 'UUID!', deprecated: useUuidField('org_unit') },
      kle_number: { type: '[Class!]!', deprecated: 'Use `kle_number_response`.', ...byUuids('Class') },
      kle_aspects: { type: '[Class!]!', deprecated: 'Use `kle_aspects_response`.', ...byUuids('Class') },
      org_unit: {
        type: '[OrganisationUnit!]!',
        deprecated: 'Use `org_unit_response`.',
        ...byUuids('OrganisationUnit'),
      },
      kle_number_response: { type: 'ClassResponse!', from: 'kle_number', response: 'one' },
      kle_aspects_response: {
        type: 'ClassResponsePaged!',
        from: 'kle_aspects',
        response: 'paged',
        ...byUuids('Class'),
      },
      org_unit_response: { type: 'OrganisationUnitResponse', from: 'org_unit', response: 'one' },
    },
  },
  Leave: {
    graphType: 'Leave',
    description: "A person's leave from an engagement.",
    fields: {
      uuid: { type: 'UUID!' },
      user_key: { type: 'String!' },
      validity: { type: 'Validity!' },
      leave_type_uuid: { type: 'UUID!', from: 'leave_type', deprecated: useUuidField('leave_type') },
      employee_uuid: { type: 'UUID!', deprecated: useUuidField('person') },
      engagement_uuid: { type: 'UUID!', deprecated: useUuidField('engagement_response') },
      leave_type: { type: 'Class!', deprecated: 'Use `leave_type_response`.', ...byUuids('Class') },
      person: {
        type: '[Employee!]!',
        from: 'employee',
        deprecated: 'Use `person_response`.',
        ...byUuids('Employee'),
      },
      employee: { type: '[Employee!]!', deprecated: usePerson, ...byUuids('Employee') },
      leave_type_response: { type: 'ClassResponse!', from: 'leave_type', response: 'one' },
      person_response: { type: 'EmployeeResponse!', from: 'employee', response: 'one' },
      engagement_response: { type: 'EngagementResponse!', from: 'engagement_uuid', response: 'one' },
      engagement: {
        type: 'Engagement!',
        deprecated: 'Use `engagement_response`.',
        own: true,
        ...byUuids('Engagement'),
      },
    },
  },
  RelatedUnit: {
    graphType: 'RelatedUnit',
    description: 'Two units related to each other.',
    fields: {
      uuid: { type: 'UUID!' },
      user_key: { type: 'String!' },
      validity: { type: 'Validity!' },
      org_unit_uuids: { type: '[UUID!]!', deprecated: useUuidField('org_units') },
      org_units: {
        type: '[OrganisationUnit!]!',
        deprecated: 'Use `org_units_response`.',
        ...byUuids('OrganisationUnit'),
      },
      org_units_response: {
        type: 'OrganisationUnitResponsePaged!',
        from: 'org_units',
        response: 'paged',
        ...byUuids('OrganisationUnit'),
      },
    },
  },
  Organisation: {
    graphType: 'Organisation',
    description: 'The root organisation.',
    fields: {
      uuid: { type: 'UUID!' },
      user_key: { type: 'String!' },
      name: { type: 'String!' },
    },
  },
  Validity: {
    graphType: 'Validity',
    description: 'When an object holds: from `from` (inclusive) until `to` (exclusive; null: no end).',
    fields: {
      from: { type: 'DateTime!' },
      to: { type: 'DateTime' },
    },
  },
};

/**
 * The views with the fields the backend never holds a value for (`backend-holds-none.ts`) added to their
 * types; entries of a type no view serves (a root field) are served where that type is written.
 */
export function withHeldNone(
  views: Readonly<Record<string, TypeView>>,
  entries: readonly HeldNone[],
): Record<string, TypeView> {
  const result: Record<string, TypeView> = { ...views };
  for (const entry of entries) {
    const [typeName = '', fieldName = ''] = entry.coordinate.split('.');
    const view = result[typeName];
    if (!view) continue;
    if (fieldName in view.fields) throw new Error(`${entry.coordinate} is both viewed and held none.`);
    const { type, args, deprecated, reason } = entry;
    // A bound filter such a field takes filters nothing, but its input type is served like a link's.
    const input = /filter: (\w+)/.exec(args ?? '')?.[1];
    result[typeName] = {
      ...view,
      fields: {
        ...view.fields,
        [fieldName]: {
          type,
          none: reason,
          ...(input ? { filter: { input, listing: null } } : {}),
          ...(args ? { args } : {}),
          ...(deprecated ? { deprecated } : {}),
        },
      },
    };
  }
  return result;
}

/** What v30 serves of each entity type: the graph's views and the fields the backend holds none of. */
export const v30TypeViews: Readonly<Record<string, TypeView>> = withHeldNone(graphViews, backendHoldsNone);

/**
 * Checks every view against the org graph: the backing field exists, and its element type is the one the
 * view names (after OS2mo's renaming), or a UUID key of a link. Fails with every mismatch, so that a change
 * of the graph cannot silently change what v30 serves.
 */
export function checkViews(graph: GraphQLSchema, views: Readonly<Record<string, TypeView>>): void {
  const problems: string[] = [];
  for (const [typeName, view] of Object.entries(views)) {
    const graphType = graph.getType(view.graphType);
    if (!isObjectType(graphType)) {
      problems.push(`${typeName} views ${view.graphType}, which the org graph does not have`);
      continue;
    }
    for (const [fieldName, field] of Object.entries(view.fields)) {
      if (field.legacy || field.none || field.own) continue;
      const source = graphType.getFields()[field.from ?? fieldName];
      if (!source) {
        problems.push(`${typeName}.${fieldName} needs ${view.graphType}.${field.from ?? fieldName}`);
        continue;
      }
      const graphElement = getNamedType(source.type).name;
      const element = field.type.replace(/[[\]!]/g, '');
      const served = field.response ? element.replace(/ResponsePaged$|Response$/, '') : element;
      const renamed = os2moTypeNames[graphElement] ?? graphElement;
      const isKey = field.response
        ? graphElement === 'UUID'
        : served === 'UUID' && isObjectType(getNamedType(source.type));
      if (renamed !== served && !isKey) {
        problems.push(
          `${typeName}.${fieldName} is ${served}, but ${view.graphType}.${source.name} holds ${graphElement}`,
        );
      }
    }
  }
  if (problems.length > 0)
    throw new Error(`v30's view of the org graph is out of date: ${problems.join('; ')}.`);
}

function escapeDescription(text: string): string {
  return JSON.stringify(text);
}

/** The bound filter input types the views' fields take (a link's, or an own resolver's), each once. */
function linkFilterInputs(views: Readonly<Record<string, TypeView>>): string[] {
  const inputs = Object.values(views).flatMap((view) =>
    Object.values(view.fields).flatMap((field) => {
      const named = /filter: (\w+)/.exec(field.args ?? '')?.[1];
      return named ? [named] : [];
    }),
  );
  return [...new Set(inputs)].sort();
}

/** The SDL of the viewed types, in OS2mo's names and types. */
export function viewTypeDefs(graphTypeDefs: string, views: Readonly<Record<string, TypeView>>): string {
  checkViews(buildSchema(graphTypeDefs), views);
  return Object.entries(views)
    .map(([typeName, view]) => {
      const fields = Object.entries(view.fields).map(([name, field]) => {
        const args = field.args ? `(${field.args})` : '';
        const deprecated = field.deprecated
          ? ` @deprecated(reason: ${escapeDescription(field.deprecated)})`
          : '';
        return `  ${name}${args}: ${field.type}${deprecated}`;
      });
      const description = view.description ? `${escapeDescription(view.description)}\n` : '';
      return `${description}type ${typeName} {\n${fields.join('\n')}\n}\n`;
    })
    .concat(linkFilterTypeDefs(linkFilterInputs(views)))
    .join('\n');
}
