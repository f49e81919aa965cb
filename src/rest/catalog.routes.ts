import type { Request, Response } from 'express';
import { setPageLinks } from '../http/page-links';
import { sendJson } from '../http/send-json';
import type { CatalogReader, ListBody } from './catalog.reader';

/** Fighters, events, results, verification and key information: one cached body each (CatalogReader). */
export function catalogHandlers(reader: CatalogReader, publicUrl: string) {
  const query = (req: Request) => req.query as Record<string, unknown>;
  /** A list page with its `Link` header (first, prev, next, last). */
  const sendList = async (req: Request, res: Response, page: ListBody) => {
    setPageLinks(res, publicUrl, req.originalUrl, page.meta, page.known);
    await sendJson(req, res, page.json);
  };
  return {
    async fighters(req: Request, res: Response): Promise<void> {
      await sendList(req, res, await reader.fighters(query(req)));
    },
    async fighter(req: Request, res: Response): Promise<void> {
      await sendJson(req, res, await reader.fighter(String(req.params.slug)));
    },
    async events(req: Request, res: Response): Promise<void> {
      await sendList(req, res, await reader.events(query(req)));
    },
    async event(req: Request, res: Response): Promise<void> {
      await sendJson(req, res, await reader.event(String(req.params.code)));
    },
    async eventResults(req: Request, res: Response): Promise<void> {
      await sendJson(req, res, await reader.eventResults(String(req.params.code)));
    },
    async results(req: Request, res: Response): Promise<void> {
      await sendList(req, res, await reader.results(query(req)));
    },
    async verify(req: Request, res: Response): Promise<void> {
      await sendJson(req, res, await reader.verify(String(req.params.number)));
    },
    async me(req: Request, res: Response): Promise<void> {
      await sendJson(req, res, await reader.me(res.locals.partnerPrincipal!));
    },
  };
}
