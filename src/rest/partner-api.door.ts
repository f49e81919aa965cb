/**
 * The partner API `/api/v1` as a door of the request pipeline (src/http/pipeline.ts): its
 * operations in document order, its credential (a partner key, by `Authorization: Bearer` or
 * `X-API-Key`, counted once authenticated: docs/decisions.md#me), and its kept answers (by URL,
 * run and day, until the catalog moves).
 */
import type { PartnerPrincipal } from '../domain/partners/key-authenticator';
import type { AnyOperation, Answer } from '../http/operation';
import type { Door, DoorPrincipal, KeptAnswers } from '../http/pipeline';
import type { RequestLog } from '../http/request-log';
import { then } from '../lib/maybe';
import { VersionedCache } from '../lib/versioned-cache';
import { getKeyInfo, verifyNumber } from './operations/account.operations';
import { getEvent, listEventResults, listEvents } from './operations/events.operations';
import { getFighter, listFighters } from './operations/fighters.operations';
import { getOpenApiDocument } from './operations/meta.operations';
import { getRanking, listDivisions } from './operations/rankings.operations';
import { listResults } from './operations/results.operations';
import type { PartnerApiDeps } from './partner-api.deps';
import { partnerBodyCache, PARTNER_BODY_BUDGETS } from './read-cache';
import { PARTNER_API_PATH } from '../domain/catalog/api-urls';

export const PARTNER_API_BASE = PARTNER_API_PATH;

/** Every operation of the partner API, in the document's order. */
export const PARTNER_OPERATIONS: readonly AnyOperation[] = [
  getRanking,
  listDivisions,
  listFighters,
  getFighter,
  listEvents,
  getEvent,
  listEventResults,
  listResults,
  verifyNumber,
  getKeyInfo,
  getOpenApiDocument,
];

const MAX_KEPT_ANSWERS = 5_000;

/** The door of the partner API; `operations` narrows it (a test of one route). */
export function partnerDoor(deps: PartnerApiDeps, requestLog: RequestLog, operations: readonly AnyOperation[] = PARTNER_OPERATIONS): Door<PartnerApiDeps> {
  // one door principal per key principal (itself one per cached key row), shared by its requests
  const principals = new WeakMap<PartnerPrincipal, DoorPrincipal<PartnerPrincipal>>();
  const doorPrincipal = (p: PartnerPrincipal): DoorPrincipal<PartnerPrincipal> => {
    let d = principals.get(p);
    if (!d) principals.set(p, (d = { kind: 'partner', limitKey: `pk:${p.keyId}`, limitPerMinute: p.rateLimitPerMinute, scopes: p.scopes, subject: p }));
    return d;
  };
  const kept: KeptAnswers = {
    keyOf: (url) => then(deps.readContext.current(), (ctx) => `${ctx.runId}|${ctx.today}|${url}`),
    cache: new VersionedCache(partnerBodyCache<Answer>(deps.changes, deps.readCacheTtlMs, MAX_KEPT_ANSWERS, PARTNER_BODY_BUDGETS.keptAnswers, (a) => a.json)),
  };
  return {
    base: PARTNER_API_BASE,
    deps,
    operations,
    credentials: {
      'partner-key': {
        rule: { allowApiKeyHeader: true, tokenPrefix: 'pk_', failures: deps.authFailures },
        resolve: (token) =>
          then(deps.keys.authenticate(token), (p) => {
            deps.keys.countRequest(p.keyId);
            return doorPrincipal(p);
          }),
      },
    },
    kept,
    limiter: deps.limiter,
    logger: deps.logger,
    requestLog,
  };
}
