/**
 * The partner API's fighter shapes (zod, the source of the partner OpenAPI document; presenters.ts
 * is typed by them). The embedded summary, country and division are the catalogue's views
 * (src/domain/catalog/view.schemas.ts).
 */
import { z } from 'zod';
import { BoutResult, Country, Division, fighterSummaryFields } from '../../domain/catalog/view.schemas';

const counter = (description: string) => z.int().min(0).meta({ description });

export const FighterRecordSchema = z
  .strictObject({
    W: counter('Wins.'),
    L: counter('Losses.'),
    D: counter('Draws.'),
    NC: counter('No contests.'),
    KO: counter('Wins by KO or TKO (included in W).'),
  })
  .meta({ description: "Counts of the fighter's verified bouts." });

const fighterFields = {
  ...fighterSummaryFields,
  points: z.number().nullable().meta({ description: "Current ranking points in the fighter's division, or null." }),
  record: FighterRecordSchema,
  ranks: z
    .record(z.string(), z.int().min(1))
    .nullable()
    .meta({
      description:
        "Ranks in the fighter's division by scope: keys are scope values accepted by `/rankings` " +
        '(`world`, a continent slug, a country slug), values are ranks. Null when the fighter is not ranked.',
      example: { world: 12, europe: 4, germany: 1 },
    }),
};

export const Fighter = z.strictObject(fighterFields).meta({ description: 'A fighter with points, record and ranks.' });

export const FighterProfile = z
  .strictObject({
    ...fighterFields,
    bouts: z.array(BoutResult).max(20).meta({ description: "The fighter's last 20 verified results, newest first." }),
  })
  .meta({ description: 'Profile of an adult fighter.' });

export const MinorFighter = z
  .strictObject({ name: fighterSummaryFields.name, country: Country, division: Division })
  .meta({ description: 'Reduced profile of a fighter under 18: only name, country and division are ever shown.' });

export type FighterRecordBody = z.infer<typeof FighterRecordSchema>;
export type FighterBody = z.infer<typeof Fighter>;
export type FighterProfileBody = z.infer<typeof FighterProfile>;
export type MinorFighterBody = z.infer<typeof MinorFighter>;
