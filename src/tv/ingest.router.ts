import { timingSafeEqual } from 'node:crypto';
import express, { Router, type RequestHandler } from 'express';
import type { IngestService } from '../domain/channels/ingest.service';
import { DomainError } from '../domain/errors';
import { sendError } from '../http/http-errors';

/**
 * /internal/ingest: callbacks of the media server (nginx-rtmp style: form posts that carry the
 * stream key as `name`; any non-2xx answer refuses the publish), authenticated by INGEST_SECRET
 * in `X-Ingest-Secret` or, since nginx-rtmp cannot set headers, a `secret` query parameter.
 */
export function ingestRouter(ingest: IngestService, secret: string | null): Router {
  const router = Router();
  const expected = secret ? Buffer.from(secret) : null;
  const checkSecret: RequestHandler = (req, res, next) => {
    const given = Buffer.from(String(req.get('x-ingest-secret') ?? req.query.secret ?? ''));
    if (!expected || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      sendError(res, 401, 'unauthenticated', 'a valid ingest secret is required');
      return;
    }
    next();
  };
  const body = [express.urlencoded({ extended: false, limit: '16kb' }), express.json({ limit: '16kb' })];
  const key = (b: Record<string, unknown>) => String(b.name ?? b.stream_key ?? '');
  const handle =
    (fn: (b: Record<string, unknown>) => Promise<unknown>): RequestHandler =>
    async (req, res, next) => {
      try {
        const result = await fn((req.body ?? {}) as Record<string, unknown>);
        res.status(200).json({ ok: true, ...(result as object) });
      } catch (err) {
        if (err instanceof DomainError && err.code === 'forbidden') {
          sendError(res, 403, 'forbidden', err.message);
          return;
        }
        next(err);
      }
    };
  router.post(
    '/on-publish',
    checkSecret,
    ...body,
    handle((b) => ingest.onPublish(key(b))),
  );
  router.post(
    '/on-publish-done',
    checkSecret,
    ...body,
    handle((b) => ingest.onPublishDone(key(b))),
  );
  router.post(
    '/metrics',
    checkSecret,
    ...body,
    handle((b) =>
      ingest.report(key(b), {
        bitrate_kbps: num(b.bitrate_kbps),
        resolution: b.resolution == null ? null : String(b.resolution),
        fps: num(b.fps),
        viewers: num(b.viewers),
      }),
    ),
  );
  router.post(
    '/recording-ready',
    checkSecret,
    ...body,
    handle((b) => ingest.recordingDone(key(b), String(b.replay_url ?? ''))),
  );
  return router;
}

function num(v: unknown): number | null | undefined {
  if (v === undefined || v === null || v === '') return v === '' ? null : (v as null | undefined);
  return typeof v === 'number' ? v : Number(v);
}
