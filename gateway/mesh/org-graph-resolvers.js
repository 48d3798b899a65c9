/**
 * The org graph's resolvers that `.meshrc.yaml` cannot declare: links whose key may be null, lists
 * that need one more legacy call per element, and the `objects` wrappers of the graph's root fields.
 * Every legacy call goes through Mesh's generated operations (`context.Legacy.Query.<operationId>`),
 * so Mesh's own server makes exactly the calls its plan needs and nothing is fetched by hand.
 *
 * Plain JavaScript because Mesh v0 imports resolvers named in `.meshrc.yaml` as they are.
 */

/**
 * Calls one generated operation of the legacy source. Mesh hands a failed call back as an error
 * value; it is thrown so that the field fails with the legacy error instead of an empty result.
 */
async function legacy(context, operationId, options) {
  const result = await context.Legacy.Query[operationId]({ context, ...options });
  if (result instanceof Error) throw result;
  return result;
}

/** The organisation's UUID: the legacy service holds one, and some listings are per organisation. */
async function organisationUuid(root, context, info) {
  const organisations = await legacy(context, 'listOrganisations', {
    root,
    args: {},
    info,
    selectionSet: '{ uuid }',
  });
  const organisation = organisations?.[0];
  if (!organisation) throw new Error('The legacy service lists no organisation.');
  return organisation.uuid;
}

/**
 * A link to a full record through an embedded reference that may be null (a vacant manager, an
 * owner record of a person rather than a unit): null stays null, any other key is fetched.
 */
function optionalLink(requiredSelectionSet, keyOf, operationId) {
  return {
    selectionSet: requiredSelectionSet,
    resolve: (parent, _args, context, info) => {
      const uuid = keyOf(parent);
      if (uuid == null) return null;
      return legacy(context, operationId, { root: parent, args: { uuid }, info });
    },
  };
}

/** Full org units for a list of UUIDs, one `getOrgUnit` each, selected as the client asked. */
function orgUnitsByUuid(uuids, root, context, info) {
  return Promise.all(uuids.map((uuid) => legacy(context, 'getOrgUnit', { root, args: { uuid }, info })));
}

/** The UUID of an embedded reference, or null: OS2mo's graph shows these keys as `*_uuid` fields. */
function keyOf(requiredSelectionSet, key) {
  return { selectionSet: requiredSelectionSet, resolve: (parent) => key(parent) ?? null };
}

/** The links and keys every detail record with a person, a unit and an engagement reference has alike. */
function detailLinks({ person, unit, engagement }) {
  const fields = {};
  if (person) {
    fields.employee = optionalLink('{ person { uuid } }', (record) => record.person?.uuid, 'getEmployee');
    fields.employee_uuid = keyOf('{ person { uuid } }', (record) => record.person?.uuid);
  }
  if (unit) {
    fields.org_unit = optionalLink(
      '{ org_unit_ref { uuid } }',
      (record) => record.org_unit_ref?.uuid,
      'getOrgUnit',
    );
    fields.org_unit_uuid = keyOf('{ org_unit_ref { uuid } }', (record) => record.org_unit_ref?.uuid);
  }
  if (engagement) {
    fields.engagement_uuid = keyOf('{ engagement_ref { uuid } }', (record) => record.engagement_ref?.uuid);
  }
  return fields;
}

const itSystemFields = '{ uuid name user_key system_type validity { from to } }';
const classFields = '{ uuid name user_key example scope }';

/** A children listing (of a class or of a facet): its records as they are, with their child counts. */
function classChildren(operationId, args) {
  return {
    selectionSet: '{ uuid }',
    resolve: (parent, _args, context, info) =>
      legacy(context, operationId, {
        root: parent,
        args: args(parent),
        info,
        selectionSet: '{ uuid name user_key child_count }',
      }),
  };
}

/** A unit's or a person's versions (`details/org_unit`, `details/employee`) in the scope asked for. */
function versions(operationId) {
  return {
    selectionSet: '{ uuid }',
    resolve: (parent, args, context, info) =>
      legacy(context, operationId, {
        root: parent,
        args: { uuid: parent.uuid, validity: String(args.validity ?? 'PRESENT').toLowerCase() },
        info,
      }),
  };
}

export const resolvers = {
  Query: {
    // The wrapper only carries the filter; `objects` makes the calls with its own selection.
    org_units: (_root, args) => ({ filter: args.filter ?? {} }),
    itsystems: () => ({}),
    org: () => ({}),
    cpr_lookup: (_root, args) => ({ cpr_number: args.cpr_number }),
  },

  OrganisationObjects: {
    objects: async (parent, _args, context, info) => {
      const org = await organisationUuid(parent, context, info);
      return [await legacy(context, 'getOrganisation', { root: parent, args: { org }, info })];
    },
  },

  CprLookupObjects: {
    objects: async (parent, _args, context, info) => [
      await legacy(context, 'lookupCpr', { root: parent, args: { q: parent.cpr_number }, info }),
    ],
  },

  OrgUnitObjects: {
    objects: async (parent, _args, context, info) => {
      let uuids = parent.filter.uuids;
      if (uuids == null) {
        const org = await organisationUuid(parent, context, info);
        const page = await legacy(context, 'listOrgUnits', {
          root: parent,
          args: { org, limit: 0 },
          info,
          selectionSet: '{ items { uuid } }',
        });
        uuids = page.items.map((unit) => unit.uuid);
      }
      return orgUnitsByUuid(uuids, parent, context, info);
    },
  },

  ITSystemObjects: {
    objects: async (parent, _args, context, info) => {
      const org = await organisationUuid(parent, context, info);
      return legacy(context, 'listItSystems', { root: parent, args: { org }, info });
    },
  },

  OrgUnit: {
    // Each ancestor is read as a full unit, following `parent` from the unit's own read.
    ancestors: {
      selectionSet: '{ uuid }',
      resolve: async (unit, _args, context, info) => {
        const uuids = [];
        let current = unit.uuid;
        while (current && uuids.length < 100) {
          const read = await legacy(context, 'getOrgUnit', {
            root: unit,
            args: { uuid: current },
            info,
            selectionSet: '{ parent { uuid } }',
          });
          current = read?.parent?.uuid ?? null;
          if (current) uuids.push(current);
        }
        return orgUnitsByUuid(uuids, unit, context, info);
      },
    },
    child_count: {
      selectionSet: '{ uuid }',
      resolve: async (unit, _args, context, info) =>
        (
          await legacy(context, 'listOrgUnitChildren', {
            root: unit,
            args: { uuid: unit.uuid },
            info,
            selectionSet: '{ uuid }',
          })
        ).length,
    },
    validities: versions('listOrgUnitVersions'),
    // The legacy listing has list items, not units: each child is read as a full unit.
    children: {
      selectionSet: '{ uuid }',
      resolve: async (unit, _args, context, info) => {
        const children = await legacy(context, 'listOrgUnitChildren', {
          root: unit,
          args: { uuid: unit.uuid },
          info,
          selectionSet: '{ uuid }',
        });
        return orgUnitsByUuid(
          children.map((child) => child.uuid),
          unit,
          context,
          info,
        );
      },
    },
  },

  Manager: {
    employee: optionalLink('{ employee_uuid }', (manager) => manager.employee_uuid, 'getEmployee'),
    org_unit_uuid: keyOf('{ org_unit_ref { uuid } }', (manager) => manager.org_unit_ref?.uuid),
    manager_type_uuid: keyOf('{ manager_type { uuid } }', (manager) => manager.manager_type?.uuid),
    manager_level_uuid: keyOf('{ manager_level { uuid } }', (manager) => manager.manager_level?.uuid),
  },

  Engagement: {
    employee_uuid: keyOf('{ person { uuid } }', (engagement) => engagement.person?.uuid),
    org_unit_uuid: keyOf('{ org_unit_ref { uuid } }', (engagement) => engagement.org_unit_ref?.uuid),
    job_function_uuid: keyOf('{ job_function { uuid } }', (engagement) => engagement.job_function?.uuid),
    engagement_type_uuid: keyOf(
      '{ engagement_type { uuid } }',
      (engagement) => engagement.engagement_type?.uuid,
    ),
  },

  Owner: {
    owner: optionalLink('{ owner_ref { uuid } }', (owner) => owner.owner_ref?.uuid, 'getEmployee'),
    org_unit: optionalLink('{ org_unit_ref { uuid } }', (owner) => owner.org_unit_ref?.uuid, 'getOrgUnit'),
    person: optionalLink('{ person_ref { uuid } }', (owner) => owner.person_ref?.uuid, 'getEmployee'),
  },

  ITUser: {
    itsystem_uuid: keyOf('{ itsystem_ref { uuid } }', (itUser) => itUser.itsystem_ref?.uuid),
    employee_uuid: keyOf('{ person { uuid } }', (itUser) => itUser.person?.uuid),
    org_unit_uuid: keyOf('{ org_unit_ref { uuid } }', (itUser) => itUser.org_unit_ref?.uuid),
    employee: optionalLink('{ person { uuid } }', (itUser) => itUser.person?.uuid, 'getEmployee'),
    org_unit: optionalLink('{ org_unit_ref { uuid } }', (itUser) => itUser.org_unit_ref?.uuid, 'getOrgUnit'),
    // The reference lacks the system's validity; the full record comes from the organisation's list.
    itsystem: {
      selectionSet: '{ itsystem_ref { uuid } }',
      resolve: async (itUser, _args, context, info) => {
        const org = await organisationUuid(itUser, context, info);
        const systems = await legacy(context, 'listItSystems', {
          root: itUser,
          args: { org },
          info,
          selectionSet: itSystemFields,
        });
        return systems.find((system) => system.uuid === itUser.itsystem_ref.uuid) ?? null;
      },
    },
  },

  Address: detailLinks({ person: true, unit: true, engagement: true }),
  Association: {
    ...detailLinks({ person: true, unit: true }),
    substitute: optionalLink(
      '{ substitute_ref { uuid } }',
      (record) => record.substitute_ref?.uuid,
      'getEmployee',
    ),
    substitute_uuid: keyOf('{ substitute_ref { uuid } }', (record) => record.substitute_ref?.uuid),
  },
  Role: detailLinks({ person: true, unit: true }),
  Leave: detailLinks({ person: true, engagement: true }),
  KLE: detailLinks({ unit: true }),
  EngagementAssociation: detailLinks({ unit: true, engagement: true }),
  RelatedUnit: {
    org_units: {
      selectionSet: '{ org_unit_refs { uuid } }',
      resolve: (relation, _args, context, info) =>
        orgUnitsByUuid(
          relation.org_unit_refs.map((unit) => unit.uuid),
          relation,
          context,
          info,
        ),
    },
    org_unit_uuids: keyOf('{ org_unit_refs { uuid } }', (relation) =>
      relation.org_unit_refs.map((unit) => unit.uuid),
    ),
  },

  Employee: {
    validities: versions('listEmployeeVersions'),
  },

  Class: {
    children: classChildren('listClassChildren', (someClass) => ({ uuid: someClass.uuid })),
    child_count: {
      selectionSet: '{ uuid }',
      resolve: async (someClass, _args, context, info) =>
        someClass.child_count ??
        (
          await legacy(context, 'listClassChildren', {
            root: someClass,
            args: { uuid: someClass.uuid },
            info,
            selectionSet: '{ uuid }',
          })
        ).length,
    },
    facet: {
      selectionSet: '{ uuid }',
      resolve: async (someClass, _args, context, info) => {
        const [withFacet, org] = await Promise.all([
          // OS2mo embeds the class's facet only when asked (`facet=1`).
          legacy(context, 'getClass', {
            root: someClass,
            args: { uuid: someClass.uuid, facet: true },
            info,
            selectionSet: '{ facet { uuid } }',
          }),
          organisationUuid(someClass, context, info),
        ]);
        return legacy(context, 'getFacet', {
          root: someClass,
          args: { org, facet: withFacet.facet.uuid },
          info,
        });
      },
    },
  },

  Facet: {
    top_level_classes: classChildren('listFacetChildren', (facet) => ({ facet: facet.uuid })),
    // The legacy facet read embeds its classes (every page: `limit` 0).
    classes: {
      selectionSet: `{ data { items ${classFields} } }`,
      resolve: (facet) => facet.data.items,
    },
  },
};
