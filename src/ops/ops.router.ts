import { createServer, type Server } from 'node:http';
import { Router } from 'express';
import type { Container } from '../container';
import { docsRouter } from './docs';
import type { Metrics } from './metrics';
import { studioRouter } from './studio';

/**
 * /docs, /studio, and /metrics unless METRICS_PORT moves it to a port of its own. By default (the demo)
 * it is on the public port, so `curl localhost:3000/metrics` works; in production and in compose
 * METRICS_PORT is set, so that only the monitoring network reaches it, not the internet.
 */
export function opsRouter(c: Container): Router {
  const router = Router();
  router.use(docsRouter());
  router.use(studioRouter());
  if (c.config.metricsPort === null) {
    router.get('/metrics', async (_req, res, next) => {
      try {
        const text = await c.metrics.render();
        res.setHeader('Cache-Control', 'no-store');
        res.type(c.metrics.contentType).send(text);
      } catch (err) {
        next(err);
      }
    });
  }
  return router;
}

/** The METRICS_PORT server: GET /metrics and nothing else; its scrapes are neither logged nor counted. */
export async function startMetricsServer(metrics: Metrics, port: number, host: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.statusCode = path === '/metrics' ? 405 : 404;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end(path === '/metrics' ? 'GET only\n' : 'only /metrics here\n');
      return;
    }
    metrics.render().then(
      (text) => {
        res.setHeader('Content-Type', metrics.contentType);
        res.setHeader('Cache-Control', 'no-store');
        res.end(text);
      },
      (err: Error) => {
        res.statusCode = 500;
        res.end(`metrics failed: ${err.message}\n`);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
