/**
 * Every named shape of the partner API, in the order of the document's `components/schemas`:
 * the OpenAPI document (../openapi.document.ts) is generated from this map.
 */
import type { z } from 'zod';
import { BoutResult, Country, Division, Event, FighterSummary, Result, ResultPoints } from '../../domain/catalog/view.schemas';
import { ErrorBody, PageMeta } from '../../http/schemas';
import { KeyInfo } from './account.schemas';
import { Fighter, FighterProfile, FighterRecordSchema, MinorFighter } from './fighter.schemas';
import { DivisionSummary, RankedRow } from './ranking.schemas';
import * as responses from './responses';

export const PARTNER_COMPONENTS: Record<string, z.ZodType> = {
  Country,
  Division,
  Record: FighterRecordSchema,
  FighterSummary,
  Fighter,
  FighterProfile,
  MinorFighter,
  Event,
  ResultPoints,
  Result,
  BoutResult,
  RankedRow,
  DivisionSummary,
  Meta: PageMeta,
  KeyInfo,
  Error: ErrorBody,
  RankingResponse: responses.RankingResponse,
  DivisionListResponse: responses.DivisionListResponse,
  FighterListResponse: responses.FighterListResponse,
  FighterProfileResponse: responses.FighterProfileResponse,
  EventListResponse: responses.EventListResponse,
  EventResponse: responses.EventResponse,
  EventResultsResponse: responses.EventResultsResponse,
  ResultListResponse: responses.ResultListResponse,
  VerificationResponse: responses.VerificationResponse,
  KeyInfoResponse: responses.KeyInfoResponse,
};
