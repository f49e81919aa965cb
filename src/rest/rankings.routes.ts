import type { Request, Response } from 'express';
import { sendJson } from '../http/send-json';
import type { RankingsReader } from './rankings.reader';

export { matchDivision } from './rankings.reader';

export function rankingsHandlers(reader: RankingsReader) {
  return {
    async rankings(req: Request, res: Response): Promise<void> {
      await sendJson(req, res, await reader.rankings(req.query as Record<string, unknown>));
    },
    async divisions(req: Request, res: Response): Promise<void> {
      await sendJson(req, res, await reader.divisionSummaries());
    },
  };
}
