import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { GraphQLArmorRejectCallback } from '@escape.tech/graphql-armor-types';
import { GraphQLError, Lexer, Source, TokenKind, type ValidationRule } from 'graphql';

/**
 * The limits a studio operation must keep to, checked before anything runs. The figures and the
 * reasons are in docs/adr/0006-studio-graphql.md ("Query limits"); the dashboard query is depth 8,
 * cost ~7,100, 97 tokens, no aliases, no directives.
 */
export const QUERY_LIMITS = {
  /** Fields on the longest path (fragments followed, inline fragments flattened). */
  depth: 10,
  /** graphql-armor's estimate: objects 2, scalars 1, x1.5 per level, x`first` under a paged field. */
  cost: 20_000,
  aliases: 15,
  directives: 20,
  /** Lexical tokens of the document; the parser stops at the first one over. */
  tokens: 1_000,
} as const;

/** The extensions.code of each refusal; the HTTP status is 400, like any invalid document. */
export const LIMIT_CODES = {
  depth: 'query_too_deep',
  cost: 'query_too_costly',
  aliases: 'too_many_aliases',
  directives: 'too_many_directives',
  tokens: 'too_many_tokens',
} as const;

type Limit = keyof typeof QUERY_LIMITS;
const KNOWN_CODES: ReadonlySet<string> = new Set(Object.values(LIMIT_CODES));

const MESSAGES: Record<Exclude<Limit, 'tokens'>, (found: string, max: number) => string> = {
  depth: (found, max) => `the query is ${found} levels deep; at most ${max} are allowed`,
  cost: (found, max) => `the query costs an estimated ${found}; at most ${max} is allowed (ask for smaller pages or fewer fields)`,
  aliases: (found, max) => `the query uses ${found} aliases; at most ${max} are allowed`,
  directives: (found, max) => `the query uses ${found} directives; at most ${max} are allowed`,
};

export const tooManyTokensMessage = (max: number = QUERY_LIMITS.tokens) =>
  `the document has more than ${max} tokens; at most ${max} are allowed (send one smaller operation)`;

/** True when the code is one of the limits' own codes (formatError keeps those as they are). */
export const isLimitCode = (code: unknown): boolean => typeof code === 'string' && KNOWN_CODES.has(code);

/**
 * graphql-armor reports "... limit of N exceeded, found X."; the refusal is re-reported on the
 * validation context with the project's code and a message that names the limit.
 */
function reportAs(limit: Exclude<Limit, 'tokens'>): GraphQLArmorRejectCallback {
  return (context, error) => {
    // the figure may have decimals, and the sentence ends with a period: "found 20123.75."
    const found = /found (\d+(?:\.\d+)?)/.exec(error.message)?.[1];
    const rounded = found === undefined ? 'over the limit' : String(Math.ceil(Number(found)));
    context?.reportError(new GraphQLError(MESSAGES[limit](rounded, QUERY_LIMITS[limit]), { extensions: { code: LIMIT_CODES[limit] } }));
  };
}

/**
 * The validation rules (depth, cost, aliases, directives) and plugins (field suggestions hidden
 * in production) from graphql-armor's Apollo integration. Every armor rule caches each fragment's
 * figure the first time it meets it, so the work is linear in the document whatever its spreads.
 * Armor's own token plugin is off: it throws from `parsingDidStart`, which Apollo Server 5 answers
 * with a 500; tokens are counted by `tooManyTokens` before Apollo, and graphql-js's parser stops at
 * the same limit behind it (`parseOptions`).
 * Outside production the introspection query (`__schema`) is exempt from depth and cost, so the
 * Sandbox and codegen work; in production introspection is refused altogether.
 */
export function queryLimits(env: string): { validationRules: ValidationRule[]; plugins: ApolloServerPlugin[]; parseOptions: { maxTokens: number } } {
  const production = env === 'production';
  const armor = new ApolloArmor({
    maxTokens: { enabled: false },
    blockFieldSuggestion: { enabled: production },
    maxDepth: { n: QUERY_LIMITS.depth, ignoreIntrospection: !production, flattenFragments: true, propagateOnRejection: false, onReject: [reportAs('depth')] },
    costLimit: { maxCost: QUERY_LIMITS.cost, ignoreIntrospection: !production, propagateOnRejection: false, onReject: [reportAs('cost')] },
    maxAliases: { n: QUERY_LIMITS.aliases, propagateOnRejection: false, onReject: [reportAs('aliases')] },
    maxDirectives: { n: QUERY_LIMITS.directives, propagateOnRejection: false, onReject: [reportAs('directives')] },
  }).protect();
  return { validationRules: armor.validationRules, plugins: armor.plugins, parseOptions: { maxTokens: QUERY_LIMITS.tokens } };
}

/**
 * True when `source` has more than `max` lexical tokens (comments excluded). Stops at token max + 1,
 * so a huge document costs no more than a small one; a lexical error is left to the parser to report.
 */
export function tooManyTokens(source: string, max: number = QUERY_LIMITS.tokens): boolean {
  const lexer = new Lexer(new Source(source));
  let n = 0;
  try {
    while (lexer.advance().kind !== TokenKind.EOF) if (++n > max) return true;
  } catch {
    return false;
  }
  return false;
}

/** graphql-js's own refusal (`maxTokens`, the backstop) rewritten with the project's code. */
export function tokenLimitError(message: string): { message: string; code: string } | null {
  const m = /^Syntax Error: Document contains more tha[nt] (\d+) tokens/.exec(message);
  return m ? { message: tooManyTokensMessage(Number(m[1])), code: LIMIT_CODES.tokens } : null;
}
