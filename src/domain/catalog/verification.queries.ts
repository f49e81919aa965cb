import { DomainError, notFound } from '../errors';
import { parseDocumentNumber, type DocumentKind } from '../fighters/document-numbers';
import type { FighterRow } from './fighter-summary.sql';
import { cardColumns } from './read-model/card.sql';
import type { ReadSql } from './read-model/read-sql';
import type { ReadContext } from './read-context';

export type VerificationStatus = 'ACTIVE' | 'SUSPENDED' | 'EXPIRED' | 'PENDING VERIFICATION' | 'NO MATCHING RECORD';

export interface Verification {
  matched: DocumentKind;
  status: VerificationStatus;
  valid: boolean;
  fighter: FighterRow | null;
}

interface DocumentRow extends FighterRow {
  d_state: string;
  d_current: boolean;
  d_valid_until: string | null;
}

// One unique-index lookup of the number, and its holder's card by primary key. `$1` is today.
const LOOKUPS: Record<DocumentKind, string> = {
  licence_no: `select l.state as d_state, l.current as d_current, l.valid_until::text as d_valid_until, ${cardColumns()}
    from licence l join fighter_card f on f.fighter_id = l.fighter_id where l.licence_no = $2`,
  certificate_no: `select c.state as d_state, c.state <> 'revoked' as d_current, c.valid_until::text as d_valid_until, ${cardColumns()}
    from certificate c join fighter_card f on f.fighter_id = c.fighter_id where c.certificate_no = $2`,
  fighter_code: `select 'fighter' as d_state, true as d_current, null as d_valid_until, ${cardColumns()}
    from fighter_card f where f.fighter_code = $2`,
};

export class VerificationQueries {
  constructor(private readonly db: ReadSql) {}

  async verify(ctx: ReadContext, raw: string): Promise<Verification> {
    const parsed = parseDocumentNumber(raw);
    if (!parsed) {
      throw new DomainError(
        'invalid_number',
        'number must be a fighter ID (FID-XXXX-XXXX), a licence number (LIC-CC-YYYY-NNNNNN) or a certificate number (CRT-YYYY-NNNNNN)',
      );
    }
    const rows = await this.db.rows<DocumentRow>(LOOKUPS[parsed.kind], [ctx.today, parsed.number]);
    const row = rows[0];
    if (!row) throw notFound(`document number "${parsed.number}"`);
    const status = statusOf(parsed.kind, row, ctx.today);
    return {
      matched: parsed.kind,
      status,
      valid: status === 'ACTIVE',
      fighter: status === 'NO MATCHING RECORD' ? null : row,
    };
  }
}

function statusOf(kind: DocumentKind, row: DocumentRow, today: string): VerificationStatus {
  if (!row.d_current) return 'NO MATCHING RECORD';
  if (kind === 'fighter_code') {
    if (row.f_status === 'suspended') return 'SUSPENDED';
    // A fighter ID stands for the fighter's licence: without a current licence the ID is not
    // verified for competition, so it reads as pending until a licence is issued again.
    return ({ active: 'ACTIVE', suspended: 'SUSPENDED', expired: 'EXPIRED' } as const)[row.f_licence_status as 'active'] ?? 'PENDING VERIFICATION';
  }
  if (row.d_state === 'pending') return 'PENDING VERIFICATION';
  if (row.d_state === 'suspended') return 'SUSPENDED';
  if (row.d_valid_until && row.d_valid_until < today) return 'EXPIRED';
  return 'ACTIVE';
}
