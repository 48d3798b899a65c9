import {
  Kind,
  parse,
  print,
  visit,
  type DocumentNode,
  type FieldDefinitionNode,
  type InputValueDefinitionNode,
} from 'graphql';
import { newestMutationOptions, type Os2moMutationOptions } from './resolvers.js';
import type { Omission } from './omissions.js';

/**
 * One step down from a version to the one before it: the options its resolvers read inputs with, and the
 * change its SDL undoes. Each step is as small as the change it undoes (OS2mo's migration guide,
 * `docs/src/tech-docs/graphql/migration.md`, and its printouts of v21, v22 and v25).
 */
interface VersionStep {
  /** The version this step produces (from the one above it). */
  version: number;
  options?: Partial<Os2moMutationOptions>;
  sdl?: (document: DocumentNode) => DocumentNode;
  /** What the step leaves out of the SDL, with the reason. */
  omits?: readonly Omission[];
}

/** Removes input fields (`Type.field`) and Mutation fields (`Mutation.field`) from the SDL. */
function withoutFields(coordinates: readonly string[]) {
  return (document: DocumentNode) => {
    let parent = '';
    const enter = (node: { name: { value: string } }) => {
      parent = node.name.value;
    };
    const drop = (node: InputValueDefinitionNode | FieldDefinitionNode) =>
      coordinates.includes(`${parent}.${node.name.value}`) ? null : undefined;
    return visit(document, {
      InputObjectTypeDefinition: { enter },
      ObjectTypeDefinition: { enter },
      InputValueDefinition: (node) => (parent.endsWith('Input') ? drop(node) : undefined),
      FieldDefinition: drop,
    });
  };
}

/** Gives the named input fields (`Type.field`) a `= null` default. */
function withNullDefaults(coordinates: readonly string[]) {
  return (document: DocumentNode) => {
    let parent = '';
    const enter = (node: { name: { value: string } }) => {
      parent = node.name.value;
    };
    return visit(document, {
      InputObjectTypeDefinition: { enter },
      ObjectTypeDefinition: { enter },
      InputValueDefinition: (node) =>
        coordinates.includes(`${parent}.${node.name.value}`) && !node.defaultValue
          ? { ...node, defaultValue: { kind: Kind.NULL } }
          : undefined,
    });
  };
}

/** Replaces a type's description, where a step changes what the type means. */
function withDescription(type: string, description: string) {
  return (document: DocumentNode) =>
    visit(document, {
      InputObjectTypeDefinition: (node) =>
        node.name.value === type
          ? { ...node, description: { kind: Kind.STRING, value: description, block: true } }
          : undefined,
    });
}

/** Applies SDL changes in turn. */
const chain =
  (...changes: ((document: DocumentNode) => DocumentNode)[]) =>
  (document: DocumentNode) =>
    changes.reduce((changed, change) => change(changed), document);

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
  ...['uuid', 'user_key', 'parent', 'org_unit_level', 'time_planning'].map(
    (field) => `OrganisationUnitCreateInput.${field}`,
  ),
  ...['name', 'user_key', 'parent', 'org_unit_type', 'org_unit_level', 'time_planning'].map(
    (field) => `OrganisationUnitUpdateInput.${field}`,
  ),
];

/** The steps from v30 down, newest first. A version without a step of its own is the one above it. */
const steps: readonly VersionStep[] = [
  // migration.md "Version 29": before it, a `to` date was the last day of the period (inclusive).
  {
    version: 28,
    options: { ends: 'inclusive' },
    sdl: chain(
      withoutFields(engagementFraction),
      withDescription(
        'RAValidityInput',
        'The period a write is in force: from `from` up to and including `to` (`null`: until further notice).',
      ),
    ),
    omits: engagementFraction.map((coordinate) => ({
      coordinate,
      reason:
        "absent from OS2mo's printouts of v21, v22 and v25 (added after they were printed); left out below v29 so that each served version stays a subset of its printout",
    })),
  },
  // migration.md "Version 22": before it, `org_unit_update` ignored a `null` like a field left out
  // (OS2mo `mora/graphapi/org_unit.py`, `update_org_unit`: `strip_none` up to VERSION_21).
  {
    version: 21,
    options: { orgUnitUpdateNull: 'keep' },
    sdl: (document) =>
      withNullDefaults(orgUnitInputsV21)(
        withoutFields([...listMutations, ...associationSubstitute])(document),
      ),
    omits: [
      ...[...listMutations, ...associationSubstitute].map((coordinate) => ({
        coordinate,
        reason: "absent from OS2mo's printout of v21",
      })),
      ...['role_create', 'role_update', 'role_terminate'].map((field) => ({
        coordinate: `Mutation.${field}`,
        reason:
          "in OS2mo's printout of v21 (2024), but OS2mo has since replaced roles by role bindings in every version it serves (36.0.0)",
      })),
    ],
  },
];

/** The versions this module serves, oldest first: OS2mo serves v21 to v30. */
export const os2moVersions = [21, 22, 23, 24, 25, 26, 27, 28, 29, 30] as const;
export type Os2moVersion = (typeof os2moVersions)[number];

/** The names of the `Mutation` fields an SDL document defines. */
function mutationFields(document: DocumentNode): string[] {
  return document.definitions.flatMap((definition) =>
    definition.kind === Kind.OBJECT_TYPE_DEFINITION && definition.name.value === 'Mutation'
      ? (definition.fields ?? []).map((field) => field.name.value)
      : [],
  );
}

/** A version's SDL, its Mutation fields and resolver options: v30's, with every step down to it applied. */
export function mutationVersion(
  newestTypeDefs: string,
  version: Os2moVersion,
): { typeDefs: string; fields: string[]; options: Os2moMutationOptions; omits: Omission[] } {
  const applied = steps.filter((step) => step.version >= version);
  let document = parse(newestTypeDefs);
  let options = newestMutationOptions;
  for (const step of applied) {
    if (step.sdl) document = step.sdl(document);
    options = { ...options, ...step.options };
  }
  return {
    typeDefs: print(document),
    fields: mutationFields(document),
    options,
    omits: applied.flatMap((step) => step.omits ?? []),
  };
}
