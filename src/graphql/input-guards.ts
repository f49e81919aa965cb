import { GraphQLError, type ASTVisitor, type ValidationContext } from 'graphql';

/**
 * PostgreSQL text cannot hold U+0000: a string carrying it would fail in the driver (an internal
 * error) wherever it reaches SQL. It is refused up front, in literals and in variables alike.
 */
export const NUL_CODE = 'invalid_string';
export const NUL_MESSAGE = 'strings may not contain the NUL character (U+0000)';

export function noNulInStringLiterals(context: ValidationContext): ASTVisitor {
  return {
    StringValue(node) {
      if (node.value.includes('\u0000')) context.reportError(new GraphQLError(NUL_MESSAGE, { nodes: [node], extensions: { code: NUL_CODE } }));
    },
  };
}

/** True when a JSON value (the request's variables) holds a string, or a key, with U+0000. */
export function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string' && depth === 0) return value.includes('\u0000') || hasNul(parseJson(value), 1);
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((x) => hasNul(x, depth + 1));
  return Object.entries(value).some(([k, x]) => k.includes('\u0000') || hasNul(x, depth + 1));
}

/** GET carries the variables as JSON text; what does not parse is left to Apollo to refuse. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
