import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { GraphQLError, type GraphQLFormattedError, type ValidationRule } from 'graphql';
import type { Container } from '../container';
import { DomainError } from '../domain/errors';
import type { StudioPrincipal } from '../domain/studio/studio-auth.service';
import { authenticate } from '../http/authenticate';
import { rateLimit } from '../http/rate-limit';
import { createLoaders, type GqlContext } from './context';
import { costLimit } from './cost-limit';
import { depthLimit } from './depth-limit';
import { studioSchema } from './schema';

const ANONYMOUS_PER_MINUTE = 30;
const MAX_DEPTH = 10;
// The dashboard (a channel, 50 broadcasts with health, keys, endpoints and deliveries) costs ~1,500.
const MAX_COST = 20_000;

declare module 'express-serve-static-core' {
  interface Locals {
    studioPrincipal?: StudioPrincipal;
  }
}

/** Domain codes go to extensions.code; nothing internal (stack, SQL) leaves the server. */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = error instanceof GraphQLError ? error.originalError : error;
  if (original instanceof DomainError) {
    return { message: original.message, path: formatted.path, locations: formatted.locations, extensions: { code: original.code } };
  }
  const code = formatted.extensions?.code;
  if (code && code !== 'INTERNAL_SERVER_ERROR') return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: { code } };
  return { message: 'an internal error occurred', path: formatted.path, extensions: { code: 'internal' } };
}

/**
 * /graphql: the studio's door. A session (`Authorization: Bearer st_...`) is checked by the same
 * authenticate and rate-limit middleware as the REST doors; without one only `login` answers.
 * Apollo's CSRF prevention is on, introspection is off in production, and queries deeper than
 * MAX_DEPTH or costlier than MAX_COST are refused before they run.
 */
export function graphqlRouter(c: Container): Router {
  const server = new ApolloServer<GqlContext>({
    schema: studioSchema(),
    csrfPrevention: true,
    introspection: c.config.env !== 'production',
    includeStacktraceInErrorResponses: false,
    validationRules: [depthLimit(MAX_DEPTH) as ValidationRule, costLimit(MAX_COST) as ValidationRule],
    formatError,
    plugins: [] as ApolloServerPlugin<GqlContext>[],
  });
  const started = server.start();
  const router = Router();
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
  let handler: ReturnType<typeof expressMiddleware<GqlContext>> | null = null;
  router.use(async (req, res, next) => {
    await started;
    handler ??= expressMiddleware(server, {
      context: async ({ req: q, res: r }) => ({ c, principal: r.locals.studioPrincipal ?? null, loaders: createLoaders(c), clientIp: c.authFailures.clientIp(q) }),
    });
    return handler(req, res, next);
  });
  return router;
}
