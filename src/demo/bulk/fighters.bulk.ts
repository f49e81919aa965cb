import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { addYears } from '../../domain/clock';
import { DomainError } from '../../domain/errors';
import { certificateNoFor, fighterCodeFor, licenceNoFor } from '../../domain/fighters/document-numbers';
import { foldText, slugify } from '../../domain/text';
import type { DemoFighter } from '../demo.types';
import { type Cell, reserveSequence, unnestInsert } from './unnest-insert';

export interface BulkContext {
  actor: string;
  today: string;
  now: Date;
  /** Country slug to its two-letter code; division ids that exist. */
  countryCodes: Map<string, string>;
  divisions: Set<string>;
  /** Slugs handed out so far, so that the next same-named fighter gets `-2`, `-3`, ... */
  slugs: Set<string>;
}

export interface BulkFighter {
  id: string;
  slug: string;
  divisionId: string;
}

const AUDIT: readonly (readonly [string, string])[] = [
  ['id', 'uuid'],
  ['actor', 'text'],
  ['action', 'text'],
  ['subject', 'text'],
  ['data', 'jsonb'],
  ['at', 'timestamptz'],
];

export function auditRow(ctx: BulkContext, action: string, subject: string, data: Record<string, unknown> | null = null): Cell[] {
  return [randomUUID(), ctx.actor, action, subject, data, ctx.now];
}

export async function insertAudit(em: EntityManager, rows: Cell[][]): Promise<void> {
  await unnestInsert(em, 'audit_entry', AUDIT, rows);
}

/** FighterService.uniqueSlug over the slugs handed out so far. */
function uniqueSlug(ctx: BulkContext, name: string): string {
  const base = slugify(name);
  let slug = base;
  for (let i = 2; ctx.slugs.has(slug); i++) slug = `${base}-${i}`;
  ctx.slugs.add(slug);
  return slug;
}

/**
 * Registers fighters and applies their licence and certificate scenarios in bulk, with the rules
 * of FighterService applied in memory: register (and apply), issue, suspend, renew, revoke, and a
 * medical certificate; the same rows, document numbers (from the same sequences, in the same
 * order) and audit entries as the one-by-one calls.
 */
export async function insertFighters(em: EntityManager, ctx: BulkContext, fighters: readonly DemoFighter[]): Promise<BulkFighter[]> {
  const licenceCount = fighters.reduce((n, f) => n + (f.licence === 'none' ? 0 : f.licence === 'renewed' ? 2 : 1), 0);
  const codeCount = fighters.filter((f) => f.licence !== 'none' && f.licence !== 'pending').length;
  let licenceSeq = await reserveSequence(em, 'licence_no_seq', licenceCount);
  let codeSeq = await reserveSequence(em, 'fighter_code_seq', codeCount);
  let certificateSeq = await reserveSequence(em, 'certificate_no_seq', fighters.filter((f) => f.certificate).length);
  const fighterRows: Cell[][] = [],
    identities: Cell[][] = [],
    licences: Cell[][] = [],
    certificates: Cell[][] = [],
    audit: Cell[][] = [];
  const out: BulkFighter[] = [];
  for (const f of fighters) {
    const code = ctx.countryCodes.get(f.countrySlug);
    if (!code) throw new DomainError('invalid_country', `unknown country "${f.countrySlug}"`);
    if (!ctx.divisions.has(f.divisionKey)) throw new DomainError('invalid_division', `unknown division "${f.divisionKey}"`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(f.dateOfBirth) || Number.isNaN(Date.parse(f.dateOfBirth)))
      throw new DomainError('invalid_dob', 'date of birth must be YYYY-MM-DD');
    const id = randomUUID();
    const slug = uniqueSlug(ctx, f.name);
    audit.push(auditRow(ctx, 'fighters.register', slug));
    const licence = (state: string, current: boolean, issuedOn: string | null, validUntil: string | null, verified: boolean): string => {
      const number = licenceNoFor(code, Number((issuedOn ?? ctx.today).slice(0, 4)), licenceSeq++);
      licences.push([randomUUID(), id, number, state, current, issuedOn, validUntil, verified ? ctx.now : null, ctx.now]);
      return number;
    };
    let status = 'applicant';
    let fighterCode: string | null = null;
    const issue = (issuedOn: string | null, validUntil: string | null, state: string, current: boolean): string => {
      const on = issuedOn ?? ctx.today;
      const number = licence(state, current, on, validUntil ?? addYears(on, 1), true);
      fighterCode ??= fighterCodeFor(codeSeq++);
      audit.push(auditRow(ctx, 'licences.issue', slug, { licence_no: number }));
      return number;
    };
    switch (f.licence) {
      case 'pending':
        licence('pending', true, null, null, false);
        break;
      case 'active':
      case 'expired':
        issue(f.licenceIssuedOn, f.licenceValidUntil, 'active', true);
        status = 'licensed';
        break;
      case 'suspended':
        audit.push(auditRow(ctx, 'licences.suspend', slug, { licence_no: issue(f.licenceIssuedOn, f.licenceValidUntil, 'suspended', true) }));
        status = 'suspended';
        break;
      case 'renewed':
        issue(f.previousLicenceIssuedOn, f.previousLicenceIssuedOn && addYears(f.previousLicenceIssuedOn, 1), 'superseded', false);
        issue(f.licenceIssuedOn, f.licenceValidUntil, 'active', true);
        status = 'licensed';
        break;
      case 'revoked':
        audit.push(auditRow(ctx, 'licences.revoke', slug, { licence_no: issue(f.licenceIssuedOn, f.licenceValidUntil, 'revoked', false) }));
        break;
      default:
        break;
    }
    if (f.certificate) {
      const on = f.certificateIssuedOn ?? ctx.today;
      const number = certificateNoFor(Number(on.slice(0, 4)), certificateSeq++);
      const state = f.certificate === 'expired' ? 'active' : f.certificate;
      certificates.push([randomUUID(), id, number, 'medical', state, on, f.certificateValidUntil ?? addYears(on, 1), ctx.now]);
      audit.push(auditRow(ctx, 'certificates.issue', slug, { certificate_no: number }));
    }
    const name = f.name.trim();
    fighterRows.push([
      id,
      slug,
      name,
      foldText(`${f.name} ${f.nickname ?? ''}`.trim()),
      foldText(name),
      f.nickname?.trim() || null,
      f.countrySlug,
      f.divisionKey,
      status,
      f.rankingPublished,
      fighterCode,
      ctx.now,
      ctx.now,
    ]);
    identities.push([id, f.dateOfBirth, f.email, f.phone, f.address]);
    out.push({ id, slug, divisionId: f.divisionKey });
  }
  await unnestInsert(
    em,
    'fighter',
    [
      ['id', 'uuid'],
      ['slug', 'text'],
      ['name', 'text'],
      ['search_text', 'text'],
      ['sort_name', 'text'],
      ['nickname', 'text'],
      ['country_slug', 'text'],
      ['division_id', 'text'],
      ['status', 'text'],
      ['ranking_published', 'bool'],
      ['fighter_code', 'text'],
      ['created_at', 'timestamptz'],
      ['updated_at', 'timestamptz'],
    ],
    fighterRows,
  );
  await unnestInsert(
    em,
    'fighter_identity',
    [
      ['fighter_id', 'uuid'],
      ['date_of_birth', 'date'],
      ['email', 'text'],
      ['phone', 'text'],
      ['address', 'text'],
    ],
    identities,
  );
  await unnestInsert(
    em,
    'licence',
    [
      ['id', 'uuid'],
      ['fighter_id', 'uuid'],
      ['licence_no', 'text'],
      ['state', 'text'],
      ['current', 'bool'],
      ['issued_on', 'date'],
      ['valid_until', 'date'],
      ['verified_at', 'timestamptz'],
      ['created_at', 'timestamptz'],
    ],
    licences,
  );
  await unnestInsert(
    em,
    'certificate',
    [
      ['id', 'uuid'],
      ['fighter_id', 'uuid'],
      ['certificate_no', 'text'],
      ['kind', 'text'],
      ['state', 'text'],
      ['issued_on', 'date'],
      ['valid_until', 'date'],
      ['created_at', 'timestamptz'],
    ],
    certificates,
  );
  await insertAudit(em, audit);
  return out;
}
