/**
 * The partner API's answer envelopes, one per endpoint (zod, the source of the partner OpenAPI
 * document; the routes build exactly these). Every successful answer carries `as_of`.
 */
import { z } from 'zod';
import { Division, Event, Result } from '../../domain/catalog/view.schemas';
import { PageMeta } from '../../http/schemas';
import { KeyInfo, verificationFields } from './account.schemas';
import { Fighter, FighterProfile, MinorFighter } from './fighter.schemas';
import { DivisionSummary, RankedRow } from './ranking.schemas';

const asOf = () =>
  z.iso.date().meta({
    description: 'The date of the latest published ranking run (YYYY-MM-DD). Every successful answer carries it.',
    example: '2026-11-20',
  });
const count = (description: string) => z.int().min(0).meta({ description });

export const RankingResponse = z
  .strictObject({
    as_of: asOf(),
    division: Division,
    scope: z.string().meta({ description: 'The scope of the table: `world`, a continent slug or a country slug.' }),
    count: count('Number of rows.'),
    data: z.array(RankedRow).meta({ description: 'Rows by rank; ties are listed by name.' }),
  })
  .meta({ description: 'A ranking table.' });

export const DivisionListResponse = z
  .strictObject({
    as_of: asOf(),
    count: count('Number of divisions.'),
    data: z.array(DivisionSummary).meta({ description: 'Ordered by discipline, category, gender and weight.' }),
  })
  .meta({ description: 'The ranked divisions.' });

export const FighterListResponse = z
  .strictObject({
    as_of: asOf(),
    meta: PageMeta,
    data: z.array(Fighter).meta({ description: 'Ordered by name, then slug. Minors are never listed.' }),
  })
  .meta({ description: 'A page of fighters.' });

export const FighterProfileResponse = z
  .strictObject({
    as_of: asOf(),
    data: z.xor([FighterProfile, MinorFighter]).meta({ description: 'The full profile of an adult, or the reduced profile of a minor.' }),
  })
  .meta({ description: 'One fighter.' });

export const EventListResponse = z
  .strictObject({
    as_of: asOf(),
    meta: PageMeta,
    data: z.array(Event).meta({ description: 'Date descending; with `upcoming=1`, date ascending from today.' }),
  })
  .meta({ description: 'A page of sanctioned events.' });

export const EventResponse = z.strictObject({ as_of: asOf(), data: Event }).meta({ description: 'One sanctioned event.' });

export const EventResultsResponse = z
  .strictObject({
    as_of: asOf(),
    event: Event,
    count: count('Number of results.'),
    data: z.array(Result).meta({ description: 'Verified results of the event in bout order (one per adult fighter of a bout).' }),
  })
  .meta({ description: 'The verified results of one event.' });

export const ResultListResponse = z
  .strictObject({
    as_of: asOf(),
    meta: PageMeta,
    data: z.array(Result).meta({ description: 'Event date descending, then event code, then bout order.' }),
  })
  .meta({ description: 'A page of verified results.' });

export const VerificationResponse = z
  .strictObject({ as_of: asOf(), ...verificationFields })
  .meta({ description: 'Verification answer; the fields stand at the top level (no `data` wrapper).' });

export const KeyInfoResponse = z.strictObject({ as_of: asOf(), data: KeyInfo }).meta({ description: 'The key used for the request.' });

export type RankingResponseBody = z.infer<typeof RankingResponse>;
export type DivisionListResponseBody = z.infer<typeof DivisionListResponse>;
export type FighterListResponseBody = z.infer<typeof FighterListResponse>;
export type FighterProfileResponseBody = z.infer<typeof FighterProfileResponse>;
export type EventListResponseBody = z.infer<typeof EventListResponse>;
export type EventResponseBody = z.infer<typeof EventResponse>;
export type EventResultsResponseBody = z.infer<typeof EventResultsResponse>;
export type ResultListResponseBody = z.infer<typeof ResultListResponse>;
export type VerificationResponseBody = z.infer<typeof VerificationResponse>;
export type KeyInfoResponseBody = z.infer<typeof KeyInfoResponse>;
