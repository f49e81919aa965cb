import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { Container } from '../container';
import type { StudioPrincipal } from '../domain/studio/studio-auth.service';
import { authenticate } from '../http/authenticate';
import { UNAVAILABLE_RETRY_AFTER_S } from '../http/http-errors';
import { rateLimit } from '../http/rate-limit';
import { StudioAnswerCache, type AnswerSlot } from './answer-cache';
import { contextFor, type GqlContext } from './context';
import { formatError, graphqlErrorBody } from './error-codes';
import { hasNul, noNulInStringLiterals, NUL_CODE, NUL_MESSAGE, variablesRefusal } from './input-guards';
import { LIMIT_CODES, queryLimits, tooManyTokens, tooManyTokensMessage } from './query-limits';
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
        slot.storable = operation?.operation === 'query' && response.body.kind === 'single' && !response.body.singleResult.errors
          && (response.http.status ?? 200) === 200;
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

/**
 * /graphql: the studio's door. A session (`Authorization: Bearer st_...`) is checked by the same
 * authenticate and rate-limit middleware as the REST doors; without one only `login` answers.
 * Apollo's CSRF prevention is on, introspection is off in production, batched arrays are refused,
 * and documents over the query limits (tokens, depth, cost, aliases, directives) are refused with
 * a 400 before they run.
 */
export function graphqlRouter(c: Container): Router {
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
  const auth = authenticate(async (token, req) => {
    const principal = await c.services.studioAuth.authenticate(token);
    (req.res as Response).locals.studioPrincipal = principal;
    return { kind: 'studio', limitKey: `st:${principal.sessionId}`, limitPerMinute: c.config.studioSessionPerMinute, scopes: [] };
  }, { allowApiKeyHeader: false, tokenPrefix: 'st_', failures: c.authFailures });
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
