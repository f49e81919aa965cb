import type { Request, Response } from 'express';
import { notFound } from '../domain/errors';
import { sendJson } from '../http/send-json';
import type { PartnerApiDeps } from './partner-api.deps';
import { presentEvent, presentResult } from '../domain/catalog/views';
import { presentFighter, presentMinor, presentVerification } from './presenters';
import { meta, pageOf, params, parseQuery } from '../http/query';
import { setPageLinks } from '../http/page-links';
import type {
  EventListResponseBody,
  EventResponseBody,
  EventResultsResponseBody,
  FighterListResponseBody,
  FighterProfileResponseBody,
  KeyInfoResponseBody,
  ResultListResponseBody,
  VerificationResponseBody,
} from './schemas/responses';

const PROFILE_BOUTS = 20;

/** Fighters, events, results and verification: parse, one query object, present. */
export function catalogHandlers(deps: PartnerApiDeps) {
  const url = deps.publicUrl;
  /** A list body with its meta, and the Link header that goes with it. */
  const listMeta = (req: Request, res: Response, page: { page: number; perPage: number }, total: number) => {
    const m = meta(page, total);
    setPageLinks(res, url, req.originalUrl, m);
    return m;
  };
  return {
    async fighters(req: Request, res: Response): Promise<void> {
      const q = parseQuery(req, { q: params.q, country: params.country, disc: params.disc, status: params.status, page: params.page, per_page: params.per_page });
      await deps.reader.assertKnownCountry(q.country);
      const page = pageOf(q);
      const ctx = await deps.readContext.current();
      const { rows, total } = await deps.fighters.list(ctx, q, page);
      const ids = rows.map((r) => r.f_id);
      const [records, standings] = await Promise.all([deps.fighters.records(ids), deps.rankings.ranksOf(ctx, ids)]);
      const data = rows.map((r) => presentFighter(r, records.get(r.f_id)!, standings.get(r.f_id)));
      await sendJson(req, res, { as_of: ctx.asOf, meta: listMeta(req, res, page, total), data } satisfies FighterListResponseBody);
    },

    async fighter(req: Request, res: Response): Promise<void> {
      const ctx = await deps.readContext.current();
      const row = await deps.fighters.bySlug(ctx, String(req.params.slug));
      if (!row) throw notFound(`fighter "${req.params.slug}"`);
      if (row.f_minor) {
        await sendJson(req, res, { as_of: ctx.asOf, data: presentMinor(row) } satisfies FighterProfileResponseBody);
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
      await sendJson(req, res, { as_of: ctx.asOf, data } satisfies FighterProfileResponseBody);
    },

    async events(req: Request, res: Response): Promise<void> {
      const q = parseQuery(req, { country: params.country, level: params.level, upcoming: params.upcoming, page: params.page, per_page: params.per_page });
      await deps.reader.assertKnownCountry(q.country);
      const page = pageOf(q);
      const ctx = await deps.readContext.current();
      const { rows, total } = await deps.events.list(ctx, q, page);
      await sendJson(req, res, { as_of: ctx.asOf, meta: listMeta(req, res, page, total), data: rows.map((e) => presentEvent(e, url)) } satisfies EventListResponseBody);
    },

    async event(req: Request, res: Response): Promise<void> {
      const ctx = await deps.readContext.current();
      const event = await deps.events.byCode(String(req.params.code));
      if (!event) throw notFound(`event "${req.params.code}"`);
      await sendJson(req, res, { as_of: ctx.asOf, data: presentEvent(event, url) } satisfies EventResponseBody);
    },

    async eventResults(req: Request, res: Response): Promise<void> {
      const ctx = await deps.readContext.current();
      const event = await deps.events.byCode(String(req.params.code));
      if (!event) throw notFound(`event "${req.params.code}"`);
      const rows = await deps.results.forEvent(ctx, event.e_id);
      const data = rows.map((r) => presentResult(r, ctx.asOf, url));
      await sendJson(req, res, { as_of: ctx.asOf, event: presentEvent(event, url), count: data.length, data } satisfies EventResultsResponseBody);
    },

    async results(req: Request, res: Response): Promise<void> {
      const q = parseQuery(req, { since: params.since, country: params.country, disc: params.disc, event: params.event, page: params.page, per_page: params.per_page });
      await deps.reader.assertKnownCountry(q.country);
      const page = pageOf(q);
      const ctx = await deps.readContext.current();
      const { rows, total } = await deps.results.list(ctx, q, page);
      await sendJson(req, res, { as_of: ctx.asOf, meta: listMeta(req, res, page, total), data: rows.map((r) => presentResult(r, ctx.asOf, url)) } satisfies ResultListResponseBody);
    },

    async verify(req: Request, res: Response): Promise<void> {
      const ctx = await deps.readContext.current();
      const verification = await deps.verification.verify(ctx, String(req.params.number));
      await sendJson(req, res, { as_of: ctx.asOf, ...presentVerification(verification) } satisfies VerificationResponseBody);
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
          scopes: p.scopes as KeyInfoResponseBody['data']['scopes'],
          rate_limit_per_minute: p.rateLimitPerMinute,
          expires_at: p.expiresAt ? p.expiresAt.toISOString() : null,
          request_count: requestCount,
        },
      } satisfies KeyInfoResponseBody);
    },
  };
}
