import { GraphQLError, Kind, type ASTVisitor, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext } from 'graphql';

/** A page size written as a variable is priced at the largest page a connection allows. */
const VARIABLE_PAGE = 100;
const DEFAULT_PAGE = 20;
const PAGED_ARGUMENTS = new Set(['first', 'last', 'limit']);

/**
 * Refuses a query whose estimated cost is over `max` before it runs: each field costs 1, and
 * the selections under a paged field (`first: n`) cost n times over, as each of the n items
 * resolves them. Unpaged lists count once: they are bounded by the data model.
 */
export function costLimit(max: number) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of context.getDocument().definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    const multiplier = (field: FieldNode): number => {
      const arg = field.arguments?.find((a) => PAGED_ARGUMENTS.has(a.name.value));
      if (!arg) return field.name.value === 'broadcasts' || field.name.value === 'deliveries' ? DEFAULT_PAGE : 1;
      return arg.value.kind === Kind.INT ? Math.max(1, Number(arg.value.value)) : VARIABLE_PAGE;
    };
    const costOf = (set: SelectionSetNode | undefined, seen: Set<string>): number => {
      if (!set) return 0;
      let total = 0;
      for (const sel of set.selections) {
        if (sel.kind === Kind.FIELD) total += 1 + multiplier(sel) * costOf(sel.selectionSet, seen);
        else if (sel.kind === Kind.INLINE_FRAGMENT) total += costOf(sel.selectionSet, seen);
        else if (!seen.has(sel.name.value)) total += costOf(fragments.get(sel.name.value)?.selectionSet, new Set([...seen, sel.name.value]));
      }
      return total;
    };
    return {
      OperationDefinition(node) {
        const cost = costOf(node.selectionSet, new Set());
        if (cost > max) context.reportError(new GraphQLError(`the query costs an estimated ${cost}; at most ${max} is allowed (ask for smaller pages)`, { nodes: [node], extensions: { code: 'query_too_costly' } }));
      },
    };
  };
}
