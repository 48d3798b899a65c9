import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/** The fields selected directly under `selectionSet`, through fragments, by name. */
function childFields(selectionSet: SelectionSetNode | undefined, info: GraphQLResolveInfo): FieldNode[] {
  if (!selectionSet) return [];
  return selectionSet.selections.flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return [selection];
    if (selection.kind === Kind.INLINE_FRAGMENT) return childFields(selection.selectionSet, info);
    const fragment = info.fragments[selection.name.value];
    return fragment ? childFields(fragment.selectionSet, info) : [];
  });
}

/**
 * The field nodes reached by following `path` from the current field (e.g. `['objects', 'managers']`),
 * so a root resolver can start the loads its children will need in the same round.
 */
export function selectedFields(info: GraphQLResolveInfo, path: readonly string[]): FieldNode[] {
  let nodes: FieldNode[] = [...info.fieldNodes];
  for (const name of path) {
    nodes = nodes
      .flatMap((node) => childFields(node.selectionSet, info))
      .filter((node) => node.name.value === name);
  }
  return nodes;
}

/** True when every selection of the field uses its default arguments, so a prefetch matches the real load. */
export function usesDefaultArguments(nodes: readonly FieldNode[]): boolean {
  return nodes.length > 0 && nodes.every((node) => (node.arguments ?? []).length === 0);
}

/** The names of the fields selected directly under `path`. */
export function childFieldNames(info: GraphQLResolveInfo, path: readonly string[]): string[] {
  return selectedFields(info, path).flatMap((node) =>
    childFields(node.selectionSet, info).map((child) => child.name.value),
  );
}
