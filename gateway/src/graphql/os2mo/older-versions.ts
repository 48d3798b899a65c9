import {
  Kind,
  parse,
  parseType,
  print,
  visit,
  type DefinitionNode,
  type DocumentNode,
  type FieldDefinitionNode,
  type InputObjectTypeDefinitionNode,
  type InputValueDefinitionNode,
} from 'graphql';
import type { IResolvers } from '@graphql-tools/utils';
import { withDate, type GraphQLContext, type Source } from '../context.js';
import { boundFilters } from './link-filters.js';
import type { Omission } from './mutations/omissions.js';
import type { Os2moMutationOptions } from './mutations/resolvers.js';
import { v30TypeViews } from './os2mo-view.js';
import { v30QueryResolvers } from './v30.js';

/**
 * What a step changes in OS2mo's mutations: how their resolvers read inputs, and the mutation SDL, changed as
 * a step changes the read SDL (`stepTypeDefs`, which fails on a coordinate it does not find).
 */
export interface WriteStep {
  options?: Partial<Os2moMutationOptions>;
  /** Mutation fields and input fields this version's printout lacks, each with the reason. */
  notInPrintout?: readonly Omission[];
  nullDefaults?: readonly string[];
  /** What this version's printout has and the gateway leaves out here though no newer version has it. */
  omits?: readonly Omission[];
  /** Input types whose meaning the step changes, with the description they have in this version. */
  descriptions?: Readonly<Record<string, string>>;
}

/**
 * One rung of the version ladder: a step back from a version to the one before it, following OS2mo's
 * migration guide (`docs/src/tech-docs/graphql/migration.md`). Each undoes only the breaking change OS2mo made
 * in the newer version, for reads and for writes alike, as OS2mo keeps one shim per version
 * (`mora/graphapi/versions/`). Most of OS2mo's changes touch what the gateway does not serve; such a step
 * changes nothing here and says so.
 */
export interface VersionStep {
  /** The older version this step makes. */
  name: string;
  /** What the newer version changed, which this step undoes for the fields the gateway serves. */
  undoes: string;
  /**
   * Coordinates (`Type.field`, `Type.field(arg:)`, `Input.field`, an input type) OS2mo's printout of this version does not
   * have: OS2mo added them later (and serves them in old versions today), but the version is held to its
   * printout.
   */
  notInPrintout?: readonly string[];
  /** Fields whose type this version had otherwise, with that type (SDL), and `resolvers` to answer it. */
  retyped?: Readonly<Record<string, string>>;
  /** Types this version's printout names otherwise (OS2mo derives a link filter's name from the link). */
  renamedTypes?: Readonly<Record<string, string>>;
  /** Fields whose arguments this version had otherwise, with those arguments (SDL). */
  reargued?: Readonly<Record<string, string>>;
  /** Arguments and input fields that OS2mo's schema of this version gives the default `null`. */
  nullDefaults?: readonly string[];
  /** Input types whose description this version has otherwise. */
  descriptions?: Readonly<Record<string, string>>;
  /** Resolvers that replace the newer version's, for the behaviour this step restores. */
  resolvers?: IResolvers;
  /** The same step for OS2mo's mutations (joined to the reads in `versions.ts`). */
  writes?: WriteStep;
}

const pageArgs = 'limit: int = null, cursor: Cursor = null';

const unserved = (what: string) => `${what}, which the gateway does not serve: nothing to undo here.`;

/** Every `*_response` link v30 serves: OS2mo added them after v25, and v25's printout has none. */
const responseLinks = Object.entries(v30TypeViews).flatMap(([type, view]) =>
  Object.keys(view.fields)
    .filter((field) => /_responses?$/.test(field))
    .map((field) => `${type}.${field}`),
);

/**
 * OS2mo's names for the bound filters before v26, which named a bound filter after the deprecated plural
 * member it binds (`get_bound_filter` then bound `employees`, `org_units`, `facets`, `parents`), so the
 * singular member stays in the filter.
 */
const pluralBound: Readonly<Record<string, { v30: string; base: string; without: string }>> = {
  ...Object.fromEntries(
    ['Address', 'Association', 'Engagement', 'ITUser', 'Leave', 'Manager'].map((type) => [
      `EmployeesBound${type}Filter`,
      { v30: `EmployeeBound${type}Filter`, base: `${type}Filter`, without: 'employees' },
    ]),
  ),
  ...Object.fromEntries(
    ['Address', 'Association', 'Engagement', 'ITUser', 'KLE', 'Leave', 'Manager', 'Owner', 'RelatedUnit'].map(
      (type) => [
        `OrgUnitsbound${type.toLowerCase()}filter`,
        { v30: `OrgUnitbound${type.toLowerCase()}filter`, base: `${type}Filter`, without: 'org_units' },
      ],
    ),
  ),
  FacetsBoundClassFilter: { v30: 'FacetBoundClassFilter', base: 'ClassFilter', without: 'facets' },
  ParentsBoundClassFilter: { v30: 'ParentBoundClassFilter', base: 'ClassFilter', without: 'parents' },
  ParentsBoundFacetFilter: { v30: 'ParentBoundFacetFilter', base: 'FacetFilter', without: 'parents' },
  ParentsBoundOrganisationUnitFilter: {
    v30: 'ParentBoundOrganisationUnitFilter',
    base: 'OrganisationUnitFilter',
    without: 'parents',
  },
};

/** Every bound filter of every version: the collection filter it copies and the members it leaves out. */
const everyBoundFilter: Readonly<Record<string, { base: string; without: readonly string[] }>> = {
  ...boundFilters,
  ...Object.fromEntries(
    Object.entries(pluralBound).map(([name, { base, without }]) => [name, { base, without: [without] }]),
  ),
};

const engagementFraction = ['EngagementCreateInput.fraction', 'EngagementUpdateInput.fraction'];
const listMutations = [
  'engagements_create',
  'engagements_update',
  'managers_create',
  'addresses_create',
  'itusers_create',
].map((field) => `Mutation.${field}`);
const associationSubstitute = ['AssociationCreateInput.substitute', 'AssociationUpdateInput.substitute'];
const orgUnitInputsV21 = [
  ...['uuid', 'user_key', 'parent', 'org_unit_level', 'time_planning', 'org_unit_hierarchy'].map(
    (field) => `OrganisationUnitCreateInput.${field}`,
  ),
  ...[
    'name',
    'user_key',
    'parent',
    'org_unit_type',
    'org_unit_level',
    'time_planning',
    'org_unit_hierarchy',
  ].map((field) => `OrganisationUnitUpdateInput.${field}`),
];

/** Newest first: v29 is a step back from v30, v28 from v29, … v21 from v22. */
export const versionSteps: readonly VersionStep[] = [
  {
    name: 'v29',
    undoes:
      'v30 made `itusers(filter: {external_ids: null})` mean "no external id": a 2.x IT account has none, so null keeps every account either way and nothing changes here.',
  },
  {
    name: 'v28',
    undoes:
      'v29 made validity ends exclusive: before it, `to` is the last day included (its midnight), in what is read and what is written.',
    writes: {
      options: { ends: 'inclusive' },
      notInPrintout: engagementFraction.map((coordinate) => ({
        coordinate,
        reason:
          "absent from OS2mo's printouts of v21, v22 and v25 (added after they were printed); left out below v29 so that each served version stays a subset of its printout",
      })),
      descriptions: {
        RAValidityInput:
          'The period a write is in force: from `from` up to and including `to` (`null`: until further notice).',
      },
    },
    resolvers: {
      Validity: { to: (validity: { to?: string | null }) => validity.to ?? null },
      OpenValidity: { to: (validity: { to?: string | null }) => validity.to ?? null },
    },
  },
  {
    name: 'v27',
    undoes:
      "v28 gave a top-level unit no parent: before it, its `parent_uuid` is the organisation's UUID (`parent` stays null).",
    resolvers: {
      OrganisationUnit: {
        parent_uuid: async (source: Source, _args: unknown, context: GraphQLContext) => {
          const full = 'parent' in source ? source : await context.legacy.orgUnit(source.uuid, source.__at);
          const parent = full?.parent as { uuid?: string } | null | undefined;
          return parent?.uuid ?? (await context.legacy.organisationUuid());
        },
      },
    },
  },
  {
    name: 'v26',
    undoes: unserved("v27 changed the type of each response's `registrations`; registrations are"),
  },
  {
    name: 'v25',
    undoes: unserved('v26 changed the type of the `registrations` collection; registrations are'),
    notInPrintout: [
      'Query.persons',
      'ManagerFilter.manager_type',
      'ClassFilter.name',
      ...responseLinks,
      'Address.ituser_uuid',
      'ITSystem.roles',
      'ITUser.engagement_uuids',
      'Engagement.itusers',
      'ITUser.binding_type',
      'ITUser.engagements',
      'ITUserFilter.binding_types',
      'RoleBinding.ituser_response',
      'RoleBinding.org_unit_response',
      'RoleBinding.role_response',
      'RoleBindingFilter.role',
      'OrganisationUnit.root',
      'EngagementFilter.ituser',
      'FileFilter.file_name_contains',
    ],
    nullDefaults: ['ITUserFilter.external_ids'],
    renamedTypes: Object.fromEntries(Object.entries(pluralBound).map(([name, { v30 }]) => [v30, name])),
    reargued: { 'OrganisationUnit.owners': 'filter: OwnerFilter = null, inherit: Boolean! = false' },
  },
  {
    name: 'v24',
    undoes:
      "v25 made a manager filter's `employee: null` ask for vacant positions: before it, null is the same as leaving it out (and the filter declares `= null`).",
    nullDefaults: [
      'ManagerFilter.employee',
      'EngagementFilter.employee',
      ...['Owner', 'Address', 'Association', 'ITUser', 'Leave'].map((type) => `${type}Filter.employee`),
    ],
    resolvers: v30QueryResolvers({ nullEmployeeIsAbsent: true }),
  },
  {
    name: 'v23',
    undoes:
      "v24 bound `OrganisationUnit.managers`' filter to the unit (and paged it): before it, the link takes the whole `ManagerFilter` and no page.",
    reargued: { 'OrganisationUnit.managers': 'filter: ManagerFilter = null, inherit: Boolean! = false' },
  },
  {
    name: 'v22',
    undoes: 'v23 made `KLE.kle_number` a list: before it, the KLE number itself.',
    notInPrintout: ['ManagerFilter.exclude', 'Engagement.managers'],
    retyped: { 'KLE.kle_number': 'Class!' },
    resolvers: {
      KLE: {
        kle_number: (source: Source) =>
          source.kle_number ? withDate(source.kle_number as Source, source.__at) : null,
      },
    },
  },
  {
    name: 'v21',
    // OS2mo `mora/graphapi/org_unit.py`, `update_org_unit`: `strip_none` up to VERSION_21.
    undoes:
      'v22 gave `org_unit_update` PATCH semantics: before it, a `null` is ignored like a field left out.',
    writes: {
      options: { orgUnitUpdateNull: 'keep' },
      notInPrintout: [
        ...[...listMutations, ...associationSubstitute].map((coordinate) => ({
          coordinate,
          reason: "absent from OS2mo's printout of v21",
        })),
      ],
      nullDefaults: orgUnitInputsV21,
      omits: ['role_create', 'role_update', 'role_terminate', 'role_refresh'].map((field) => ({
        coordinate: `Mutation.${field}`,
        reason:
          "in OS2mo's printout of v21 (2024), but OS2mo has since replaced roles by role bindings in every version it serves (36.0.0)",
      })),
    },
    notInPrintout: [
      ...[
        'OrganisationUnit',
        'Employee',
        'Engagement',
        'Manager',
        'Class',
        'Facet',
        'ITSystem',
        'Owner',
        'Address',
        'Association',
        'ITUser',
        'KLE',
        'Leave',
        'RelatedUnit',
      ].flatMap((type) => [
        `${type}Response.current(at:)`,
        `${type}Response.objects(start:)`,
        `${type}Response.objects(end:)`,
        `${type}Response.validities(start:)`,
        `${type}Response.validities(end:)`,
      ]),
      'Employee.manager_roles(inherit:)',
      'Query.managers(inherit:)',
      'Address.ituser',
      'Association.trade_union',
      'ITUser.addresses',
      'Association.trade_union_uuid',
      'ITUser.external_id',
      'AddressFilter.ituser',
      'AddressFilter.visibility',
      'ITUserFilter.engagement',
      'ITUserFilter.external_ids',
      'OrganisationUnit.has_children',
      'ClassFilter.owner',
      'ClassOwnerFilter',
      'EngagementFilter.engagement_type',
      'ITUser.rolebindings',
      'Query.rolebindings',
      'RoleBinding',
      'RoleBindingFilter',
      'RoleBindingResponse',
      'RoleBindingResponsePaged',
      ...['names', 'child', 'subtree', 'descendant', 'ancestor', 'engagement'].flatMap((member) => [
        `OrganisationUnitFilter.${member}`,
        `ParentsBoundOrganisationUnitFilter.${member}`,
      ]),
    ],
    reargued: {
      'OrganisationUnit.owners': `filter: OrgUnitsboundownerfilter, ${pageArgs}`,
      'OrganisationUnit.child_count': `filter: ParentsBoundOrganisationUnitFilter, ${pageArgs}`,
    },
  },
];

/**
 * A field whose deprecation reason sends a client to a field this version no longer has (`Use
 * \`person_response\`.` before OS2mo added the response links) keeps no reason: it has no replacement here.
 */
function withoutDeadEnd(node: FieldDefinitionNode, typeName: string, removed: ReadonlySet<string>) {
  const directive = node.directives?.find((candidate) => candidate.name.value === 'deprecated');
  const reason = directive?.arguments?.find((argument) => argument.name.value === 'reason')?.value;
  const target = reason?.kind === Kind.STRING ? /`(\w+)/.exec(reason.value)?.[1] : undefined;
  if (!directive || target === undefined || !removed.has(`${typeName}.${target}`)) return undefined;
  return { ...node, directives: node.directives?.filter((candidate) => candidate !== directive) };
}

/**
 * The newer version's SDL less the step's `notInPrintout` coordinates (an input type among them), with its
 * types renamed and its `nullDefaults` set. Fails on
 * a coordinate the SDL does not have, so a step cannot outlive what it changes.
 */
export function stepTypeDefs(typeDefs: string, step: VersionStep): string {
  const removed = new Set(step.notInPrintout ?? []);
  const nullDefaults = new Set(step.nullDefaults ?? []);
  const retyped = step.retyped ?? {};
  const applied = new Set<string>();
  let typeName = '';
  let fieldName: string | null = null;
  const renamed = step.renamedTypes ?? {};
  const descriptions = step.descriptions ?? {};
  const enterType = (node: { name: { value: string } }) => {
    typeName = node.name.value;
    fieldName = null;
    if (!removed.has(typeName)) return undefined;
    applied.add(typeName);
    return null;
  };
  const document = visit(parse(typeDefs), {
    ObjectTypeDefinition: { enter: enterType },
    InputObjectTypeDefinition: {
      enter: (node) => {
        if (removed.has(node.name.value)) {
          applied.add(node.name.value);
          return null;
        }
        enterType(node);
        const description = descriptions[node.name.value];
        if (description === undefined) return undefined;
        applied.add(node.name.value);
        return { ...node, description: { kind: Kind.STRING, value: description, block: true } };
      },
    },
    Name: (node) => {
      const name = renamed[node.value];
      if (name === undefined) return undefined;
      applied.add(node.value);
      return { ...node, value: name };
    },
    FieldDefinition: {
      enter: (node) => {
        fieldName = node.name.value;
        const coordinate = `${typeName}.${fieldName}`;
        const type = retyped[coordinate];
        if (type !== undefined) {
          applied.add(coordinate);
          return { ...node, type: parseType(type) };
        }
        const args = step.reargued?.[coordinate];
        if (args !== undefined) {
          applied.add(coordinate);
          return { ...node, arguments: argumentsOf(args) };
        }
        if (!removed.has(coordinate)) return withoutDeadEnd(node, typeName, removed);
        applied.add(coordinate);
        return null;
      },
      leave: () => {
        fieldName = null;
        return undefined;
      },
    },
    InputValueDefinition: (node) => {
      // Inside a field definition it is an argument; directly in an input type, an input field.
      const coordinate =
        fieldName === null
          ? `${typeName}.${node.name.value}`
          : `${typeName}.${fieldName}(${node.name.value}:)`;
      if (removed.has(coordinate)) {
        applied.add(coordinate);
        return null;
      }
      if (!nullDefaults.has(coordinate)) return undefined;
      applied.add(coordinate);
      return { ...node, defaultValue: { kind: Kind.NULL } };
    },
  });
  const missing = [
    ...removed,
    ...nullDefaults,
    ...Object.keys(retyped),
    ...Object.keys(renamed),
    ...Object.keys(step.reargued ?? {}),
    ...Object.keys(descriptions),
  ].filter((coordinate) => !applied.has(coordinate));
  if (missing.length > 0) {
    throw new Error(
      `${step.name}'s step names ${missing.join(', ')}, which the newer version does not have.`,
    );
  }
  return print(withBoundFilters(document));
}

/** A bound filter's member less its deprecation when it sends a client to a member the filter binds. */
function withoutBoundTarget(field: InputValueDefinitionNode, without: readonly string[]) {
  const directive = field.directives?.find((candidate) => candidate.name.value === 'deprecated');
  const reason = directive?.arguments?.find((argument) => argument.name.value === 'reason')?.value;
  const target = reason?.kind === Kind.STRING ? /`(\w+)/.exec(reason.value)?.[1] : undefined;
  if (!directive || target === undefined || !without.includes(target)) return field;
  return { ...field, directives: field.directives?.filter((candidate) => candidate !== directive) };
}

/** The argument definitions of a field's argument list written as SDL. */
function argumentsOf(args: string) {
  const document = parse(`type T { f(${args}): Int }`);
  const [type] = document.definitions;
  if (type?.kind !== Kind.OBJECT_TYPE_DEFINITION) throw new Error(`Not an argument list: ${args}.`);
  return type.fields?.[0]?.arguments ?? [];
}

/**
 * The document with each bound filter an argument names made again from its collection filter (less the
 * members it binds), and bound filters no argument names left out: a step that changes a collection
 * filter changes its bound filters with it, as OS2mo derives them.
 */
function withBoundFilters(document: DocumentNode): DocumentNode {
  const inputs = new Map<string, InputObjectTypeDefinitionNode>();
  const named = new Set<string>();
  visit(document, {
    InputObjectTypeDefinition: (node) => {
      inputs.set(node.name.value, node);
    },
    FieldDefinition: (node) => {
      for (const argument of node.arguments ?? []) {
        let type = argument.type;
        while (type.kind !== Kind.NAMED_TYPE) type = type.type;
        named.add(type.name.value);
      }
    },
  });
  const made = (name: string): InputObjectTypeDefinitionNode | null => {
    const bound = everyBoundFilter[name];
    const base = bound && inputs.get(bound.base);
    if (!bound || !base) return null;
    const fields = base.fields
      ?.filter((field) => !bound.without.includes(field.name.value))
      .map((field) => withoutBoundTarget(field, bound.without));
    return { ...base, name: { kind: Kind.NAME, value: name }, fields };
  };
  const definitions: DefinitionNode[] = [];
  for (const definition of document.definitions) {
    const name = definition.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION ? definition.name.value : '';
    if (!(name in everyBoundFilter)) definitions.push(definition);
    else if (named.has(name)) definitions.push(made(name) ?? definition);
  }
  for (const name of named) {
    const added = name in everyBoundFilter && !inputs.has(name) ? made(name) : null;
    if (added) definitions.push(added);
  }
  return { ...document, definitions };
}
