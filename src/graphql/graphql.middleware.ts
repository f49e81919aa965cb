import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import type { IdempotencyKeys } from '../domain/idempotency/idempotency-keys';
import type { Clock } from '../domain/clock';
import type { ChangeFeed } from '../ports/change-feed';
import type { StudioPrincipal } from '../domain/studio/studio-auth.service';
import { authenticate } from '../http/authenticate';
import { bearerToken, IDEMPOTENCY_HEADER, runIdempotent } from '../http/idempotency';
import type { Answer } from '../http/operation';
import { UNAVAILABLE_RETRY_AFTER_S } from '../http/http-errors';
import { rateLimit } from '../http/rate-limit';
import type { RateLimiter } from '../http/rate-limiter';
import type { Logger } from '../lib/logger';
import { StudioAnswerCache, type AnswerSlot } from './answer-cache';
import { contextFor, type GqlContext, type GqlDeps } from './context';
import { formatError, graphqlErrorBody } from './error-codes';
import { IDEMPOTENT_MUTATIONS } from './idempotent-mutations';
import { hasNul, noNulInStringLiterals, NUL_CODE, NUL_MESSAGE, variablesRefusal } from './input-guards';
import { LIMIT_CODES, QUERY_LIMITS, queryLimits, tooManyTokens, tooManyTokensMessage } from './query-limits';
import { studioSchema } from './schema';

const ANONYMOUS_PER_MINUTE = 30;
const BATCH_REFUSED = {
  message: 'batched requests (a JSON array of operations) are not accepted: send one operation per request',
  extensions: { code: 'batching_not_supported' },
};

declare module 'express-serve-static-core' {
  interface Locals {
    studioPrincipal?: StudioPrincipal;
    studioAnswer?: AnswerSlot;
  }
}

/** Marks a query's answer as one that may be kept: a query (never a mutation) that ran without errors. */
const markStorable: ApolloServerPlugin<GqlContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ contextValue, operation, response }) {
        const slot = contextValue.answer;
        if (!slot) return;
        slot.storable =
          operation?.operation === 'query' && response.body.kind === 'single' && !response.body.singleResult.errors && (response.http.status ?? 200) === 200;
      },
    };
  },
};

/**
 * An operation that failed because the database cannot be reached answers 503 with Retry-After,
 * like the REST doors, so that clients and load balancers back off and retry (the errors carry
 * `unavailable`, set by formatError).
 */
const unavailableStatus: ApolloServerPlugin<GqlContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        const errors = response.body.kind === 'single' ? response.body.singleResult.errors : undefined;
        if (!errors?.some((e) => e.extensions?.code === 'unavailable')) return;
        response.http.status = 503;
        response.http.headers.set('retry-after', String(UNAVAILABLE_RETRY_AFTER_S));
      },
    };
  },
};

/** True when the request's operation is a mutation that calls one of the create mutations. */
function callsCreateMutation(body: { query?: unknown; operationName?: unknown } | undefined): boolean {
  if (typeof body?.query !== 'string') return false;
  let doc;
  try {
    doc = parse(body.query, { maxTokens: QUERY_LIMITS.tokens });
  } catch {
    return false; // Apollo refuses it
  }
  const ops = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const op = typeof body.operationName === 'string' ? ops.find((o) => o.name?.value === body.operationName) : ops.length === 1 ? ops[0] : undefined;
  return op?.operation === 'mutation' && op.selectionSet.selections.some((s) => s.kind === Kind.FIELD && IDEMPOTENT_MUTATIONS.has(s.name.value));
}

/** Thrown after an answer that is not kept (an error, a 5xx): the key is freed, the answer already sent. */
class NotKept extends Error {}

/**
 * Idempotency-Key on the create mutations: the same pipeline rule as the TV API's POSTs
 * (src/http/idempotency.ts), keyed per session, over the operation, its variables and name. Only
 * an answer without errors is kept; a replay carries `Idempotent-Replayed: true`.
 */
function idempotentCreates(c: Pick<GraphqlDeps, 'idempotency'>) {
  return (req: Request, res: Response, next: NextFunction) => {
    const header = req.headers[IDEMPOTENCY_HEADER];
    const principal = res.locals.studioPrincipal;
    const body = req.body as { query?: unknown; variables?: unknown; operationName?: unknown } | undefined;
    if (header === undefined || req.method !== 'POST' || !principal || !callsCreateMutation(body)) return next();
    const run = () =>
      new Promise<Answer>((resolve, reject) => {
        const send = res.send.bind(res);
        res.send = (out?: unknown) => {
          const result = send(out);
          const text = typeof out === 'string' ? out : Buffer.isBuffer(out) ? out.toString('utf8') : JSON.stringify(out);
          let json: { errors?: unknown } | null = null;
          try {
            json = JSON.parse(text) as { errors?: unknown };
          } catch {
            json = null;
          }
          if (res.statusCode !== 200 || !json || json.errors) reject(new NotKept());
          else resolve({ status: 200, json, headers: ['Content-Type', String(res.getHeader('content-type') ?? 'application/json')] });
          return result;
        };
        next();
      });
    runIdempotent(
      c.idempotency,
      {
        method: 'POST',
        url: req.originalUrl.split('?')[0],
        scope: `st:${principal.sessionId}`,
        credential: bearerToken(req),
        body: JSON.stringify([body!.query, body!.variables ?? null, body!.operationName ?? null]),
        header,
      },
      run,
      200,
    ).then(
      (answer) => {
        if (res.headersSent) return; // this request ran: its answer is sent
        const headers = answer.headers ?? [];
        for (let i = 0; i + 1 < headers.length; i += 2) res.setHeader(headers[i], headers[i + 1]);
        res.status(answer.status ?? 200).send(JSON.stringify(answer.json));
      },
      (err: unknown) => {
        if (!(err instanceof NotKept)) next(err);
      },
    );
  };
}

/**
 * Answers a signed-in query from the answer cache when nothing it was read from has changed;
 * otherwise lets it run and keeps what is sent, if the query allowed it (markStorable).
 */
function answerFromCache(answers: StudioAnswerCache) {
  return (req: Request, res: Response, next: NextFunction) => {
    const principal = res.locals.studioPrincipal;
    const slot = principal && req.method === 'POST' ? answers.slotFor(principal.userId, req.body, req.headers.accept) : null;
    if (!slot) return next();
    const hit = answers.get(slot);
    if (hit) {
      res.setHeader('cache-control', 'no-store');
      res.setHeader('content-type', hit.contentType);
      return void res.status(200).send(hit.body);
    }
    res.locals.studioAnswer = slot;
    const send = res.send.bind(res);
    res.send = (body?: unknown) => {
      const type = res.getHeader('content-type');
      if (res.statusCode === 200 && typeof body === 'string' && typeof type === 'string') answers.set(slot, body, type);
      return send(body);
    };
    next();
  };
}

/** What the studio's door is built from (the composition root hands in the container, which has it all). */
export interface GraphqlDeps extends GqlDeps {
  config: GqlDeps['config'] & { env: string; studioSessionPerMinute: number; authCacheTtlMs: number };
  clock: Clock;
  limiter: RateLimiter;
  logger: Logger;
  changes: ChangeFeed;
  idempotency: IdempotencyKeys;
}

/**
 * /graphql: the studio's door. A session (`Authorization: Bearer st_...`) is checked by the same
 * authenticate and rate-limit middleware as the REST doors; without one only `login` answers.
 * Apollo's CSRF prevention is on, introspection is off in production, batched arrays are refused,
 * and documents over the query limits (tokens, depth, cost, aliases, directives) are refused with
 * a 400 before they run.
 */
export function graphqlRouter(c: GraphqlDeps): Router {
  const limits = queryLimits(c.config.env);
  const server = new ApolloServer<GqlContext>({
    schema: studioSchema(),
    csrfPrevention: true,
    introspection: c.config.env !== 'production',
    includeStacktraceInErrorResponses: false,
    allowBatchedHttpRequests: false,
    parseOptions: limits.parseOptions,
    validationRules: [...limits.validationRules, noNulInStringLiterals],
    formatError,
    plugins: [...(limits.plugins as ApolloServerPlugin<GqlContext>[]), markStorable, unavailableStatus],
  });
  const started = server.start();
  const router = Router();
  // every refusal on this door, whoever makes it (authentication, limits, body parsing), is a GraphQL response
  router.use((_req: Request, res: Response, next: NextFunction) => {
    res.locals.errorBody = graphqlErrorBody;
    next();
  });
  const auth = authenticate(
    async (token, req) => {
      const principal = await c.services.studioAuth.authenticate(token);
      (req.res as Response).locals.studioPrincipal = principal;
      return { kind: 'studio', limitKey: `st:${principal.sessionId}`, limitPerMinute: c.config.studioSessionPerMinute, scopes: [] };
    },
    { allowApiKeyHeader: false, tokenPrefix: 'st_', failures: c.authFailures },
  );
  const sessionLimit = rateLimit(c.limiter, c.logger, (req) => ({ key: req.principal!.limitKey, limit: req.principal!.limitPerMinute }));
  const anonymousLimit = rateLimit(c.limiter, c.logger, (req) => ({ key: `gql-ip:${c.authFailures.clientIp(req)}`, limit: ANONYMOUS_PER_MINUTE }));
  router.use((req: Request, res: Response, next: NextFunction) => {
    if (req.headers.authorization === undefined) return anonymousLimit(req, res, next);
    return auth(req, res, (err?: unknown) => (err ? next(err) : sessionLimit(req, res, next)));
  });
  router.use(express.json({ limit: '256kb' }));
  router.use((req: Request, res: Response, next: NextFunction) => {
    if (Array.isArray(req.body)) return void res.status(400).json({ errors: [BATCH_REFUSED] });
    const source: unknown = req.method === 'GET' ? req.query.query : (req.body as { query?: unknown } | undefined)?.query;
    if (typeof source === 'string' && tooManyTokens(source)) {
      return void res.status(400).json({ errors: [{ message: tooManyTokensMessage(), extensions: { code: LIMIT_CODES.tokens } }] });
    }
    const variables: unknown = req.method === 'GET' ? req.query.variables : (req.body as { variables?: unknown } | undefined)?.variables;
    const refusal = variablesRefusal(variables);
    if (refusal) return void res.status(400).json({ errors: [{ message: refusal.message, extensions: { code: refusal.code } }] });
    if (hasNul(variables)) return void res.status(400).json({ errors: [{ message: NUL_MESSAGE, extensions: { code: NUL_CODE } }] });
    next();
  });
  router.use(idempotentCreates(c));
  // off with the other caches (AUTH_CACHE_TTL_MS=0)
  if (c.config.authCacheTtlMs > 0) router.use(answerFromCache(new StudioAnswerCache({ feed: c.changes, now: () => c.clock.now().getTime() })));
  let handler: ReturnType<typeof expressMiddleware<GqlContext>> | null = null;
  router.use(async (req, res, next) => {
    await started;
    handler ??= expressMiddleware(server, {
      context: async ({ req: q, res: r }) => contextFor(c, r.locals.studioPrincipal ?? null, c.authFailures.clientIp(q), r.locals.studioAnswer ?? null),
    });
    return handler(req, res, next);
  });
  return router;
}
