import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  createSourceEventStream,
  execute,
  GraphQLError,
  getOperationAST,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLFormattedError,
} from 'graphql';
import { CloseCode, type Context as WsContext, type SubscribePayload } from 'graphql-ws';
import { useServer, type Extra } from 'graphql-ws/use/ws';
import { Gauge, type Registry } from 'prom-client';
import { WebSocketServer, type WebSocket } from 'ws';
import { accessError, operator } from '../../domain/channels/channel-access';
import { DomainError } from '../../domain/errors';
import type { StudioPrincipal } from '../../domain/studio/studio-auth.service';
import { isAuthFailure, TooManyAuthFailures } from '../../http/authenticate';
import type { Logger } from '../../lib/logger';
import { contextFor, type GqlContext, type GqlDeps } from '../context';
import { formatError } from '../error-codes';
import { hasNul, noNulInStringLiterals, NUL_CODE, NUL_MESSAGE } from '../input-guards';
import { LIMIT_CODES, QUERY_LIMITS, queryLimits, tooManyTokens, tooManyTokensMessage } from '../query-limits';
import { studioSchema } from '../schema';
import type { LiveContext, LiveRecord } from './live-context';
import { wakeHealth } from './health-wake';
import { LiveEvents, type LiveSubject, type SubjectSource } from './live-events';

/** Close codes (graphql-ws's, whose client does not retry 4401 and 4429; it retries 4403). */
export const LIVE_CLOSE = {
  /** No session, an unknown, ended (signed out) or expired one: sign in again. */
  unauthenticated: CloseCode.Unauthorized,
  /** The session lost its role on a channel one of the socket's subscriptions follows. */
  roleRevoked: CloseCode.Forbidden,
  /** More sockets than the session may hold, or too many failed authentications from the address. */
  tooMany: CloseCode.TooManyInitialisationRequests,
} as const;

/** What the subscriptions need of the running service (the container has it all). */
export interface SubscriptionDeps extends GqlDeps {
  config: GqlDeps['config'] & { env: string; subscriptions: { socketsPerSession: number; perSocket: number } };
  changes: SubjectSource & { on(topic: 'studio_sessions', listener: () => void): () => void };
  logger: Logger;
}

export interface LiveServer {
  /** Sockets open on this instance. */
  readonly sockets: number;
  /** Subscriptions running on this instance. */
  readonly subscriptions: number;
  /** Closes every socket (1001 going away) and stops listening for upgrades. */
  close(): Promise<void>;
}

type ConnectionParams = Record<string, unknown> & {
  token?: unknown;
  authorization?: unknown;
  Authorization?: unknown;
};

type Ctx = WsContext<ConnectionParams, Extra & Partial<Record<PropertyKey, never>>>;

/** The subscriptions' reader of broadcasts: every change is checked per subscriber with accessError. */
const LIVE_READER = operator({ id: 'studio-subscriptions' });
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The session token of connection_init: `{ token }`, or `{ authorization: "Bearer <token>" }` as on HTTP. */
export function tokenOf(params: ConnectionParams | undefined): string | null {
  if (!params) return null;
  if (typeof params.token === 'string' && params.token) return params.token;
  const header = typeof params.authorization === 'string' ? params.authorization : typeof params.Authorization === 'string' ? params.Authorization : null;
  const m = header ? /^Bearer\s+(\S+)$/i.exec(header.trim()) : null;
  return m ? m[1] : null;
}

/** One open socket: its session, the subscriptions it runs and the channels they follow. */
class LiveSocket {
  principal: StudioPrincipal;
  /** subscription id -> the channel it follows (null until its subscribe resolver ran). */
  readonly follows = new Map<string, string | null>();
  private expiry: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  private again = false;
  closed = false;

  constructor(
    readonly ws: WebSocket,
    readonly token: string,
    principal: StudioPrincipal,
    readonly clientIp: string,
    private readonly d: SubscriptionDeps,
  ) {
    this.principal = principal;
    this.armExpiry();
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.disarm();
    // a close reason is at most 123 bytes
    this.ws.close(code, Buffer.byteLength(reason) > 123 ? `${Buffer.from(reason).subarray(0, 120).toString()}...` : reason);
  }

  disarm(): void {
    if (this.expiry) clearTimeout(this.expiry);
    this.expiry = null;
  }

  /** False (and the socket closed) once the session has expired by the service's clock. */
  current(): boolean {
    const expiresAt = this.principal.expiresAt;
    if (expiresAt && expiresAt <= this.d.clock.now()) this.close(LIVE_CLOSE.unauthenticated, 'the session has expired: sign in again');
    return !this.closed;
  }

  /**
   * Reads the session again (sessions or roles changed somewhere): an ended or expired session
   * closes the socket; a role lost on a followed channel too. Checks run one at a time, the last
   * change always seen.
   */
  recheck(): Promise<void> {
    if (this.checking) {
      this.again = true;
      return this.checking;
    }
    this.checking = (async () => {
      do {
        this.again = false;
        await this.checkOnce();
      } while (this.again && !this.closed);
    })().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async checkOnce(): Promise<void> {
    if (this.closed) return;
    let principal: StudioPrincipal;
    try {
      principal = await this.d.services.studioAuth.authenticate(this.token);
    } catch (err) {
      if (err instanceof DomainError) this.close(LIVE_CLOSE.unauthenticated, err.message);
      else this.d.logger.warn({ err: (err as Error).message }, 'subscriptions: could not re-check a session; the socket stays open until the next check');
      return;
    }
    this.principal = principal;
    for (const channelId of this.follows.values()) {
      if (channelId && accessError(principal, channelId, 'read')) {
        this.close(LIVE_CLOSE.roleRevoked, 'your role on a channel this socket follows was revoked');
        return;
      }
    }
    this.armExpiry();
  }

  private armExpiry(): void {
    this.disarm();
    const expiresAt = this.principal.expiresAt;
    if (!expiresAt || this.closed) return;
    const left = Math.max(0, Math.min(MAX_TIMER_MS, expiresAt.getTime() - this.d.clock.now().getTime()));
    this.expiry = setTimeout(() => {
      if (this.current()) void this.recheck();
    }, left);
    this.expiry.unref();
  }
}

/**
 * A changed row read once for all its subscribers (null when it is gone or no longer the
 * channel's). A health that will change with time alone (its latest report going stale) wakes its
 * subscribers again then (`wakeHealth`).
 */
async function loadSubject(d: SubscriptionDeps, s: LiveSubject, events: LiveEvents<LiveRecord>): Promise<LiveRecord | null> {
  if (s.kind === 'delivery') {
    const delivery = await d.services.channelWebhooks.channelDelivery(s.channelId, s.id);
    return delivery && { kind: 'delivery', delivery };
  }
  const [broadcast, [telemetry]] = await Promise.all([d.services.broadcasts.get(LIVE_READER, s.id), d.queries.studio.telemetry([s.id])]);
  if (broadcast.channel.id !== s.channelId) return null;
  wakeHealth(events, s.channelId, broadcast, telemetry, d.clock.now());
  return { kind: s.kind, broadcast, telemetry };
}

/** Maps each value of a stream, passing `return` on (graphql-ws ends a subscription with it). */
function mapStream<T, U>(source: AsyncIterable<T>, fn: (value: T) => Promise<U>): AsyncIterableIterator<U> {
  const it = source[Symbol.asyncIterator]();
  const out: AsyncIterableIterator<U> = {
    async next() {
      const r = await it.next();
      return r.done ? { done: true, value: undefined } : { done: false, value: await fn(r.value) };
    },
    async return() {
      await it.return?.();
      return { done: true, value: undefined };
    },
    async throw(err: unknown) {
      await it.return?.();
      throw err;
    },
    [Symbol.asyncIterator]() {
      return out;
    },
  };
  return out;
}

type Checked = { document: DocumentNode } | { errors: GraphQLError[] };

/**
 * Parsed and validated documents by their text: the studio opens the same few subscriptions on
 * every socket, so they share one syntax tree (the largest part of an idle subscription) and are
 * checked once. Holds at most MAX_DOCUMENTS, the oldest dropped first.
 */
class CheckedDocuments {
  static readonly MAX_DOCUMENTS = 200;
  private readonly kept = new Map<string, Checked>();

  constructor(private readonly check_: (query: string) => Checked) {}

  check(query: string): Checked {
    let found = this.kept.get(query);
    if (!found) {
      found = this.check_(query);
      if (this.kept.size >= CheckedDocuments.MAX_DOCUMENTS) this.kept.delete(this.kept.keys().next().value as string);
      this.kept.set(query, found);
    }
    return found;
  }
}

function refuseUpgrade(socket: Duplex, status: number, text: string, message: string): void {
  const body = JSON.stringify({ error: status === 404 ? 'not_found' : 'not_ready', message });
  socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

const limitError = (message: string, code: string) => new GraphQLError(message, { extensions: { code } });

/**
 * GraphQL subscriptions over WebSocket (graphql-ws, the graphql-transport-ws protocol) on the
 * server's own port and path /graphql, with the studio's schema; queries and mutations stay on
 * HTTP (express + Apollo). See docs/studio-graphql.md#subscriptions:
 * - `connection_init` carries the studio session (`{ token }`); none or a bad one closes 4401;
 * - a session holds at most `socketsPerSession` sockets on an instance (4429), a socket at most
 *   `perSocket` subscriptions (the next one is refused with an error);
 * - documents keep the query limits (tokens, depth, cost, aliases, directives) and are
 *   subscriptions only;
 * - every change is checked against the one channel-access rule with the principal of the moment;
 *   sign-out, a revoked role or expiry closes the socket (re-checked when `studio_sessions` changes,
 *   and by a timer at expiry).
 */
export function attachSubscriptions(server: Server, d: SubscriptionDeps, options: { accepting?: () => boolean; metrics?: Registry } = {}): LiveServer {
  const schema = studioSchema();
  const limits = queryLimits(d.config.env);
  const rules = [...specifiedRules, ...limits.validationRules, noNulInStringLiterals];
  const events: LiveEvents<LiveRecord> = new LiveEvents<LiveRecord>(d.changes, (s) => loadSubject(d, s, events));
  const sockets = new Map<WebSocket, LiveSocket>();
  const bySession = new Map<string, Set<LiveSocket>>();
  const { perSocket, socketsPerSession } = d.config.subscriptions;

  if (options.metrics) {
    const registers = [options.metrics];
    new Gauge({
      name: 'graphql_ws_sockets',
      help: 'Open GraphQL subscription sockets on this instance',
      registers,
      collect() {
        this.set(sockets.size);
      },
    });
    new Gauge({
      name: 'graphql_ws_subscriptions',
      help: 'GraphQL subscriptions running on this instance',
      registers,
      collect() {
        this.set(events.size);
      },
    });
  }

  const stopWatching = d.changes.on('studio_sessions', () => {
    for (const s of sockets.values()) void s.recheck();
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 256 * 1024 });
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/graphql') return refuseUpgrade(socket, 404, 'Not Found', `no WebSocket endpoint at ${path}: subscriptions are on /graphql`);
    if (options.accepting && !options.accepting())
      return refuseUpgrade(socket, 503, 'Service Unavailable', 'starting: the demo data is being seeded (see /healthz)');
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  };
  server.on('upgrade', onUpgrade);

  const socketOf = (ctx: Ctx) => sockets.get(ctx.extra.socket) ?? null;
  const forget = (live: LiveSocket) => {
    live.disarm();
    sockets.delete(live.ws);
    const set = bySession.get(live.principal.sessionId);
    set?.delete(live);
    if (set?.size === 0) bySession.delete(live.principal.sessionId);
  };
  const format = (errors: readonly GraphQLError[]): GraphQLFormattedError[] => errors.map((e) => formatError(e.toJSON(), e));
  const documents = new CheckedDocuments((query) => {
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens: QUERY_LIMITS.tokens });
    } catch (err) {
      return { errors: [err instanceof GraphQLError ? err : new GraphQLError(String(err))] };
    }
    const errors = validate(schema, document, rules);
    return errors.length > 0 ? { errors: [...errors] } : { document };
  });

  useServer<ConnectionParams>(
    {
      schema,
      connectionInitWaitTimeout: 10_000,
      onConnect: async (ctx) => {
        const ws = ctx.extra.socket;
        const refuse = (code: number, reason: string) => {
          ws.close(code, reason);
          return false;
        };
        const token = tokenOf(ctx.connectionParams);
        const ip = d.authFailures.clientIp(ctx.extra.request);
        if (!token) return refuse(LIVE_CLOSE.unauthenticated, 'sign in first: send { "token": "<session token>" } in connection_init');
        let principal: StudioPrincipal;
        try {
          principal = await d.authFailures.attempt(ip, () => d.services.studioAuth.authenticate(token), isAuthFailure);
        } catch (err) {
          if (err instanceof TooManyAuthFailures) return refuse(LIVE_CLOSE.tooMany, err.message);
          if (err instanceof DomainError) return refuse(LIVE_CLOSE.unauthenticated, err.message);
          d.logger.error({ err: (err as Error).message }, 'subscriptions: could not authenticate a socket');
          return refuse(CloseCode.InternalServerError, 'an internal error occurred');
        }
        const mine = bySession.get(principal.sessionId) ?? new Set<LiveSocket>();
        if (mine.size >= socketsPerSession) {
          return refuse(LIVE_CLOSE.tooMany, `this session already holds ${mine.size} sockets; at most ${socketsPerSession} are allowed`);
        }
        if (ws.readyState !== ws.OPEN) return false;
        const live = new LiveSocket(ws, token, principal, ip, d);
        sockets.set(ws, live);
        bySession.set(principal.sessionId, mine.add(live));
        return true;
      },
      onSubscribe: (ctx, id, payload: SubscribePayload) => {
        const live = socketOf(ctx);
        if (!live?.current()) return [new GraphQLError('the socket is closing', { extensions: { code: 'unauthenticated' } })];
        // the new one is already counted in ctx.subscriptions
        if (Object.keys(ctx.subscriptions).length > perSocket) {
          return [
            limitError(
              `this socket already runs ${perSocket} subscriptions; at most ${perSocket} are allowed (stop one, or open another socket)`,
              'too_many_subscriptions',
            ),
          ];
        }
        if (typeof payload.query !== 'string') return [limitError('the subscribe message has no query', 'invalid_query')];
        if (tooManyTokens(payload.query)) return [limitError(tooManyTokensMessage(), LIMIT_CODES.tokens)];
        if (hasNul(payload.variables)) return [limitError(NUL_MESSAGE, NUL_CODE)];
        const checked = documents.check(payload.query);
        if ('errors' in checked) return checked.errors;
        const { document } = checked;
        const operation = getOperationAST(document, payload.operationName);
        if (!operation) return [limitError('name the operation to run (operationName)', 'invalid_query')];
        if (operation.operation !== 'subscription') {
          return [
            limitError(
              `only subscriptions run over WebSocket; send ${operation.operation === 'query' ? 'queries' : 'mutations'} to POST /graphql`,
              'subscriptions_only',
            ),
          ];
        }
        live.follows.set(id, null);
        const view: LiveContext['live'] = {
          events,
          follows: (channelId) => live.follows.set(id, channelId),
          principal: () => (live.current() ? live.principal : null),
        };
        const contextValue: LiveContext = { ...contextFor(d, live.principal, live.clientIp), live: view };
        return { schema, document, operationName: payload.operationName, variableValues: payload.variables ?? undefined, contextValue } satisfies ExecutionArgs;
      },
      // Each change is run in a context of its own: fresh loaders, the principal of the moment.
      subscribe: async (args: ExecutionArgs) => {
        const stream = await createSourceEventStream(args);
        if (!(Symbol.asyncIterator in stream)) return stream as ExecutionResult;
        const view = (args.contextValue as LiveContext).live;
        return mapStream(stream as AsyncIterable<unknown>, async (payload) => {
          const principal = view.principal();
          const fresh: GqlContext = { ...contextFor(d, principal, (args.contextValue as GqlContext).clientIp), live: view } as LiveContext;
          return execute({ ...args, rootValue: payload, contextValue: fresh }) as Promise<ExecutionResult>;
        });
      },
      // every error leaves with one of the studio's codes (src/graphql/error-codes.ts), as on HTTP
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: format(result.errors) } : undefined),
      onError: (_ctx, _id, _payload, errors) => format(errors),
      onComplete: (ctx, id) => {
        socketOf(ctx)?.follows.delete(id);
      },
      onClose: (ctx) => {
        const live = socketOf(ctx);
        if (live) forget(live);
      },
    },
    wss,
  );

  return {
    get sockets() {
      return sockets.size;
    },
    get subscriptions() {
      return events.size;
    },
    async close() {
      server.off('upgrade', onUpgrade);
      stopWatching();
      events.close();
      for (const ws of wss.clients) ws.close(1001, 'the server is shutting down');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
