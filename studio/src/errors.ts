import type { CombinedError } from 'urql';

/**
 * The one place where the API's error codes become sentences for people. The API's own message
 * (which names the figures: the plan, the slots) is kept beside the sentence.
 */
const SENTENCES: Record<string, string> = {
  billing_inactive: "This channel's billing is not active (past due or canceled), so it cannot go live. Settle the billing first.",
  plan_forbids_source: "This channel's plan does not allow this source: streaming to the ingest server needs the Pro or Broadcaster plan.",
  no_live_slot: 'Every live slot of this channel is in use. End another live broadcast, or move to a plan with more slots.',
  invalid_state: 'This cannot be done in the broadcast’s current state.',
  forbidden: 'Your role on this channel does not allow this.',
  not_found: 'This no longer exists, or it is not on a channel of yours.',
  invalid_credentials: 'The email or the password is wrong.',
  rate_limited: 'Too many attempts. Wait a minute, then try again.',
  unauthenticated: 'Your session has ended. Sign in again.',
  invalid_key: 'Your session has ended. Sign in again.',
  invalid_url: 'The URL is not accepted.',
  internal: 'Something went wrong on the server. Try again.',
};

export interface ApiError {
  code: string;
  /** The API's own message. */
  message: string;
  /** The field of the form it concerns (`invalid_source_url` is `sourceUrl`), if any. */
  field?: string;
}

const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** The errors of an operation, each with its code and, for `invalid_<field>`, the field. */
export function apiErrors(error: CombinedError | undefined | null): ApiError[] {
  if (!error) return [];
  if (error.networkError && error.graphQLErrors.length === 0) {
    return [{ code: 'network', message: 'The studio could not reach the server. Check the connection and try again.' }];
  }
  return error.graphQLErrors.map((e) => {
    const code = typeof e.extensions?.code === 'string' ? e.extensions.code : 'internal';
    const field = code.startsWith('invalid_') ? camel(code.slice('invalid_'.length)) : undefined;
    return { code, message: e.message, field };
  });
}

/** A sentence for an error, with the API's message when it adds something. */
export function explain(e: ApiError): string {
  const sentence = SENTENCES[e.code];
  if (!sentence) return capitalise(e.message);
  return e.message && !['internal', 'invalid_credentials', 'unauthenticated', 'invalid_key'].includes(e.code) ? `${sentence} (${e.message})` : sentence;
}

export function explainAll(error: CombinedError | undefined | null): string {
  return apiErrors(error).map(explain).join(' ');
}

const capitalise = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) + (/[.!?]$/.test(s) ? '' : '.') : s);

/** Errors of a form: by field, and those that name no field of the form. */
export function formErrors(error: CombinedError | undefined | null, fields: readonly string[]): { byField: Record<string, string>; other: string[] } {
  const byField: Record<string, string> = {};
  const other: string[] = [];
  for (const e of apiErrors(error)) {
    if (e.field && fields.includes(e.field)) byField[e.field] = capitalise(e.message);
    else other.push(explain(e));
  }
  return { byField, other };
}
