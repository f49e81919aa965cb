import request, { type Response } from 'supertest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HttpHandler } from '../../src/app';
import type { Clock } from '../../src/domain/clock';
import { createOpenApiValidator } from './openapi.validator';

const doc = JSON.parse(readFileSync(join(__dirname, '..', '..', 'schema', 'openapi-tv.json'), 'utf8'));
export const tvSpec = createOpenApiValidator(doc, '/api/tv');

/** The ingest secret the TV tests start their app with. */
export const INGEST_SECRET = 'test-ingest-secret-123';

/**
 * Env for a TV test app: the ingest secret, and TRUST_PROXY so that each request can come from
 * its own client IP (X-Forwarded-For). The public door allows 60 requests per minute per IP, so
 * without it a file's public GETs would share one budget; the rate-limit tests pin the IP.
 */
export const TV_ENV = { INGEST_SECRET, TRUST_PROXY: '1' };

export interface TvCall {
  /** A channel key (sent as `Authorization: Bearer <key>`); none for public endpoints. */
  key?: string | null;
  /** A JSON body (sent with `Content-Type: application/json`). */
  body?: unknown;
  /** A raw body, sent as is with `type` (default application/json). */
  raw?: string | Buffer;
  type?: string;
  headers?: Record<string, string>;
  /** The client IP (X-Forwarded-For, honoured with TRUST_PROXY); a fresh one per request by default. */
  ip?: string;
}

let ipCounter = 0;
const freshIp = () => {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
};

/**
 * Requests to /api/tv; every response is checked against schema/openapi-tv.json (status, body and
 * documented headers), so no test can pass on an undocumented answer. Every response is kept in
 * `seen`, in order, for tests that look across all answers (a stream key shown only once).
 */
export class TvClient {
  readonly seen: Response[] = [];

  constructor(private readonly app: HttpHandler) {}

  async call(method: 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'OPTIONS', path: string, opts: TvCall = {}): Promise<Response> {
    const url = `/api/tv${path}`;
    const agent = request(this.app);
    let req =
      method === 'GET'
        ? agent.get(url)
        : method === 'HEAD'
          ? agent.head(url)
          : method === 'POST'
            ? agent.post(url)
            : method === 'PATCH'
              ? agent.patch(url)
              : method === 'PUT'
                ? agent.put(url)
                : method === 'DELETE'
                  ? agent.delete(url)
                  : agent.options(url);
    req = req.set('X-Forwarded-For', opts.ip ?? freshIp());
    if (opts.key) req = req.set('Authorization', `Bearer ${opts.key}`);
    for (const [k, v] of Object.entries(opts.headers ?? {})) req = req.set(k, v);
    if (opts.raw !== undefined) req = req.set('Content-Type', opts.type ?? 'application/json').send(opts.raw);
    else if (opts.body !== undefined) req = req.set('Content-Type', 'application/json').send(JSON.stringify(opts.body));
    const res = await req;
    this.seen.push(res);
    if (method !== 'OPTIONS') tvSpec.expectValid(res);
    return res;
  }

  get(path: string, key?: string | null, headers?: Record<string, string>) {
    return this.call('GET', path, { key, headers });
  }

  post(path: string, key?: string | null, body?: unknown) {
    return this.call('POST', path, { key, body });
  }

  patch(path: string, key: string | null | undefined, body: unknown) {
    return this.call('PATCH', path, { key, body });
  }

  /** Creates a broadcast with sensible defaults; fails the test unless it is a 201. */
  async create(key: string, fields: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const res = await this.post('/broadcasts', key, { ...aBroadcast(), ...fields });
    if (res.status !== 201) throw new Error(`create: expected 201, got ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  }

  /** Fails the test unless the answer has this status; returns it. */
  async expectStatus(res: Promise<Response> | Response, status: number, error?: string): Promise<Response> {
    const r = await res;
    if (r.status !== status || (error !== undefined && r.body?.error !== error)) {
      throw new Error(`expected ${status}${error ? ` ${error}` : ''}, got ${r.status} ${JSON.stringify(r.body)}`);
    }
    return r;
  }
}

/** One GET on /api/tv, validated like every TvClient answer. */
export async function getTv(app: HttpHandler, path: string, key?: string | null, headers?: Record<string, string>): Promise<Response> {
  return new TvClient(app).get(path, key, headers);
}

let titleCounter = 0;
/** A valid creation body of an external (youtube) broadcast. */
export function aBroadcast(over: Record<string, unknown> = {}): Record<string, unknown> {
  titleCounter += 1;
  return {
    title: `Fight Night ${titleCounter}`,
    source: 'youtube',
    source_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    scheduled_at: '2030-06-20T19:00:00+02:00',
    ...over,
  };
}

/** The media server's callbacks on /internal/ingest (not part of the public document). */
export function ingest(
  app: HttpHandler,
  path: 'on-publish' | 'on-publish-done' | 'metrics' | 'recording-ready',
  body: Record<string, unknown>,
  secret: string | null = INGEST_SECRET,
) {
  let req = request(app).post(`/internal/ingest/${path}`);
  if (secret !== null) req = req.set('X-Ingest-Secret', secret);
  return req.send(body);
}

/** A clock the test moves by hand. */
export class MutableClock implements Clock {
  private at: number;

  constructor(iso: string = new Date().toISOString()) {
    this.at = Date.parse(iso);
  }

  now(): Date {
    return new Date(this.at);
  }

  today(): string {
    return this.now().toISOString().slice(0, 10);
  }

  advance(ms: number): void {
    this.at += ms;
  }

  set(iso: string): void {
    this.at = Date.parse(iso);
  }
}
