/**
 * The idempotency step of the pipeline (docs/decisions.md#idempotency): for an operation declared
 * `idempotent` and a request that sends `Idempotency-Key`, the handler runs once per key and
 * credential; a repeat gets the kept answer with `Idempotent-Replayed: true`. The rule and the
 * store are the domain's (src/domain/idempotency/idempotency-keys.ts); this step is how the REST
 * doors speak it.
 */
import type { IncomingMessage } from 'node:http';
import { checkIdempotencyKey, requestHash, type IdempotencyKeys } from '../domain/idempotency/idempotency-keys';
import type { Answer } from './operation';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** The credential as sent (`Bearer <token>`): what the kept answer is encrypted with. */
export function bearerToken(req: IncomingMessage): string {
  const h = req.headers.authorization ?? '';
  return h.replace(/^\s*bearer\s+/i, '').trim();
}

export interface IdempotentRequest {
  method: string;
  url: string;
  /** The credential's bucket (`ck:<key id>`): keys are scoped per credential. */
  scope: string;
  credential: string;
  /** The body as JSON text (after parsing, so spacing does not matter). */
  body: string;
  header: string | string[];
}

/** Runs `run` under the request's key, or answers what was answered under it. */
export async function runIdempotent(store: IdempotencyKeys, r: IdempotentRequest, run: () => Promise<Answer> | Answer, okStatus: number): Promise<Answer> {
  const key = checkIdempotencyKey(r.header);
  const begun = await store.begin(r.scope, key, requestHash(r.method, r.url, r.scope, r.body), r.credential);
  if (begun.kind === 'replay') {
    const a = begun.answer;
    return { status: a.status, json: JSON.parse(a.body), headers: [...a.headers, REPLAYED_HEADER, 'true'] };
  }
  let answer: Answer;
  try {
    answer = await run();
  } catch (err) {
    await store.release(r.scope, key).catch(() => undefined);
    throw err;
  }
  await store.complete(
    r.scope,
    key,
    {
      status: answer.status ?? okStatus,
      headers: [...(answer.link ? ['Link', answer.link] : []), ...(answer.headers ?? [])],
      body: JSON.stringify(answer.json),
    },
    r.credential,
  );
  return answer;
}
