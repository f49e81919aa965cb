/**
 * The one request pipeline of the REST doors (docs/adr/0010-operations.md): request id → key →
 * rate limit → scope → kept answer → parameters → handler → send, in the order of
 * docs/decisions.md#check-order, for every declared operation (src/http/operation.ts).
 *
 * Each step answers at once when it can (a cached key, the in-process limiter, a kept answer) and
 * returns a promise only when it must load; the pipeline runs synchronously up to the first
 * promise and goes on from there. So a repeated read is answered without awaiting anything, and a
 * request that cannot be answered at once continues where it is: nothing is checked twice.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../lib/logger';
import { isPromise, then, type Maybe } from '../lib/maybe';
import type { VersionedCache } from '../lib/versioned-cache';
import { authenticateRequest, scopeRefusal, type CredentialRule, type Principal } from './authenticate';
import { clientIp, type TrustProxy } from '../lib/client-ip';
import type { IdempotencyKeys } from '../domain/idempotency/idempotency-keys';
import { bearerToken, IDEMPOTENCY_HEADER, runIdempotent } from './idempotency';
import { readJsonBody } from './json-body';
import type { AnyOperation, Answer, Credential } from './operation';
import { fail, send } from './pipeline.answer';
import { parseQueryRecord, type ParamSpec } from './query';
import { queryRecord } from './query-record';
import { chargeRequest, rateLimited } from './rate-limit';
import type { LimitDecision, RateLimiter } from './rate-limiter';
import type { RequestLog } from './request-log';
import { MAX_KEPT_URL_LENGTH } from './send-json';

/** A door's principal: what the pipeline checks (bucket, scopes) and what its handlers are given (`subject`). */
export interface DoorPrincipal<S = unknown> extends Principal {
  subject: S;
}

/** Whole answers kept by URL: under which key an answer to a URL is kept right now, and where. */
export interface KeptAnswers {
  keyOf(url: string): Maybe<string>;
  cache: VersionedCache<Answer>;
}

/** What a door gives the pipeline. */
export interface Door<D = unknown> {
  /** Where it is mounted: `/api/v1`. */
  base: string;
  deps: D;
  operations: readonly AnyOperation[];
  credentials: Partial<Record<Exclude<Credential, 'none'>, { rule: CredentialRule; resolve(token: string): Maybe<DoorPrincipal> }>>;
  /** Where idempotency keys are kept, for the operations declared `idempotent`. */
  idempotency?: IdempotencyKeys;
  /** The per-client-address limit of public operations. */
  publicLimit?: { perMinute: number; trustProxy: TrustProxy };
  kept?: KeptAnswers;
  limiter: RateLimiter;
  logger: Logger;
  requestLog: RequestLog;
}

/** One request on its way through the pipeline. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  op: AnyOperation;
  door: Door;
  /** The route template, for the request log and metrics: `/api/v1/fighters/:slug`. */
  route: string;
  started: bigint;
  reqId: string;
  /** Path and query as sent. */
  url: string;
  /** Through express's router (a loose match): express logs it. */
  viaExpress: boolean;
  params: Record<string, string>;
  principal: DoorPrincipal | null;
  limit: { key: string; decision: LimitDecision } | null;
  keptKey: string | null;
  query: Record<string, unknown>;
  body: unknown;
  /** The JSON body as parsed, before the operation read it (the idempotency step hashes it). */
  rawBody: unknown;
}

type Step = (x: Exchange) => Maybe<Answer | undefined | void>;

const authenticateStep: Step = (x) => {
  if (x.op.credential === 'none') return;
  const credential = x.door.credentials[x.op.credential]!;
  return then(authenticateRequest(x.req, credential.rule, credential.resolve), (principal) => {
    x.principal = principal;
  });
};

const limitStep: Step = (x) => {
  const bucket = bucketOf(x);
  if (!bucket) return;
  return then(chargeRequest(x.door.limiter, x.door.logger, bucket.key, bucket.limit, x.reqId), (decision) => {
    if (!decision) return;
    x.limit = { key: bucket.key, decision };
    if (!decision.allowed) throw rateLimited(bucket.limit, decision);
  });
};

function bucketOf(x: Exchange): { key: string; limit: number } | null {
  if (x.op.limit === 'key') return { key: x.principal!.limitKey, limit: x.principal!.limitPerMinute };
  if (x.op.limit === 'none' || !x.door.publicLimit) return null;
  return { key: `ip:${clientIp(x.req, x.door.publicLimit.trustProxy)}`, limit: x.door.publicLimit.perMinute };
}

const scopeStep: Step = (x) => {
  const refusal = x.principal && scopeRefusal(x.op.scope, x.principal.scopes);
  if (refusal) throw refusal;
};

/** A kept answer to this very URL is sent as it is: it was made by the steps below, for this URL. */
const keptStep: Step = (x) => {
  const kept = x.op.kept ? x.door.kept : undefined;
  if (!kept || x.url.length > MAX_KEPT_URL_LENGTH) return;
  return then(kept.keyOf(x.url), (key) => {
    x.keptKey = key;
    return kept.cache.peek(key);
  });
};

const parseStep: Step = (x) => {
  const spec = parsersOf(x.op);
  if (spec) {
    const q = x.url.indexOf('?');
    x.query = parseQueryRecord(q < 0 ? {} : queryRecord(x.url.slice(q + 1)), spec);
  }
  const decl = x.op.body;
  if (!decl) return;
  return then(readJsonBody(x.req, x.res), (raw) => {
    x.rawBody = raw;
    x.body = decl.read(raw);
  });
};

const handleStep: Step = (x) => {
  const run = () => x.op.handler(x.door.deps, { params: x.params, query: x.query, body: x.body, principal: x.principal?.subject ?? null, url: x.url });
  const header = x.op.idempotent && x.door.idempotency && x.principal ? x.req.headers[IDEMPOTENCY_HEADER] : undefined;
  if (header !== undefined) {
    return runIdempotent(
      x.door.idempotency!,
      {
        method: x.op.method,
        url: x.url,
        scope: x.principal!.limitKey,
        credential: bearerToken(x.req),
        body: JSON.stringify(x.rawBody ?? null),
        header,
      },
      run,
      x.op.status ?? 200,
    );
  }
  if (x.keptKey === null) return run();
  // concurrent first requests of one URL share one answer; an error is never kept
  return x.door.kept!.cache.get(x.keptKey, async () => run());
};

const STEPS: readonly Step[] = [authenticateStep, limitStep, scopeStep, keptStep, parseStep, handleStep];

function runSteps(x: Exchange, from: number): Maybe<Answer> {
  for (let i = from; i < STEPS.length; i++) {
    const out = STEPS[i](x);
    if (isPromise(out)) return out.then((answer) => answer ?? runSteps(x, i + 1));
    if (out) return out;
  }
  throw new Error(`${x.op.method} ${x.op.path}: its handler answered nothing`);
}

/** Runs an operation for a request to its end (answered or refused); a promise only when a step had to load. */
export function runOperation(x: Exchange): Maybe<void> {
  try {
    const done = then(runSteps(x, 0), (answer) => send(x, answer));
    return isPromise(done) ? done.catch((err: unknown) => fail(x, err)) : done;
  } catch (err) {
    return fail(x, err);
  }
}

/** The exchange of a request matched to `op` (path parameters decoded). */
export function exchangeOf(
  req: IncomingMessage,
  res: ServerResponse,
  route: RouteOf,
  params: Record<string, string>,
  reqId: string,
  url: string,
  viaExpress: boolean,
): Exchange {
  return {
    req,
    res,
    op: route.op,
    door: route.door,
    route: route.label,
    started: process.hrtime.bigint(),
    reqId,
    url,
    viaExpress,
    params,
    principal: null,
    limit: null,
    keptKey: null,
    query: {},
    body: undefined,
    rawBody: undefined,
  };
}

/** An operation with its door and route template. */
export interface RouteOf {
  door: Door;
  op: AnyOperation;
  label: string;
}

const parsers = new WeakMap<AnyOperation, Record<string, ParamSpec<unknown>> | null>();

/** The query parsers of an operation (http/query.ts), by parameter name, made once. */
function parsersOf(op: AnyOperation): Record<string, ParamSpec<unknown>> | null {
  let spec = parsers.get(op);
  if (spec === undefined) {
    const query = op.query as Record<string, { parser: ParamSpec<unknown> }> | undefined;
    spec = query ? Object.fromEntries(Object.entries(query).map(([name, p]) => [name, p.parser])) : null;
    parsers.set(op, spec);
  }
  return spec;
}
