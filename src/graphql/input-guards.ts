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

/**
 * Variables are bounded before anything else reads them (the answer cache hashes them, Apollo
 * coerces them, hasNul walks them): deeper than `depth` nested objects or arrays, or more than
 * `values` values in all, is a 400. No studio operation comes near (a broadcast input is 3 deep).
 * The walk is iterative, so a 5,000-deep document cannot exhaust the stack while it is measured.
 */
export const VARIABLE_LIMITS = { depth: 10, values: 10_000 } as const;
export const VARIABLE_CODES = { depth: 'variables_too_deep', values: 'variables_too_large' } as const;

export function variablesRefusal(raw: unknown): { code: string; message: string } | null {
  let value = raw;
  if (typeof raw === 'string') {
    // GET carries them as JSON text; what does not parse is left to Apollo to refuse.
    try {
      value = JSON.parse(raw);
    } catch {
      return null;
    }
  }
  const stack: [unknown, number][] = [[value, 0]];
  let count = 0;
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (++count > VARIABLE_LIMITS.values) {
      return {
        code: VARIABLE_CODES.values,
        message: `the variables hold more than ${VARIABLE_LIMITS.values} values; at most ${VARIABLE_LIMITS.values} are allowed`,
      };
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= VARIABLE_LIMITS.depth) {
      return {
        code: VARIABLE_CODES.depth,
        message: `the variables nest deeper than ${VARIABLE_LIMITS.depth} levels; at most ${VARIABLE_LIMITS.depth} are allowed`,
      };
    }
    for (const x of Array.isArray(v) ? v : Object.values(v)) stack.push([x, depth + 1]);
  }
  return null;
}
