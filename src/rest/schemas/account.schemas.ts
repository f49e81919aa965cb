/** The partner API's key and verification shapes (zod, the source of the partner OpenAPI document). */
import { z } from 'zod';
import { FighterSummary } from '../../domain/catalog/view.schemas';
import { PARTNER_SCOPES } from '../../domain/partners/partner.entities';
import { VERIFICATION_MATCHES, VERIFICATION_STATUSES } from '../../domain/reference/vocabulary';
import { MinorFighter } from './fighter.schemas';

export const KeyInfo = z
  .strictObject({
    name: z.string().meta({ description: 'Name of the key.' }),
    partner: z
      .strictObject({
        slug: z.string().meta({ description: 'Partner slug.' }),
        name: z.string().meta({ description: 'Partner name.' }),
        status: z.string().meta({ description: 'Partner account status.' }),
      })
      .nullable()
      .meta({ description: 'The partner the key was issued to, or null.' }),
    scopes: z.array(z.enum(PARTNER_SCOPES)).meta({ description: 'Scopes of the key.', uniqueItems: true }),
    rate_limit_per_minute: z.int().min(1).meta({ description: 'Requests allowed per sliding 60-second window.' }),
    expires_at: z.iso.datetime({ offset: true }).nullable().meta({ description: 'Expiry time, or null when the key does not expire.' }),
    request_count: z.int().min(1).meta({ description: 'Requests authenticated with this key so far, this one included.' }),
  })
  .meta({ description: 'The API key used for the request.' });

/** The fields of a verification answer, which stand at the top level (no `data` wrapper). */
export const verificationFields = {
  valid: z.boolean().meta({ description: 'True only when `status` is `ACTIVE`.' }),
  status: z.enum(VERIFICATION_STATUSES).meta({ description: 'Verification status.' }),
  matched: z.enum(VERIFICATION_MATCHES).meta({ description: 'Which kind of number matched.' }),
  fighter: z
    .xor([FighterSummary, MinorFighter, z.null().meta({ type: 'object', description: 'null when `status` is `NO MATCHING RECORD`.' })])
    .meta({ description: 'The fighter the number belongs to (reduced for a minor), or null.' }),
};

export const Verification = z.strictObject(verificationFields);

export type KeyInfoBody = z.infer<typeof KeyInfo>;
export type VerificationBody = z.infer<typeof Verification>;
