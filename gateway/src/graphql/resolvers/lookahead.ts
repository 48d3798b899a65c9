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

/** `selectedFields`' answers by the field's node and path; a node goes with its document. */
const selectedByNode = new WeakMap<FieldNode, Map<string, FieldNode[]>>();

/**
 * The field nodes reached by following `path` from the current field (e.g. `['objects', 'managers']`),
 * so a root resolver can start the loads its children will need in the same round.
 */
export function selectedFields(info: GraphQLResolveInfo, path: readonly string[]): FieldNode[] {
  // The answer depends only on the document, whose parsed nodes Yoga's parser cache hands every request
  // that sends the same text: kept per field node, the walk is done once per document, not per request.
  const first = info.fieldNodes[0];
  const key = path.join('.');
  const known = first && info.fieldNodes.length === 1 ? selectedByNode.get(first) : undefined;
  const cached = known?.get(key);
  if (cached) return cached;
  let nodes: FieldNode[] = [...info.fieldNodes];
  for (const name of path) {
    nodes = nodes
      .flatMap((node) => childFields(node.selectionSet, info))
      .filter((node) => node.name.value === name);
  }
  if (first && info.fieldNodes.length === 1) {
    if (known) known.set(key, nodes);
    else selectedByNode.set(first, new Map([[key, nodes]]));
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
