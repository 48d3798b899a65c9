import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import type { GraphQLContext, Source } from '../context.js';
import type { IResolvers } from '@graphql-tools/utils';
import { entityResolvers, singleLink } from '../resolvers/entities.js';
import { hierarchyResolvers } from '../resolvers/hierarchy.js';
import { organisation } from '../resolvers/organisation.js';
import { scalarResolvers } from '../scalars.js';
import {
  checkLimit,
  collectionResolver,
  responseResolvers,
  type CollectionOptions,
} from './collection-resolvers.js';
import { classOwnerFilterTypeDefs, collectionTypeDefs, v30Collections } from './collections-view.js';
import { resolveAddress, resolvedAddressResolvers, resolvedAddressTypeDefs } from './address-resolve.js';
import { heldNoneTypes, v30TypeViews } from './ledger/index.js';
import {
  addressEngagement,
  associationDynamicClass,
  engagementAddresses,
  itUserAddresses,
  leaveEngagement,
  unitRoot,
} from './record-links.js';
import { classParent, classParentResponse, classParentUuid, organisationOf } from './class-links.js';
import { cprNumber, cprScalar } from './cpr-number.js';
import { engagementManagers } from './engagement-managers.js';
import { dateTimeScalar } from './date-time.js';
import { viewTypeDefs } from './os2mo-view.js';
import { employeeSeniority, employeeValidity, engagementIsPrimary } from './person-fields.js';
import { serviceVersionResolvers, serviceVersionTypeDefs } from './service-version.js';
import { exportFilesResolvers, exportFilesTypeDefs } from './export-files.js';
import { childCount, hasChildren, unitHierarchyFields } from './unit-links.js';
import { exclusiveEnd, viewResolvers, withLinkArguments } from './view-resolvers.js';

/** A part of a version's schema written elsewhere (OS2mo's mutations): its SDL and its resolvers. */
export interface SchemaModule {
  typeDefs: string;
  resolvers: IResolvers;
}

const intScalar = new GraphQLScalarType({
  name: 'int',
  description: 'A page size: a whole number from 0.',
  serialize: (value) => value,
  parseValue: checkLimit,
  parseLiteral: (node: ValueNode) => checkLimit(node.kind === Kind.INT ? Number(node.value) : undefined),
});

/** v30's own SDL: the org graph's types under OS2mo's names, and OS2mo's collections over them. */
export function v30TypeDefs(graphTypeDefs: string): string {
  return `scalar UUID
scalar CPR
${collectionTypeDefs(v30Collections)}
${classOwnerFilterTypeDefs}
${viewTypeDefs(graphTypeDefs, v30TypeViews)}
${heldNoneTypes.map((held) => held.typeDefs).join('')}
${openValidity}
${resolvedAddressTypeDefs}
${orgRoot}
${serviceVersionTypeDefs}
${exportFilesTypeDefs}`;
}

/** A validity that may be open at the start as well as at the end (a person's). */
const openValidity = `
"""When an object holds: from \`from\` (null: no start) until \`to\` (exclusive; null: no end)."""
type OpenValidity {
  from: DateTime
  to: DateTime
}
`;

/** OS2mo's root organisation: the one the Service API lists (`/service/o/`). */
const orgRoot = `extend type Query {
  org: Organisation! @deprecated(reason: "OS2mo is dropping the root organisation.")
}
`;

/** v30's own resolvers: the graph's, through the views, and the collections' roots and responses. */
export function v30Resolvers(graphTypeDefs: string): IResolvers[] {
  return [
    ...v30EntityResolvers(graphTypeDefs),
    v30QueryResolvers(),
    serviceVersionResolvers,
    exportFilesResolvers,
  ];
}

/** The root collections, with the behaviour a version's options choose. */
export function v30QueryResolvers(options: CollectionOptions = {}): IResolvers {
  return {
    Query: {
      ...Object.fromEntries(
        v30Collections.flatMap((view) =>
          Object.keys(view.roots).map((root) => [root, collectionResolver(view, options)]),
        ),
      ),
      org: organisation,
    },
  } as IResolvers;
}

/** OS2mo's names for the Service API's `owner_inference_priority` values. */
const inferencePriorities: Readonly<Record<string, string>> = {
  engagement_priority: 'ENGAGEMENT',
  association_priority: 'ASSOCIATION',
};

const ownerInferencePriority = (source: Source) =>
  inferencePriorities[String(source.owner_inference_priority)] ?? null;

/** Everything but the root fields: scalars, entity fields through the views, responses. */
function v30EntityResolvers(graphTypeDefs: string): IResolvers[] {
  const graph = { ...entityResolvers(singleLink) } as Record<string, Record<string, unknown>>;
  for (const [type, fields] of Object.entries(hierarchyResolvers())) {
    graph[type] = { ...graph[type], ...fields };
  }
  return [
    {
      UUID: scalarResolvers.UUID,
      Cursor: scalarResolvers.Cursor,
      DateTime: dateTimeScalar,
      int: intScalar,
      CPR: cprScalar,
    },
    viewResolvers(graphTypeDefs, graph, v30TypeViews) as IResolvers,
    withLinkArguments(
      {
        Employee: {
          cpr_number: cprNumber,
          cpr_no: cprNumber,
          validity: employeeValidity,
          seniority: employeeSeniority,
        },
        Engagement: {
          is_primary: engagementIsPrimary,
          managers: engagementManagers,
          addresses_response: engagementAddresses,
        },
        ITUser: itUserAddresses,
        Address: { resolve: resolveAddress, engagement: addressEngagement },
        Leave: { engagement: leaveEngagement },
        Association: associationDynamicClass,
        Owner: { owner_inference_priority: ownerInferencePriority },
        OpenValidity: { to: exclusiveEnd },
        OrganisationUnit: {
          has_children: hasChildren,
          child_count: childCount,
          ...unitRoot,
          ...unitHierarchyFields,
        },
        Class: {
          parent: classParent,
          parent_uuid: (source: Source, _args: unknown, context: GraphQLContext) =>
            classParentUuid(source, context),
          parent_response: classParentResponse,
          org_uuid: organisationOf,
          // Open at both ends, as 2.4.0 writes every class (see the ledger's `Class.validity`).
          validity: () => ({ from: null, to: null }),
        },
        Facet: { org_uuid: organisationOf },
        ...resolvedAddressResolvers,
      },
      v30TypeViews,
    ) as IResolvers,
    Object.fromEntries(
      v30Collections.map((view) => [`${view.type}Response`, responseResolvers(view.source)]),
    ) as IResolvers,
  ];
}
