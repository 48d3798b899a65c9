import {
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isSpecifiedDirective,
  isSpecifiedScalarType,
  isIntrospectionType,
  isUnionType,
  astFromValue,
  print,
  type GraphQLArgument,
  type GraphQLInputField,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';

/**
 * How a served schema differs from OS2mo's schema of the same version, by schema coordinate
 * (`Type`, `Type.field`, `Type.field(arg:)`, `Input.field`, `Enum.VALUE`, `@directive`).
 */
export interface SchemaDifferences {
  /** What we serve that OS2mo does not have, or has otherwise (another kind, type or default): must be none. */
  conflicts: string[];
  /**
   * What OS2mo has that we do not serve. A missing type is one coordinate (its fields are not listed again);
   * a missing field, argument, input field or enum value of a type we serve is its own coordinate.
   */
  omissions: string[];
}

function kindOf(type: GraphQLNamedType): string {
  if (isObjectType(type)) return 'object';
  if (isInterfaceType(type)) return 'interface';
  if (isUnionType(type)) return 'union';
  if (isEnumType(type)) return 'enum';
  if (isInputObjectType(type)) return 'input';
  return 'scalar';
}

const isBuiltIn = (type: GraphQLNamedType) => isIntrospectionType(type) || isSpecifiedScalarType(type);

/** An argument's or input field's default as GraphQL prints it, or `-` for none. */
function defaultOf(input: GraphQLArgument | GraphQLInputField): string {
  if (input.defaultValue === undefined) return '-';
  const ast = astFromValue(input.defaultValue, input.type);
  return ast ? print(ast) : 'null';
}

/** Compares named members (fields, arguments, enum values) by name and by a signature each side prints. */
function compareMembers<T>(
  coordinate: (name: string) => string,
  ours: ReadonlyMap<string, T>,
  theirs: ReadonlyMap<string, T>,
  signature: (member: T) => string,
  differences: SchemaDifferences,
  nested?: (name: string, ours: T, theirs: T) => void,
): void {
  for (const [name, member] of ours) {
    const reference = theirs.get(name);
    if (reference === undefined) {
      differences.conflicts.push(`${coordinate(name)}: OS2mo has no such member`);
      continue;
    }
    if (signature(member) !== signature(reference)) {
      differences.conflicts.push(
        `${coordinate(name)}: ours is ${signature(member)}, OS2mo's is ${signature(reference)}`,
      );
    }
    nested?.(name, member, reference);
  }
  for (const name of theirs.keys()) if (!ours.has(name)) differences.omissions.push(coordinate(name));
}

const byName = <T extends { name: string }>(items: readonly T[]) =>
  new Map(items.map((item) => [item.name, item]));
const inputSignature = (input: GraphQLArgument | GraphQLInputField) =>
  `${String(input.type)} = ${defaultOf(input)}`;

function compareType(ours: GraphQLNamedType, theirs: GraphQLNamedType, differences: SchemaDifferences): void {
  const name = ours.name;
  if (kindOf(ours) !== kindOf(theirs)) {
    differences.conflicts.push(`${name}: ours is ${kindOf(ours)}, OS2mo's is ${kindOf(theirs)}`);
    return;
  }
  if ((isObjectType(ours) || isInterfaceType(ours)) && (isObjectType(theirs) || isInterfaceType(theirs))) {
    for (const face of ours.getInterfaces()) {
      if (!theirs.getInterfaces().some((other) => other.name === face.name)) {
        differences.conflicts.push(`${name}: OS2mo's does not implement ${face.name}`);
      }
    }
    compareMembers(
      (field) => `${name}.${field}`,
      new Map(Object.entries(ours.getFields())),
      new Map(Object.entries(theirs.getFields())),
      (field) => String(field.type),
      differences,
      (field, ourField, theirField) =>
        compareMembers(
          (arg) => `${name}.${field}(${arg}:)`,
          byName(ourField.args),
          byName(theirField.args),
          inputSignature,
          differences,
        ),
    );
  } else if (isInputObjectType(ours) && isInputObjectType(theirs)) {
    compareMembers(
      (field) => `${name}.${field}`,
      new Map(Object.entries(ours.getFields())),
      new Map(Object.entries(theirs.getFields())),
      inputSignature,
      differences,
    );
  } else if (isEnumType(ours) && isEnumType(theirs)) {
    compareMembers(
      (value) => `${name}.${value}`,
      byName(ours.getValues()),
      byName(theirs.getValues()),
      () => 'value',
      differences,
    );
  } else if (isUnionType(ours) && isUnionType(theirs)) {
    compareMembers(
      (member) => `${name}.${member}`,
      byName(ours.getTypes()),
      byName(theirs.getTypes()),
      () => 'member',
      differences,
    );
  }
}

/**
 * Everything `served` has that OS2mo's `reference` does not (or has with another type or default), and
 * everything `reference` has that `served` leaves out. Descriptions and deprecations are not compared: the
 * interface is names, types, arguments and defaults.
 */
export function schemaDifferences(served: GraphQLSchema, reference: GraphQLSchema): SchemaDifferences {
  const differences: SchemaDifferences = { conflicts: [], omissions: [] };
  const ourTypes = served.getTypeMap();
  const theirTypes = reference.getTypeMap();
  for (const [name, type] of Object.entries(ourTypes)) {
    if (isBuiltIn(type)) continue;
    const theirs = theirTypes[name];
    if (!theirs) differences.conflicts.push(`${name}: OS2mo has no such type`);
    else compareType(type, theirs, differences);
  }
  for (const [name, type] of Object.entries(theirTypes)) {
    if (!isBuiltIn(type) && !ourTypes[name]) differences.omissions.push(name);
  }
  const theirDirectives = new Set(reference.getDirectives().map((directive) => directive.name));
  const ourDirectives = new Set(served.getDirectives().map((directive) => directive.name));
  for (const directive of served.getDirectives()) {
    if (!isSpecifiedDirective(directive) && !theirDirectives.has(directive.name)) {
      differences.conflicts.push(`@${directive.name}: OS2mo has no such directive`);
    }
  }
  for (const directive of reference.getDirectives()) {
    if (!isSpecifiedDirective(directive) && !ourDirectives.has(directive.name)) {
      differences.omissions.push(`@${directive.name}`);
    }
  }
  differences.conflicts.sort();
  differences.omissions.sort();
  return differences;
}

/** A declared omission: the coordinate left out and why the Service API cannot back it (or why not yet). */
export type OmissionList = Readonly<Record<string, string>>;

/**
 * The two ways a declared omission list can be wrong: something left out without a declaration, and a
 * declaration for something that is served (or that OS2mo no longer has).
 */
export function omissionMismatch(
  differences: SchemaDifferences,
  declared: OmissionList,
): { undeclared: string[]; stale: string[] } {
  const actual = new Set(differences.omissions);
  return {
    undeclared: differences.omissions.filter((coordinate) => !(coordinate in declared)),
    stale: Object.keys(declared)
      .filter((coordinate) => !actual.has(coordinate))
      .sort(),
  };
}
