/** The partner API's ranking shapes (zod, the source of the partner OpenAPI document). */
import { z } from 'zod';
import { divisionFields, FighterSummary } from '../../domain/catalog/view.schemas';
import { FighterRecordSchema } from './fighter.schemas';

export const RankedRow = z
  .strictObject({
    rank: z.int().min(1).meta({ description: 'Rank; ties share a rank (1, 2, 2, 4).' }),
    movement: z.int().nullable().meta({ description: "Previous run's rank minus the current rank (positive = up); null for a new entry." }),
    points: z.number().meta({ description: 'Ranking points in the division.' }),
    record: FighterRecordSchema,
    fighter: FighterSummary,
  })
  .meta({ description: 'One row of a ranking table.' });

const queryValue = (name: string) => z.string().meta({ description: `Value for the \`${name}\` parameter.` });

export const DivisionSummary = z
  .strictObject({
    ...divisionFields,
    ranked: z.int().min(1).meta({ description: 'Number of ranked fighters.' }),
    query: z
      .strictObject({ disc: queryValue('disc'), cat: queryValue('cat'), g: queryValue('g'), wc: queryValue('wc') })
      .meta({ description: 'The `/rankings` query parameters that select this division.' }),
    leader: z
      .strictObject({ points: z.number().meta({ description: "The leader's points." }), fighter: FighterSummary })
      .meta({ description: 'The world number one of the division.' }),
  })
  .meta({ description: 'A division that has at least one ranked fighter.' });

export type RankedRowBody = z.infer<typeof RankedRow>;
export type DivisionSummaryBody = z.infer<typeof DivisionSummary>;
