import { GraphQLError, Kind, type ValidationContext, type ASTVisitor, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

/**
 * Refuses a query whose longest path has more than `max` fields (fragments followed), before it runs:
 * the dashboard needs eight; an abusive query needs many more.
 */
export function depthLimit(max: number) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of context.getDocument().definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    const depthOf = (set: SelectionSetNode | undefined, seen: Set<string>): number => {
      if (!set) return 0;
      let deepest = 0;
      for (const sel of set.selections) {
        if (sel.kind === Kind.FIELD) deepest = Math.max(deepest, 1 + depthOf(sel.selectionSet, seen));
        else if (sel.kind === Kind.INLINE_FRAGMENT) deepest = Math.max(deepest, depthOf(sel.selectionSet, seen));
        else if (!seen.has(sel.name.value)) deepest = Math.max(deepest, depthOf(fragments.get(sel.name.value)?.selectionSet, new Set([...seen, sel.name.value])));
      }
      return deepest;
    };
    return {
      OperationDefinition(node) {
        const depth = depthOf(node.selectionSet, new Set());
        if (depth > max) context.reportError(new GraphQLError(`the query is ${depth} levels deep; at most ${max} are allowed`, { nodes: [node], extensions: { code: 'query_too_deep' } }));
      },
    };
  };
}
