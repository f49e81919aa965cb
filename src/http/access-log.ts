import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../lib/logger';

/** One line per request: no headers, no query string (it may carry personal search terms). */
export function accessLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      logger.info({
        req_id: req.id, method: req.method, path: req.path, status: res.statusCode,
        ms: Number(process.hrtime.bigint() - started) / 1e6,
      }, 'request');
    });
    next();
  };
}
