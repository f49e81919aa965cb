import type { Request, Response } from 'express';
import { notFound } from '../domain/errors';
import { sendJson } from '../http/send-json';
import type { PartnerApiDeps } from './partner-api.deps';
import { presentEvent, presentResult } from '../domain/catalog/views';
import { presentFighter, presentMinor, presentVerification } from './presenters';
import { meta, pageOf, params, parseQuery } from '../http/query';
import { setPageLinks } from '../http/page-links';

const PROFILE_BOUTS = 20;

/** The query parameters of each list (the Link header keeps these and no others). */
const FIGHTERS_QUERY = { q: params.q, country: params.country, disc: params.disc, status: params.status, page: params.page, per_page: params.per_page };
const EVENTS_QUERY = { country: params.country, level: params.level, upcoming: params.upcoming, page: params.page, per_page: params.per_page };
const RESULTS_QUERY = { since: params.since, country: params.country, disc: params.disc, event: params.event, page: params.page, per_page: params.per_page };

/** Fighters, events, results and verification: parse, one query object, present. */
export function catalogHandlers(deps: PartnerApiDeps) {
  const url = deps.publicUrl;
  /** A list body with its meta, and the Link header that goes with it. */
  const listMeta = (req: Request, res: Response, spec: object, page: { page: number; perPage: number }, total: number) => {
    const m = meta(page, total);
    setPageLinks(res, url, req.originalUrl, m, Object.keys(spec));
    return m;
  };
  return {
    async fighters(req: Request, res: Response): Promise<void> {
      const q = parseQuery(req, FIGHTERS_QUERY);
      await deps.reader.assertKnownCountry(q.country);
      const page = pageOf(q);
      const ctx = await deps.readContext.current();
      const { rows, total } = await deps.fighters.list(ctx, q, page);
      const ids = rows.map((r) => r.f_id);
      const [records, standings] = await Promise.all([deps.fighters.records(ids), deps.rankings.ranksOf(ctx, ids)]);
      const data = rows.map((r) => presentFighter(r, records.get(r.f_id)!, standings.get(r.f_id)));
      await sendJson(req, res, { as_of: ctx.asOf, meta: listMeta(req, res, FIGHTERS_QUERY, page, total), data });
    },

    async fighter(req: Request, res: Response): Promise<void> {
      const ctx = await deps.readContext.current();
      const row = await deps.fighters.bySlug(ctx, String(req.params.slug));
      if (!row) throw notFound(`fighter "${req.params.slug}"`);
      if (row.f_minor) {
        await sendJson(req, res, { as_of: ctx.asOf, data: presentMinor(row) });
        return;
      }
      const [records, standings, bouts] = await Promise.all([
        deps.fighters.records([row.f_id]),
        deps.rankings.ranksOf(ctx, [row.f_id]),
        deps.results.forFighter(ctx, row.f_id, PROFILE_BOUTS),
      ]);
      const data = {
        ...presentFighter(row, records.get(row.f_id)!, standings.get(row.f_id)),
        bouts: bouts.map((b) => presentResult(b, ctx.asOf, url, false)),
      };
      await sendJson(req, res, { as_of: ctx.asOf, data });
    },

    async events(req: Request, res: Response): Promise<void> {
      const q = parseQuery(req, EVENTS_QUERY);
      await deps.reader.assertKnownCountry(q.country);
      const page = pageOf(q);
      const ctx = await deps.readContext.current();
      const { rows, total } = await deps.events.list(ctx, q, page);
      await sendJson(req, res, { as_of: ctx.asOf, meta: listMeta(req, res, EVENTS_QUERY, page, total), data: rows.map((e) => presentEvent(e, url)) });
    },

    async event(req: Request, res: Response): Promise<void> {
      const ctx = await deps.readContext.current();
      const event = await deps.events.byCode(String(req.params.code));
      if (!event) throw notFound(`event "${req.params.code}"`);
      await sendJson(req, res, { as_of: ctx.asOf, data: presentEvent(event, url) });
    },

    async eventResults(req: Request, res: Response): Promise<void> {
      const ctx = await deps.readContext.current();
      const event = await deps.events.byCode(String(req.params.code));
      if (!event) throw notFound(`event "${req.params.code}"`);
      const rows = await deps.results.forEvent(ctx, event.e_id);
      const data = rows.map((r) => presentResult(r, ctx.asOf, url));
      await sendJson(req, res, { as_of: ctx.asOf, event: presentEvent(event, url), count: data.length, data });
    },

    async results(req: Request, res: Response): Promise<void> {
      const q = parseQuery(req, RESULTS_QUERY);
      await deps.reader.assertKnownCountry(q.country);
      const page = pageOf(q);
      const ctx = await deps.readContext.current();
      const { rows, total } = await deps.results.list(ctx, q, page);
      await sendJson(req, res, { as_of: ctx.asOf, meta: listMeta(req, res, RESULTS_QUERY, page, total), data: rows.map((r) => presentResult(r, ctx.asOf, url)) });
    },

    async verify(req: Request, res: Response): Promise<void> {
      const ctx = await deps.readContext.current();
      const verification = await deps.verification.verify(ctx, String(req.params.number));
      await sendJson(req, res, { as_of: ctx.asOf, ...presentVerification(verification) });
    },

    async me(req: Request, res: Response): Promise<void> {
      const ctx = await deps.readContext.current();
      const p = res.locals.partnerPrincipal!;
      const requestCount = await deps.keys.requestCount(p.keyId);
      await sendJson(req, res, {
        as_of: ctx.asOf,
        data: {
          name: p.name,
          partner: p.partner,
          scopes: p.scopes,
          rate_limit_per_minute: p.rateLimitPerMinute,
          expires_at: p.expiresAt ? p.expiresAt.toISOString() : null,
          request_count: requestCount,
        },
      });
    },
  };
}
