/**
 * The Mesh peer's resolvers for the org graph's links. The links are declared once, in
 * gateway/src/graphql/graph-links.ts, for the gateway and for this peer; `npm run graph:generate` writes
 * this peer's half as `graph-links.generated.js`, from which the generic kinds (listings, references, keys)
 * are built below. The custom links have their recipe here (`recipes`), one each: the build fails when
 * one is missing or one is not declared custom. Every legacy call goes through Mesh's generated operations
 * (`context.Legacy.Query.<operationId>`), so Mesh's own server makes exactly the calls its plan needs and
 * nothing is fetched by hand.
 *
 * Plain JavaScript because Mesh v0 imports the resolvers module that `.meshrc.yaml` names as it is;
 * `npm run typecheck` checks it with its JSDoc types (gateway/mesh/tsconfig.json).
 */
import { graphLinks } from './graph-links.generated.js';

/**
 * One link as this peer reads it; `carried`: Mesh's default resolver answers what the record carries.
 * @typedef {{ kind: 'listing', operationId: string, inherit?: string }
 *   | { kind: 'reference' | 'references', field: string, operationId: string }
 *   | { kind: 'key' | 'keys', field: string }
 *   | { kind: 'custom' }
 *   | { kind: 'carried' }} MeshLink
 * @typedef {Record<string, Record<string, MeshLink>>} MeshGraphLinks
 * @typedef {(parent: any, args: any, context: any, info: any) => unknown} Resolve
 * @typedef {Resolve | { selectionSet: string, resolve: Resolve }} FieldResolver
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

/** Full records for a list of UUIDs, one read each, selected as the client asked. */
function recordsByUuid(operationId, uuids, root, context, info) {
  return Promise.all(uuids.map((uuid) => legacy(context, operationId, { root, args: { uuid }, info })));
}

/** Full org units for a list of UUIDs, one `getOrgUnit` each. */
function orgUnitsByUuid(uuids, root, context, info) {
  return recordsByUuid('getOrgUnit', uuids, root, context, info);
}

/**
 * A generic link's resolver, from its declaration. A reference may be null (a vacant manager, an owner
 * record of a person rather than a unit): null stays null, any other key is read in full.
 * @param {Exclude<MeshLink, { kind: 'custom' | 'carried' }>} link
 * @returns {FieldResolver}
 */
function linkResolver(link) {
  switch (link.kind) {
    case 'listing': {
      const { operationId, inherit } = link;
      return {
        selectionSet: '{ uuid }',
        resolve: (parent, args, context, info) =>
          legacy(context, operationId, {
            root: parent,
            args: inherit ? { uuid: parent.uuid, [inherit]: args.inherit } : { uuid: parent.uuid },
            info,
          }),
      };
    }
    case 'reference': {
      const { field, operationId } = link;
      return {
        selectionSet: `{ ${field} { uuid } }`,
        resolve: (parent, _args, context, info) => {
          const uuid = parent[field]?.uuid;
          if (uuid == null) return null;
          return legacy(context, operationId, { root: parent, args: { uuid }, info });
        },
      };
    }
    case 'references': {
      const { field, operationId } = link;
      return {
        selectionSet: `{ ${field} { uuid } }`,
        resolve: (parent, _args, context, info) =>
          recordsByUuid(
            operationId,
            parent[field].map((reference) => reference.uuid),
            parent,
            context,
            info,
          ),
      };
    }
    case 'key': {
      const { field } = link;
      return { selectionSet: `{ ${field} { uuid } }`, resolve: (parent) => parent[field]?.uuid ?? null };
    }
    case 'keys': {
      const { field } = link;
      return {
        selectionSet: `{ ${field} { uuid } }`,
        resolve: (parent) => parent[field].map((reference) => reference.uuid),
      };
    }
  }
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

/** A unit's or a person's detail types: whether it has records of each at any time. */
function detailTypes(operationId) {
  return {
    selectionSet: '{ uuid }',
    resolve: (parent, _args, context, info) =>
      legacy(context, operationId, { root: parent, args: { uuid: parent.uuid }, info }),
  };
}

/**
 * The custom links' recipes, one per link that graph-links.ts declares custom for Mesh.
 * @type {Record<string, Record<string, FieldResolver>>}
 */
export const recipes = {
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
    detail_types: detailTypes('getOrgUnitDetailTypes'),
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

  Employee: {
    validities: versions('listEmployeeVersions'),
    detail_types: detailTypes('getEmployeeDetailTypes'),
  },

  ITUser: {
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

/**
 * The resolvers of every declared link: the generic ones built from their declaration, the custom ones
 * from `customRecipes`. Fails when a custom link has no recipe, or a recipe serves a link not declared custom.
 * @param {MeshGraphLinks} links
 * @param {Record<string, Record<string, FieldResolver>>} customRecipes
 * @returns {Record<string, Record<string, FieldResolver>>}
 */
export function linkResolvers(links, customRecipes) {
  /** @type {Record<string, Record<string, FieldResolver>>} */
  const resolvers = {};
  for (const [type, fields] of Object.entries(links)) {
    /** @type {Record<string, FieldResolver>} */
    const own = {};
    for (const [field, link] of Object.entries(fields)) {
      if (link.kind === 'carried') continue;
      if (link.kind !== 'custom') {
        own[field] = linkResolver(link);
        continue;
      }
      const recipe = customRecipes[type]?.[field];
      if (!recipe)
        throw new Error(`${type}.${field} is declared custom but has no recipe in org-graph-resolvers.js.`);
      own[field] = recipe;
    }
    resolvers[type] = own;
  }
  for (const [type, fields] of Object.entries(customRecipes)) {
    for (const field of Object.keys(fields)) {
      if (links[type]?.[field]?.kind !== 'custom')
        throw new Error(
          `${type}.${field} has a recipe in org-graph-resolvers.js but graph-links.ts does not declare it custom.`,
        );
    }
  }
  return resolvers;
}

export const resolvers = linkResolvers(graphLinks, recipes);
