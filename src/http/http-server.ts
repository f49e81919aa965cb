import { createServer, type RequestListener, type Server } from 'node:http';
import type { HttpServerLimits } from '../config/config';

/**
 * The public HTTP server with its limits (README, configuration): a client that sends its
 * headers too slowly (slowloris) or its request too slowly gets 408 and is disconnected after
 * the configured time-outs instead of Node's 60 s / 300 s defaults, idle keep-alive connections
 * close after keepAliveTimeoutMs, and connections beyond maxConnections are dropped on accept.
 * Node checks the time-outs every connectionsCheckingInterval (30 s by default, which would
 * stretch a 10 s limit to 40 s): it is set to a fraction of the headers time-out.
 */
export function createHttpServer(handler: RequestListener, limits: HttpServerLimits): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
    },
    handler,
  );
  server.maxConnections = limits.maxConnections;
  return server;
}
